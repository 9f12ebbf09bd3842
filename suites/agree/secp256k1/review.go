package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
)

// The secp256k1 section of the review: what an execution client weighs
// when it picks a library (go-ethereum's cgo libsecp256k1 or pure-Go
// decred) and a form for its keys, signatures and recovered senders. It
// reads only the results: each object type's trade-off (results.TradeoffOf,
// the summary's machinery: the Pareto-optimal forms, and each library's
// fastest form at the type's key operation) and the SenderCache rows.

// writeSecp256k1 writes the section when rs holds secp256k1 rows.
func writeSecp256k1(mw *render.MarkdownWriter, rs *results.File) {
	if !slices.ContainsFunc(rs.Instances, func(r results.Row) bool { return r.Family() == vocab.Secp256k1 }) &&
		!slices.ContainsFunc(rs.Throughput, func(r results.ThroughputRow) bool { return r.Family() == vocab.Secp256k1 }) {
		return
	}
	mw.Line("## secp256k1: cgo against pure Go")
	mw.Line("")
	mw.Line("`libsecp256k1` is go-ethereum's `crypto/secp256k1`, C behind cgo, with the key types of its `crypto` package (`*ecdsa.PrivateKey`, `*ecdsa.PublicKey` with `*big.Int` coordinates); `decred` is `github.com/decred/dcrd/dcrec/secp256k1/v4`, pure Go, its keys and signatures held by value. Decred's compact signature is V‖R‖S with V = 27 + recovery id; the harness converts it to Ethereum's R‖S‖V (V in {0, 1}), and that conversion is in decred's timings. Every verification applies Ethereum's low-S rule first (`crypto.ValidateSignatureValues` with homestead); recovery accepts a high S, as the ecRecover precompile must.")
	mw.Line("")
	for _, typ := range []vocab.Type{vocab.Secp256k1SecretKey, vocab.Secp256k1PublicKey, vocab.Secp256k1Signature} {
		t, ok := results.TradeoffOf(rs, typ)
		if !ok {
			continue
		}
		mw.Printf("- **%s**: %s\n", typ, secpTradeoffLine(t))
	}
	mw.Line("")
	writeSenderCache(mw, rs)
}

// secpTradeoffLine says, for t's key operation, each library's fastest
// form and the forms no other beats on every figure.
func secpTradeoffLine(t results.Tradeoff) string {
	j := render.KeyColumn(t)
	op := render.ColumnName(t.Ops[j])
	var fastest []string
	for _, lib := range vocab.Secp256k1.Libs() {
		var best *results.TradeoffRow
		for i := range t.Rows {
			r := &t.Rows[i]
			if r.Lib == lib && r.NsPerUse[j] != nil && (best == nil || *r.NsPerUse[j] < *best.NsPerUse[j]) {
				best = r
			}
		}
		if best != nil {
			fastest = append(fastest, fmt.Sprintf("%s from %s, %s per call (%s B per instance)", lib, best.Repr, units.FormatNs(*best.NsPerUse[j]), units.FormatFigure(best.BytesPerInstance)))
		}
	}
	var pareto []string
	for _, r := range t.Rows {
		if r.Pareto {
			pareto = append(pareto, string(r.Lib)+" "+string(r.Repr))
		}
	}
	s := "the fastest " + op + ": " + strings.Join(fastest, "; ")
	if len(pareto) > 0 {
		s += ". Pareto-optimal (the trade-off table above): " + strings.Join(pareto, ", ")
	}
	return s + "."
}

// writeSenderCache writes the SenderCache table: per form, library and
// population, the bytes, scan bytes and mark time of one entry, each as
// the figure's column formats it (~0 within its resolution, n/a when not
// measured).
func writeSenderCache(mw *render.MarkdownWriter, rs *results.File) {
	rows := measured(rs, vocab.SenderCache)
	if len(rows) == 0 {
		return
	}
	render.SortInstances(rows)
	mw.Line("### Sender cache")
	mw.Line("")
	mw.Line("Recovered senders kept by transaction hash, as an indexer, a builder or a transaction pool keeps them (go-ethereum's pool holds 6,144 transactions by default, each sender in a `sigCache` behind an `atomic.Pointer`); one entry per transaction, map and all:")
	mw.Line("")
	cols := []string{"bytes_per_instance", "allocs_per_instance", "scan_bytes_per_instance", "gc_mark_ns_per_instance"}
	t := render.MarkdownTable{Header: []string{"form", "lib", "transactions", "B/entry", "objects/entry", "GC scan B/entry", "mark ns/entry/cycle", "MB at 1M"},
		Right: []bool{false, false, true, true, true, true, true, true}}
	for _, r := range rows {
		cells := []string{string(r.Repr), string(r.Lib), units.FormatFigure(float64(r.N))}
		for _, name := range cols {
			c, err := results.LookupColumn(name)
			if err != nil {
				cells = append(cells, "n/a")
				continue
			}
			cells = append(cells, c.Format(c.ReadInstance(&r)))
		}
		t.Rows = append(t.Rows, append(cells, mb(r.BytesPerInstance)))
	}
	mw.Table(t)
	mw.Line("")
	mw.Line("How each cache was made:")
	mw.Line("")
	for _, r := range rows {
		mw.Printf("- %s %s: `%s`\n", r.Lib, strings.TrimSpace(string(r.Repr)+" "+string(r.Param)), r.Constructor)
	}
	mw.Line("")
}
