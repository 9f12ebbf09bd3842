package bn254

import (
	"fmt"
	"slices"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
)

// The BN254 section of the review: what an EVM precompile costs on each
// library when its points arrive and leave as bytes, the Groth16
// verifying key plain against prepared (a trade-off table of the generic
// kind, results.TradeoffAcross: the key's rows against the pairing check of
// the G2 points in each form), and the key's IC. It reads only the
// results.

// bn254PrecompileOps are the operations of the precompiles' path, timed
// from the EIP-196/197 encodings: the columns of the precompiles table.
var bn254PrecompileOps = []struct {
	typ vocab.Type
	op  vocab.Op
}{{vocab.BN254G1, vocab.Add}, {vocab.BN254G1, vocab.ScalarMul}, {vocab.BN254G2, vocab.PairingCheck}, {vocab.BN254G1, vocab.Unmarshal}, {vocab.BN254G2, vocab.Unmarshal}}

// keyOps lists, per BN254 type, the operations whose cost a form changes
// most, best first (suites.Family.KeyOps): the precompiles' operations,
// then the encodings.
var keyOps = map[vocab.Type][]vocab.Op{
	"BN254G1": {"add", "scalar-mul", "msm", "unmarshal", "marshal"},
	"BN254G2": {"pairing-check", "add", "scalar-mul", "msm", "unmarshal", "marshal"},
}

// Family is BN254 as a value: its section of the review.
func Family() suites.Family {
	return suites.Family{Family: vocab.BN254, Subject: "BN254", KeyOps: keyOps, Review: &suites.ReviewSection{
		Title:     "BN254: the precompiles' libraries and a prover's, memory against speed",
		Paragraph: "All four are pure Go: gnark-crypto's `ecc/bn254` (`gnark`), and go-ethereum's `crypto/bn256/gnark` (`bn256-gnark`, the wrapper its precompiles use on amd64 and arm64, holding gnark-crypto's points by value), `crypto/bn256/cloudflare` and `crypto/bn256/google`, whose points are a wrapper around a pointer to a hidden point (`decoded`: the wrapper and what it points to are what a caller pays). `uncompressed` is the 64- or 128-byte EIP-196/197 encoding.",
		Blocks: func(rs *results.File) []suites.ReviewBlock {
			return slices.Concat(bn254Precompiles(rs), bn254Key(rs), bn254IC(rs))
		},
	}}
}

// bn254Op returns the row of op on typ timed with lib from repr, if it
// was timed without error.
func bn254Op(rs *results.File, typ vocab.Type, lib vocab.Lib, repr vocab.Repr, op vocab.Op) (results.ThroughputRow, bool) {
	for _, t := range rs.Throughput {
		if t.Type == typ && t.Lib == lib && t.Repr == repr && t.Op == op && t.Batch == 1 && t.Error == "" {
			return t, true
		}
	}
	return results.ThroughputRow{}, false
}

// bn254Precompiles are the operations timed from the encodings,
// one row per library: what a precompile call costs on it.
func bn254Precompiles(rs *results.File) []suites.ReviewBlock {
	var libs []vocab.Lib
	for _, l := range vocab.BN254.Libs() {
		for _, c := range bn254PrecompileOps {
			if _, ok := bn254Op(rs, c.typ, l, vocab.Uncompressed, c.op); ok && !slices.Contains(libs, l) {
				libs = append(libs, l)
			}
		}
	}
	if len(libs) == 0 {
		return nil
	}
	out := []suites.ReviewBlock{{Heading: "The precompiles' path: bytes in, bytes out"},
		{Paragraph: "Each operation from the EIP-196/197 encodings: the inputs decoded with the library's checks (coordinates below the field modulus, on the curve, G2 in the subgroup), the result encoded; the pairing check of two pairs. Median time per call, and the Go heap it allocates."}}
	t := suites.ReviewTable{Header: []string{"lib"}, Right: []bool{false}}
	for _, c := range bn254PrecompileOps {
		t.Header = append(t.Header, fmt.Sprintf("%s %s", c.typ, c.op))
		t.Right = append(t.Right, true)
	}
	for _, l := range libs {
		cells := []string{string(l)}
		for _, c := range bn254PrecompileOps {
			cell := "-"
			if r, ok := bn254Op(rs, c.typ, l, vocab.Uncompressed, c.op); ok {
				cell = units.FormatNs(r.NsPerOpMedian) + " · " + units.FormatBytes(r.BytesPerOp)
			}
			cells = append(cells, cell)
		}
		t.Rows = append(t.Rows, cells)
	}
	return append(out, suites.ReviewBlock{Table: &t})
}

// bn254Key is the verifying key's trade-off: its forms' bytes
// and the collector's figures per key beside the pairing check from each
// form of the G2 points.
func bn254Key(rs *results.File) []suites.ReviewBlock {
	keys := suites.Measured(rs, vocab.Groth16VerifyingKey)
	keys = slices.DeleteFunc(keys, func(r results.Row) bool { return r.Layout == measure.Slice })
	if len(keys) == 0 {
		return nil
	}
	out := []suites.ReviewBlock{{Heading: "A Groth16 verifying key: plain against prepared"},
		{Paragraph: "The key's fixed points: plain (α in G1; β, γ, δ in G2, as each library keeps points) or prepared (gnark-crypto: e(α, β) and the Miller-loop lines of -γ and -δ, what `PairingCheckFixedQ` takes). Per key; `single` is one key per process, `pointer` one per circuit of many, where the collector's figures per key resolve."}}
	t := suites.ReviewTable{Header: []string{"lib", "repr", "layout", "keys", "B/key", "objects/key", "GC scan B/key", "mark ns/key per cycle"},
		Right: []bool{false, false, false, true, true, true, true, true}}
	for _, r := range keys {
		t.Rows = append(t.Rows, []string{string(r.Lib), string(r.Repr), string(r.Layout), fmt.Sprint(r.N), units.FormatFigure(r.BytesPerInstance), units.FormatFigure(r.AllocsPerInstance),
			columnCell("scan_bytes_per_instance", r), columnCell("gc_mark_ns_per_instance", r)})
	}
	// The trade-off's rows are the keys, not the IC's points.
	onlyKeys := *rs
	onlyKeys.Instances = slices.DeleteFunc(slices.Clone(rs.Instances), func(r results.Row) bool {
		return r.Type == vocab.Groth16VerifyingKey && r.Layout == measure.Slice
	})
	return append(out, suites.ReviewBlock{Table: &t}, suites.ReviewBlock{Tradeoff: &suites.ReviewTradeoff{
		Rows: &onlyKeys, Type: vocab.Groth16VerifyingKey, OpType: vocab.BN254G2, Op: vocab.PairingCheck,
		Lead:    fmt.Sprintf("The trade-off: each form of the key against the pairing check of %s from the same form of its G2 points (the verification's cost).", vocab.BN254G2),
		Missing: fmt.Sprintf("_No trade-off table: the pairing check of %s was not timed from two of the key's forms._", vocab.BN254G2),
	}})
}

// columnCell is the cell of column col for r, as the columns format it.
func columnCell(col string, r results.Row) string {
	c, err := results.LookupColumn(col)
	if err != nil {
		return "n/a"
	}
	return c.Format(c.ReadInstance(&r))
}

// bn254IC is the key's IC points, per point, in each form.
func bn254IC(rs *results.File) []suites.ReviewBlock {
	var ic []results.Row
	for _, r := range suites.Measured(rs, vocab.Groth16VerifyingKey) {
		if r.Layout == measure.Slice {
			ic = append(ic, r)
		}
	}
	if len(ic) == 0 {
		if slices.ContainsFunc(rs.Instances, func(r results.Row) bool { return r.Type == vocab.Groth16VerifyingKey }) {
			return []suites.ReviewBlock{{Paragraph: fmt.Sprintf("_The key's IC (%s in the slice layout) was not measured: `--layout all` or `--layout slice` selects it._", vocab.Groth16VerifyingKey)}}
		}
		return nil
	}
	out := []suites.ReviewBlock{{Heading: fmt.Sprintf("The key's IC: %d G1 points in one slice", ic[0].N)},
		{Paragraph: "Per point. At this size the collector's figures may be within their resolution (~0); the BN254G1 slice rows at a larger N give them for the same forms."}}
	t := suites.ReviewTable{Header: []string{"lib", "repr", "B/point", "objects/point", "KiB in all", "GC scan B/point", "mark ns/point per cycle"},
		Right: []bool{false, false, true, true, true, true, true}}
	for _, r := range ic {
		t.Rows = append(t.Rows, []string{string(r.Lib), string(r.Repr), units.FormatFigure(r.BytesPerInstance), units.FormatFigure(r.AllocsPerInstance),
			units.FormatFixed(r.BytesPerInstance*float64(r.N)/1024, 1), columnCell("scan_bytes_per_instance", r), columnCell("gc_mark_ns_per_instance", r)})
	}
	return append(out, suites.ReviewBlock{Table: &t})
}
