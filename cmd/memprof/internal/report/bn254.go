package report

import (
	"fmt"
	"slices"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/model"
)

// The BN254 section of the review: what an EVM precompile costs on each
// library when its points arrive and leave as bytes, the Groth16
// verifying key plain against prepared (a trade-off table of the generic
// kind, model.TradeoffAcross: the key's rows against the pairing check of
// the G2 points in each form), and the key's IC. It reads only the
// results.

// bn254PrecompileOps are the operations of the precompiles' path, timed
// from the EIP-196/197 encodings: the columns of the precompiles table.
var bn254PrecompileOps = []struct {
	typ model.Type
	op  model.Op
}{{model.BN254G1, model.Add}, {model.BN254G1, model.ScalarMul}, {model.BN254G2, model.PairingCheck}, {model.BN254G1, model.Unmarshal}, {model.BN254G2, model.Unmarshal}}

// writeBN254 writes the BN254 section when rs holds BN254 rows.
func writeBN254(mw *render.MarkdownWriter, rs *model.Results) {
	if !slices.ContainsFunc(rs.Instances, func(r model.Result) bool { return r.Family() == model.BN254 }) &&
		!slices.ContainsFunc(rs.Throughput, func(r model.ThroughputRow) bool { return r.Family() == model.BN254 }) {
		return
	}
	mw.Line("## BN254: the precompiles' libraries and a prover's, memory against speed")
	mw.Line("")
	mw.Line("All four are pure Go: gnark-crypto's `ecc/bn254` (`gnark`), and go-ethereum's `crypto/bn256/gnark` (`bn256-gnark`, the wrapper its precompiles use on amd64 and arm64, holding gnark-crypto's points by value), `crypto/bn256/cloudflare` and `crypto/bn256/google`, whose points are a wrapper around a pointer to a hidden point (`decoded`: the wrapper and what it points to are what a caller pays). `uncompressed` is the 64- or 128-byte EIP-196/197 encoding.")
	mw.Line("")
	writeBN254Precompiles(mw, rs)
	writeBN254Key(mw, rs)
	writeBN254IC(mw, rs)
}

// bn254Op returns the row of op on typ timed with lib from repr, if it
// was timed without error.
func bn254Op(rs *model.Results, typ model.Type, lib model.Lib, repr model.Repr, op model.Op) (model.ThroughputRow, bool) {
	for _, t := range rs.Throughput {
		if t.Type == typ && t.Lib == lib && t.Repr == repr && t.Op == op && t.Batch == 1 && t.Error == "" {
			return t, true
		}
	}
	return model.ThroughputRow{}, false
}

// writeBN254Precompiles writes the operations timed from the encodings,
// one row per library: what a precompile call costs on it.
func writeBN254Precompiles(mw *render.MarkdownWriter, rs *model.Results) {
	var libs []model.Lib
	for _, l := range model.BN254.Libs() {
		for _, c := range bn254PrecompileOps {
			if _, ok := bn254Op(rs, c.typ, l, model.Uncompressed, c.op); ok && !slices.Contains(libs, l) {
				libs = append(libs, l)
			}
		}
	}
	if len(libs) == 0 {
		return
	}
	mw.Line("### The precompiles' path: bytes in, bytes out")
	mw.Line("")
	mw.Line("Each operation from the EIP-196/197 encodings: the inputs decoded with the library's checks (coordinates below the field modulus, on the curve, G2 in the subgroup), the result encoded; the pairing check of two pairs. Median time per call, and the Go heap it allocates.")
	mw.Line("")
	t := render.MarkdownTable{Header: []string{"lib"}, Right: []bool{false}}
	for _, c := range bn254PrecompileOps {
		t.Header = append(t.Header, fmt.Sprintf("%s %s", c.typ, c.op))
		t.Right = append(t.Right, true)
	}
	for _, l := range libs {
		cells := []string{string(l)}
		for _, c := range bn254PrecompileOps {
			cell := "-"
			if r, ok := bn254Op(rs, c.typ, l, model.Uncompressed, c.op); ok {
				cell = model.FormatNs(r.NsPerOpMedian) + " · " + model.FormatBytes(r.BytesPerOp)
			}
			cells = append(cells, cell)
		}
		t.Rows = append(t.Rows, cells)
	}
	mw.Table(t)
	mw.Line("")
}

// writeBN254Key writes the verifying key's trade-off: its forms' bytes
// and the collector's figures per key beside the pairing check from each
// form of the G2 points.
func writeBN254Key(mw *render.MarkdownWriter, rs *model.Results) {
	keys := measured(rs, model.Groth16VerifyingKey)
	keys = slices.DeleteFunc(keys, func(r model.Result) bool { return r.Layout == model.Slice })
	if len(keys) == 0 {
		return
	}
	mw.Line("### A Groth16 verifying key: plain against prepared")
	mw.Line("")
	mw.Line("The key's fixed points: plain (α in G1; β, γ, δ in G2, as each library keeps points) or prepared (gnark-crypto: e(α, β) and the Miller-loop lines of -γ and -δ, what `PairingCheckFixedQ` takes). Per key; `single` is one key per process, `pointer` one per circuit of many, where the collector's figures per key resolve.")
	mw.Line("")
	t := render.MarkdownTable{Header: []string{"lib", "repr", "layout", "keys", "B/key", "objects/key", "GC scan B/key", "mark ns/key per cycle"},
		Right: []bool{false, false, false, true, true, true, true, true}}
	for _, r := range keys {
		t.Rows = append(t.Rows, []string{string(r.Lib), string(r.Repr), string(r.Layout), fmt.Sprint(r.N), model.FormatFigure(r.BytesPerInstance), model.FormatFigure(r.AllocsPerInstance),
			columnCell("scan_bytes_per_instance", r), columnCell("gc_mark_ns_per_instance", r)})
	}
	mw.Table(t)
	mw.Line("")
	// The trade-off's rows are the keys, not the IC's points.
	onlyKeys := *rs
	onlyKeys.Instances = slices.DeleteFunc(slices.Clone(rs.Instances), func(r model.Result) bool {
		return r.Type == model.Groth16VerifyingKey && r.Layout == model.Slice
	})
	if tr, ok := model.TradeoffAcross(&onlyKeys, model.Groth16VerifyingKey, model.BN254G2, model.PairingCheck); ok {
		mw.Printf("The trade-off: each form of the key against the pairing check of %s from the same form of its G2 points (the verification's cost). %s\n", model.BN254G2, tradeoffSentence(&onlyKeys, tr))
		mw.Line("")
		mw.Table(tradeoffTable(tr))
		mw.Line("")
	} else {
		mw.Printf("_No trade-off table: the pairing check of %s was not timed from two of the key's forms._\n", model.BN254G2)
		mw.Line("")
	}
}

// columnCell is the cell of column col for r, as the columns format it.
func columnCell(col string, r model.Result) string {
	c, err := model.LookupColumn(col)
	if err != nil {
		return "n/a"
	}
	return c.Format(c.ReadInstance(&r))
}

// writeBN254IC writes the key's IC points, per point, in each form.
func writeBN254IC(mw *render.MarkdownWriter, rs *model.Results) {
	var ic []model.Result
	for _, r := range measured(rs, model.Groth16VerifyingKey) {
		if r.Layout == model.Slice {
			ic = append(ic, r)
		}
	}
	if len(ic) == 0 {
		if slices.ContainsFunc(rs.Instances, func(r model.Result) bool { return r.Type == model.Groth16VerifyingKey }) {
			mw.Printf("_The key's IC (%s in the slice layout) was not measured: `--layout all` or `--layout slice` selects it._\n", model.Groth16VerifyingKey)
			mw.Line("")
		}
		return
	}
	mw.Printf("### The key's IC: %d G1 points in one slice\n", ic[0].N)
	mw.Line("")
	mw.Line("Per point. At this size the collector's figures may be within their resolution (~0); the BN254G1 slice rows at a larger N give them for the same forms.")
	mw.Line("")
	t := render.MarkdownTable{Header: []string{"lib", "repr", "B/point", "objects/point", "KiB in all", "GC scan B/point", "mark ns/point per cycle"},
		Right: []bool{false, false, true, true, true, true, true}}
	for _, r := range ic {
		t.Rows = append(t.Rows, []string{string(r.Lib), string(r.Repr), model.FormatFigure(r.BytesPerInstance), model.FormatFigure(r.AllocsPerInstance),
			model.FormatFixed(r.BytesPerInstance*float64(r.N)/1024, 1), columnCell("scan_bytes_per_instance", r), columnCell("gc_mark_ns_per_instance", r)})
	}
	mw.Table(t)
	mw.Line("")
}
