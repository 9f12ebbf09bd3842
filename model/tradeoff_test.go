package model

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// tradeoffResults is a type measured in four forms, timed at two
// operations: compressed is the smallest and slowest at verify; affine
// larger and faster; jacobian larger still, as fast at verify and slower
// at aggregate than affine (dominated by it); prepared the largest and
// fastest at verify, not timed at aggregate.
func tradeoffResults() *Results {
	inst := func(repr Repr, b float64, layout Layout) Result {
		return Result{Key: Key{Type: Signature, Lib: Blst, Repr: repr, Layout: layout, Scheme: MinPk}, Measurement: Measurement{N: 100, BytesPerInstance: b}}
	}
	op := func(repr Repr, o Op, batch int, ns float64) ThroughputRow {
		return ThroughputRow{Key: Key{Type: Signature, Lib: Blst, Repr: repr, Op: o, Batch: batch, Scheme: MinPk}, Timing: Timing{NsPerOpMedian: ns}}
	}
	return &Results{
		Instances: []Result{
			inst(Compressed, 96, Pointer), inst(Affine, 192, Pointer), inst(Affine, 190, Slice), inst(Jacobian, 288, Pointer), inst(Prepared, 24576, Pointer),
			{Key: Key{Type: Signature, Lib: Circl, Repr: Compressed, Layout: Pointer, Scheme: MinPk}, Measurement: Measurement{N: 100, BytesPerInstance: 48}}, // timed at nothing: no row
			{Key: Key{Type: Signature, Lib: Gnark, Repr: Affine, Layout: Pointer, Scheme: MinPk}, Error: "failed"},
		},
		Throughput: []ThroughputRow{
			op(Compressed, Verify, 1, 1100), op(Affine, Verify, 1, 1000), op(Jacobian, Verify, 1, 1000), op(Prepared, Verify, 1, 500),
			op(Compressed, Aggregate, 128, 9000), op(Affine, Aggregate, 128, 200), op(Jacobian, Aggregate, 128, 250),
			op(Affine, Sign, 1, 400), // timed from one representation only: no column
			{Key: Key{Type: Signature, Lib: Blst, Repr: Uncompressed, Op: Verify, Batch: 1}, Timing: Timing{NsPerOpMedian: 1050}}, // no instance row
		},
	}
}

func TestTradeoffOf(t *testing.T) {
	tr, ok := TradeoffOf(tradeoffResults(), Signature)
	if !ok {
		t.Fatal("got no trade-off")
	}
	var cols []string
	for _, c := range tr.Ops {
		cols = append(cols, fmt.Sprintf("%s/%d", c.Op, c.Batch))
	}
	if want := []string{"aggregate/128", "verify/1"}; !slices.Equal(cols, want) {
		t.Errorf("columns: got %v, want %v (ops timed from two measured forms, in vocabulary order)", cols, want)
	}
	type row struct {
		repr   Repr
		layout Layout
		bytes  float64
		times  string
		pareto bool
	}
	want := []row{
		{Affine, Pointer, 192, "200 1000", true},
		{Jacobian, Pointer, 288, "250 1000", false},
		{Compressed, Pointer, 96, "9000 1100", true},
		{Prepared, Pointer, 24576, "- 500", true},
	}
	if len(tr.Rows) != len(want) {
		t.Fatalf("got %d rows, want %d: %+v", len(tr.Rows), len(want), tr.Rows)
	}
	for i, w := range want {
		r := tr.Rows[i]
		var times []string
		for _, v := range r.NsPerUse {
			if v == nil {
				times = append(times, "-")
			} else {
				times = append(times, fmt.Sprint(*v))
			}
		}
		got := row{r.Repr, r.Layout, r.BytesPerInstance, strings.Join(times, " "), r.Pareto}
		if got != w {
			t.Errorf("row %d: got %+v, want %+v", i, got, w)
		}
	}
}

func TestTradeoffOfNone(t *testing.T) {
	rs := tradeoffResults()
	if _, ok := TradeoffOf(rs, PublicKey); ok {
		t.Error("PublicKey: got a trade-off, want none (nothing measured)")
	}
	rs.Throughput = rs.Throughput[7:8] // sign from affine alone
	if _, ok := TradeoffOf(rs, Signature); ok {
		t.Error("one form timed: got a trade-off, want none")
	}
	if got := Tradeoffs(rs); len(got) != 0 {
		t.Errorf("Tradeoffs: got %d tables, want none", len(got))
	}
}

func TestDominates(t *testing.T) {
	nan := func() float64 { var z float64; return z / z }()
	tests := []struct {
		a, b []float64
		want bool
	}{
		{[]float64{1, 2}, []float64{1, 3}, true},
		{[]float64{1, 2}, []float64{1, 2}, false},
		{[]float64{1, 4}, []float64{2, 3}, false},
		{[]float64{1, nan, 2}, []float64{1, 5, 3}, true},
	}
	for _, tt := range tests {
		if got := dominates(tt.a, tt.b); got != tt.want {
			t.Errorf("dominates(%v, %v): got %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestTradeoffAcross: a structure's rows (a verifying key plain or
// prepared) against the operations of the type of the points it holds,
// matched by library and representation, with only the operations asked
// for as columns.
func TestTradeoffAcross(t *testing.T) {
	key := func(lib Lib, repr Repr, b float64) Result {
		return Result{Key: Key{Type: Groth16VerifyingKey, Lib: lib, Repr: repr, Layout: Pointer}, Measurement: Measurement{N: 1000, BytesPerInstance: b}}
	}
	op := func(lib Lib, repr Repr, o Op, ns float64) ThroughputRow {
		return ThroughputRow{Key: Key{Type: BN254G2, Lib: lib, Repr: repr, Op: o, Batch: 1}, Timing: Timing{NsPerOpMedian: ns}}
	}
	rs := &Results{
		Instances: []Result{key(Gnark, Affine, 448), key(Gnark, Prepared, 40960), key(BN256Cloudflare, Decoded, 928)},
		Throughput: []ThroughputRow{
			op(Gnark, Affine, PairingCheck, 800e3), op(Gnark, Prepared, PairingCheck, 600e3), op(BN256Cloudflare, Decoded, PairingCheck, 3e6),
			op(Gnark, Affine, Add, 5e3), op(BN256Cloudflare, Decoded, Add, 6e3), // a column unless only pairing-check is asked for
			{Key: Key{Type: BN254G1, Lib: Gnark, Repr: Affine, Op: PairingCheck, Batch: 1}, Timing: Timing{NsPerOpMedian: 1}}, // another type: ignored
		},
	}
	tr, ok := TradeoffAcross(rs, Groth16VerifyingKey, BN254G2, PairingCheck)
	if !ok {
		t.Fatal("got no trade-off")
	}
	if tr.Type != Groth16VerifyingKey || tr.OpsOf != BN254G2 || tr.OpType() != BN254G2 {
		t.Errorf("got type %s, ops of %s, want %s of %s", tr.Type, tr.OpsOf, Groth16VerifyingKey, BN254G2)
	}
	if len(tr.Ops) != 1 || tr.Ops[0].Op != PairingCheck {
		t.Errorf("got columns %v, want the pairing check alone", tr.Ops)
	}
	var got []string
	for _, r := range tr.Rows {
		got = append(got, fmt.Sprintf("%s/%s %.0f %.0f %v", r.Lib, r.Repr, r.BytesPerInstance, *r.NsPerUse[0], r.Pareto))
	}
	want := []string{"gnark/affine 448 800000 true", "gnark/prepared 40960 600000 true", "bn256-cloudflare/decoded 928 3000000 false"}
	if !slices.Equal(got, want) {
		t.Errorf("got rows %v, want %v", got, want)
	}
	if all, _ := TradeoffAcross(rs, Groth16VerifyingKey, BN254G2); len(all.Ops) != 2 {
		t.Errorf("without an operation asked for: got %d columns, want 2 (add and pairing-check)", len(all.Ops))
	}
	if same, _ := TradeoffOf(rs, Groth16VerifyingKey); same.OpsOf != "" || len(same.Ops) != 0 {
		t.Errorf("TradeoffOf the key's own operations: got %+v, want none", same)
	}
}

// TestTradeoffsOfParams builds a type measured at two parameter sets by two
// libraries: each set gets its own table, whose rows are that set's
// instances and whose columns are the operations timed at that set, so
// that ML-DSA-44's keys are never compared with ML-DSA-87's.
func TestTradeoffsOfParams(t *testing.T) {
	inst := func(lib Lib, repr Repr, set Param, b float64) Result {
		return Result{Key: Key{Type: MLDSAPublicKey, Lib: lib, Repr: repr, Layout: Pointer, Param: set}, Measurement: Measurement{N: 100, BytesPerInstance: b}}
	}
	op := func(lib Lib, repr Repr, set Param, ns float64) ThroughputRow {
		return ThroughputRow{Key: Key{Type: MLDSAPublicKey, Lib: lib, Repr: repr, Op: Verify, Batch: 1, Param: set}, Timing: Timing{NsPerOpMedian: ns}}
	}
	const small, large Param = "set=ML-DSA-44", "set=ML-DSA-87"
	rs := &Results{
		Instances: []Result{
			inst(Circl, Packed, large, 2592), inst(Circl, Parsed, large, 70000), inst(FilippoMLDSA, Parsed, large, 2720),
			inst(Circl, Packed, small, 1312), inst(Circl, Parsed, small, 40000),
		},
		Throughput: []ThroughputRow{
			op(Circl, Packed, large, 900), op(Circl, Parsed, large, 300), op(FilippoMLDSA, Parsed, large, 400),
			op(Circl, Packed, small, 500), op(Circl, Parsed, small, 200),
			op(FilippoMLDSA, Packed, small, 100), // no instance row of its own set: not a row
		},
	}
	ts := TradeoffsOf(rs, MLDSAPublicKey)
	if len(ts) != 2 || ts[0].Param != small || ts[1].Param != large {
		t.Fatalf("got %d tables %+v, want one for %s then one for %s", len(ts), ts, small, large)
	}
	for _, tc := range []struct {
		tr    Tradeoff
		bytes []float64
		ns    []float64
	}{
		{ts[0], []float64{1312, 40000}, []float64{500, 200}},
		{ts[1], []float64{2592, 70000, 2720}, []float64{900, 300, 400}},
	} {
		if len(tc.tr.Ops) != 1 || tc.tr.Ops[0] != (TradeoffOp{Op: Verify, Batch: 1}) {
			t.Errorf("%s: got columns %+v, want verify alone, without the set (the table's)", tc.tr.Param, tc.tr.Ops)
		}
		var bytes, ns []float64
		for _, r := range tc.tr.Rows {
			bytes, ns = append(bytes, r.BytesPerInstance), append(ns, *r.NsPerUse[0])
		}
		if !slices.Equal(bytes, tc.bytes) || !slices.Equal(ns, tc.ns) {
			t.Errorf("%s: got bytes %v, times %v; want %v, %v", tc.tr.Param, bytes, ns, tc.bytes, tc.ns)
		}
	}
	if got := Tradeoffs(rs); len(got) != 2 {
		t.Errorf("Tradeoffs: got %d tables, want 2", len(got))
	}
}
