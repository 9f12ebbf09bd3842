package results

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/vocab"
)

// tradeoffResults is a type measured in four forms, timed at two
// operations: compressed is the smallest and slowest at verify; affine
// larger and faster; jacobian larger still, as fast at verify and slower
// at aggregate than affine (dominated by it); prepared the largest and
// fastest at verify, not timed at aggregate.
func tradeoffResults() *File {
	inst := func(repr vocab.Repr, b float64, layout measure.Layout) Row {
		return Row{Key: Key{Type: vocab.Signature, Lib: vocab.Blst, Repr: repr, Layout: layout, Scheme: vocab.MinPk}, Measurement: measure.Measurement{N: 100, BytesPerInstance: b}}
	}
	op := func(repr vocab.Repr, o vocab.Op, batch int, ns float64) ThroughputRow {
		return ThroughputRow{Key: Key{Type: vocab.Signature, Lib: vocab.Blst, Repr: repr, Op: o, Batch: batch, Scheme: vocab.MinPk}, Timing: measure.Timing{NsPerOpMedian: ns}}
	}
	return &File{
		Instances: []Row{
			inst(vocab.Compressed, 96, measure.Pointer), inst(vocab.Affine, 192, measure.Pointer), inst(vocab.Affine, 190, measure.Slice), inst(vocab.Jacobian, 288, measure.Pointer), inst(vocab.Prepared, 24576, measure.Pointer),
			{Key: Key{Type: vocab.Signature, Lib: vocab.Circl, Repr: vocab.Compressed, Layout: measure.Pointer, Scheme: vocab.MinPk}, Measurement: measure.Measurement{N: 100, BytesPerInstance: 48}}, // timed at nothing: no row
			{Key: Key{Type: vocab.Signature, Lib: vocab.Gnark, Repr: vocab.Affine, Layout: measure.Pointer, Scheme: vocab.MinPk}, Error: "failed"},
		},
		Throughput: []ThroughputRow{
			op(vocab.Compressed, vocab.Verify, 1, 1100), op(vocab.Affine, vocab.Verify, 1, 1000), op(vocab.Jacobian, vocab.Verify, 1, 1000), op(vocab.Prepared, vocab.Verify, 1, 500),
			op(vocab.Compressed, vocab.Aggregate, 128, 9000), op(vocab.Affine, vocab.Aggregate, 128, 200), op(vocab.Jacobian, vocab.Aggregate, 128, 250),
			op(vocab.Affine, vocab.Sign, 1, 400), // timed from one representation only: no column
			{Key: Key{Type: vocab.Signature, Lib: vocab.Blst, Repr: vocab.Uncompressed, Op: vocab.Verify, Batch: 1}, Timing: measure.Timing{NsPerOpMedian: 1050}}, // no instance row
		},
	}
}

func TestTradeoffOf(t *testing.T) {
	tr, ok := TradeoffOf(tradeoffResults(), vocab.Signature)
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
		repr   vocab.Repr
		layout measure.Layout
		bytes  float64
		times  string
		pareto bool
	}
	want := []row{
		{vocab.Affine, measure.Pointer, 192, "200 1000", true},
		{vocab.Jacobian, measure.Pointer, 288, "250 1000", false},
		{vocab.Compressed, measure.Pointer, 96, "9000 1100", true},
		{vocab.Prepared, measure.Pointer, 24576, "- 500", true},
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
	if _, ok := TradeoffOf(rs, vocab.PublicKey); ok {
		t.Error("PublicKey: got a trade-off, want none (nothing measured)")
	}
	rs.Throughput = rs.Throughput[7:8] // sign from affine alone
	if _, ok := TradeoffOf(rs, vocab.Signature); ok {
		t.Error("one form timed: got a trade-off, want none")
	}
	if got := Tradeoffs(rs); len(got) != 0 {
		t.Errorf("Tradeoffs: got %d tables, want none", len(got))
	}
}

func TestDominates(t *testing.T) {
	nan := func() float64 { var z float64; return z / z }()
	exact := func(vs ...float64) []span {
		var out []span
		for _, v := range vs {
			out = append(out, span{v, v})
		}
		return out
	}
	tests := []struct {
		name  string
		a, b  []span
		noise bool
		want  bool
	}{
		{"smaller, as fast", exact(1, 2), exact(1, 3), true, true},
		{"the same", exact(1, 2), exact(1, 2), true, false},
		{"one better, one worse", exact(1, 4), exact(2, 3), true, false},
		{"scan bytes unknown", exact(1, nan, 2), exact(1, 5, 3), true, true},
		// 2 ns faster, but within the quartiles of both: no better.
		{"faster within the noise", []span{{96, 96}, {9, 13}}, []span{{96, 96}, {10, 14}}, true, false},
		{"faster within the noise, by figures alone", []span{{96, 96}, {9, 13}}, []span{{96, 96}, {10, 14}}, false, true},
		{"faster beyond the noise", []span{{96, 96}, {9, 10}}, []span{{96, 96}, {12, 14}}, true, true},
		// Larger within the bytes' resolution, faster beyond the noise.
		{"larger within the resolution", []span{around(96.4, 0.5), {9, 10}}, []span{around(96, 0.5), {12, 14}}, true, true},
		{"untimed is worse", exact(1, 2), exact(1, math.Inf(1)), true, true},
	}
	for _, tt := range tests {
		if got := dominates(tt.a, tt.b, tt.noise); got != tt.want {
			t.Errorf("%s: dominates(%v, %v, noise %v): got %v, want %v", tt.name, tt.a, tt.b, tt.noise, got, tt.want)
		}
	}
}

// TestParetoBeyondNoise: of three forms whose times' quartile ranges all
// overlap, the smallest is the only Pareto-optimal one (the others are
// faster within the noise only); with ranges apart, the fastest is too.
func TestParetoBeyondNoise(t *testing.T) {
	row := func(b, q1, med, q3 float64) TradeoffRow {
		return TradeoffRow{BytesPerInstance: b, NsPerUse: []*float64{&med}, quartiles: [][2]float64{{q1, q3}}}
	}
	for _, tt := range []struct {
		name string
		rows []TradeoffRow
		want []bool
	}{
		{"overlapping", []TradeoffRow{row(48, 90, 100, 110), row(96, 85, 95, 105), row(144, 80, 90, 100)}, []bool{true, false, false}},
		{"apart", []TradeoffRow{row(48, 90, 100, 110), row(96, 85, 95, 105), row(144, 40, 45, 50)}, []bool{true, false, true}},
	} {
		markPareto(tt.rows)
		for i, r := range tt.rows {
			if r.Pareto != tt.want[i] {
				t.Errorf("%s: row %d (%v B): Pareto %v, want %v", tt.name, i, r.BytesPerInstance, r.Pareto, tt.want[i])
			}
		}
	}
}

// TestTradeoffAcross: a structure's rows (a verifying key plain or
// prepared) against the operations of the type of the points it holds,
// matched by library and representation, with only the operations asked
// for as columns.
func TestTradeoffAcross(t *testing.T) {
	key := func(lib vocab.Lib, repr vocab.Repr, b float64) Row {
		return Row{Key: Key{Type: vocab.Groth16VerifyingKey, Lib: lib, Repr: repr, Layout: measure.Pointer}, Measurement: measure.Measurement{N: 1000, BytesPerInstance: b}}
	}
	op := func(lib vocab.Lib, repr vocab.Repr, o vocab.Op, ns float64) ThroughputRow {
		return ThroughputRow{Key: Key{Type: vocab.BN254G2, Lib: lib, Repr: repr, Op: o, Batch: 1}, Timing: measure.Timing{NsPerOpMedian: ns}}
	}
	rs := &File{
		Instances: []Row{key(vocab.Gnark, vocab.Affine, 448), key(vocab.Gnark, vocab.Prepared, 40960), key(vocab.BN256Cloudflare, vocab.Decoded, 928)},
		Throughput: []ThroughputRow{
			op(vocab.Gnark, vocab.Affine, vocab.PairingCheck, 800e3), op(vocab.Gnark, vocab.Prepared, vocab.PairingCheck, 600e3), op(vocab.BN256Cloudflare, vocab.Decoded, vocab.PairingCheck, 3e6),
			op(vocab.Gnark, vocab.Affine, vocab.Add, 5e3), op(vocab.BN256Cloudflare, vocab.Decoded, vocab.Add, 6e3), // a column unless only pairing-check is asked for
			{Key: Key{Type: vocab.BN254G1, Lib: vocab.Gnark, Repr: vocab.Affine, Op: vocab.PairingCheck, Batch: 1}, Timing: measure.Timing{NsPerOpMedian: 1}}, // another type: ignored
		},
	}
	tr, ok := TradeoffAcross(rs, vocab.Groth16VerifyingKey, vocab.BN254G2, vocab.PairingCheck)
	if !ok {
		t.Fatal("got no trade-off")
	}
	if tr.Type != vocab.Groth16VerifyingKey || tr.OpsOf != vocab.BN254G2 || tr.OpType() != vocab.BN254G2 {
		t.Errorf("got type %s, ops of %s, want %s of %s", tr.Type, tr.OpsOf, vocab.Groth16VerifyingKey, vocab.BN254G2)
	}
	if len(tr.Ops) != 1 || tr.Ops[0].Op != vocab.PairingCheck {
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
	if all, _ := TradeoffAcross(rs, vocab.Groth16VerifyingKey, vocab.BN254G2); len(all.Ops) != 2 {
		t.Errorf("without an operation asked for: got %d columns, want 2 (add and pairing-check)", len(all.Ops))
	}
	if same, _ := TradeoffOf(rs, vocab.Groth16VerifyingKey); same.OpsOf != "" || len(same.Ops) != 0 {
		t.Errorf("TradeoffOf the key's own operations: got %+v, want none", same)
	}
}

// TestTradeoffsOfParams builds a type measured at two parameter sets by two
// libraries: each set gets its own table, whose rows are that set's
// instances and whose columns are the operations timed at that set, so
// that ML-DSA-44's keys are never compared with ML-DSA-87's.
func TestTradeoffsOfParams(t *testing.T) {
	inst := func(lib vocab.Lib, repr vocab.Repr, set Param, b float64) Row {
		return Row{Key: Key{Type: vocab.MLDSAPublicKey, Lib: lib, Repr: repr, Layout: measure.Pointer, Param: set}, Measurement: measure.Measurement{N: 100, BytesPerInstance: b}}
	}
	op := func(lib vocab.Lib, repr vocab.Repr, set Param, ns float64) ThroughputRow {
		return ThroughputRow{Key: Key{Type: vocab.MLDSAPublicKey, Lib: lib, Repr: repr, Op: vocab.Verify, Batch: 1, Param: set}, Timing: measure.Timing{NsPerOpMedian: ns}}
	}
	const small, large Param = "set=ML-DSA-44", "set=ML-DSA-87"
	rs := &File{
		Instances: []Row{
			inst(vocab.Circl, vocab.Packed, large, 2592), inst(vocab.Circl, vocab.Parsed, large, 70000), inst(vocab.FilippoMLDSA, vocab.Parsed, large, 2720),
			inst(vocab.Circl, vocab.Packed, small, 1312), inst(vocab.Circl, vocab.Parsed, small, 40000),
		},
		Throughput: []ThroughputRow{
			op(vocab.Circl, vocab.Packed, large, 900), op(vocab.Circl, vocab.Parsed, large, 300), op(vocab.FilippoMLDSA, vocab.Parsed, large, 400),
			op(vocab.Circl, vocab.Packed, small, 500), op(vocab.Circl, vocab.Parsed, small, 200),
			op(vocab.FilippoMLDSA, vocab.Packed, small, 100), // no instance row of its own set: not a row
		},
	}
	ts := TradeoffsOf(rs, vocab.MLDSAPublicKey)
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
		if len(tc.tr.Ops) != 1 || tc.tr.Ops[0] != (TradeoffOp{Op: vocab.Verify, Batch: 1}) {
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
