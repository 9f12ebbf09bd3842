package secp256k1

import (
	"fmt"
	"slices"
	"strings"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
)

// The secp256k1 section of the review: what an execution client weighs
// when it picks a library (go-ethereum's cgo libsecp256k1 with its pure-Go
// key objects, or pure-Go decred) and a form for its keys, signatures and recovered senders. It
// reads only the results: each object type's trade-off (results.TradeoffOf,
// the summary's machinery: the Pareto-optimal forms, and each library's
// fastest form at the type's key operation) and the SenderCache rows.

// Family is secp256k1 as a value: its section of the review.
func Family() suites.Family {
	return suites.Family{Family: vocab.Secp256k1, Subject: "secp256k1", KeyOps: keyOps, Review: &suites.ReviewSection{
		Title:     "secp256k1: cgo against pure Go",
		Paragraph: "`libsecp256k1` is go-ethereum's `crypto/secp256k1`, C behind cgo, and the byte forms it computes and takes; `go-ethereum` is the key types of its `crypto` package (`*ecdsa.PrivateKey`, `*ecdsa.PublicKey` with `*big.Int` coordinates), pure Go that libsecp256k1's C code never holds; `decred` is `github.com/decred/dcrd/dcrec/secp256k1/v4`, pure Go, its keys and signatures held by value. Decred's compact signature is V‖R‖S with V = 27 + recovery id; the harness converts it to Ethereum's R‖S‖V (V in {0, 1}), and that conversion is in decred's timings. Every verification applies Ethereum's low-S rule first (`crypto.ValidateSignatureValues` with homestead); recovery accepts a high S, as the ecRecover precompile must.",
		Blocks: func(rs *results.File) []suites.ReviewBlock {
			return append([]suites.ReviewBlock{{TradeoffSummary: &suites.ReviewTradeoffSummary{
				Types: []vocab.Type{vocab.Secp256k1SecretKey, vocab.Secp256k1PublicKey, vocab.Secp256k1Signature},
				Libs:  vocab.Secp256k1.Libs(),
			}}}, senderCache(rs)...)
		},
	}}
}

// keyOps lists, per secp256k1 type, the operations whose cost a form
// changes most, best first (suites.Family.KeyOps): an execution client
// verifies signatures and recovers senders; a key kept compressed or as
// an address pays at verify.
var keyOps = map[vocab.Type][]vocab.Op{
	vocab.Secp256k1Signature: {vocab.Verify, vocab.Recover, vocab.RecoverAddress},
	vocab.Secp256k1PublicKey: {vocab.Verify, vocab.ToAddress, vocab.Decompress},
	vocab.Secp256k1SecretKey: {vocab.Sign},
}

// Suite gives the secp256k1 family's value to the registry.
func Suite() suites.Suite {
	return suites.Suite{Name: "secp256k1 family", Families: []suites.Family{Family()}}
}

// writeSenderCache writes the SenderCache table: per form, library and
// population, the bytes, scan bytes and mark time of one entry, each as
// the figure's column formats it (~0 within its resolution, n/a when not
// measured).
func senderCache(rs *results.File) []suites.ReviewBlock {
	rows := suites.Measured(rs, vocab.SenderCache)
	if len(rows) == 0 {
		return nil
	}
	slices.SortStableFunc(rows, func(a, b results.Row) int { return results.Compare(a.Key, b.Key) })
	out := []suites.ReviewBlock{{Heading: "Sender cache"}, {Paragraph: "Recovered senders kept by transaction hash, as an indexer, a builder or a transaction pool keeps them (go-ethereum's pool holds 6,144 transactions by default, each sender in a `sigCache` behind an `atomic.Pointer`); one entry per transaction, map and all:"}}
	cols := []string{"bytes_per_instance", "allocs_per_instance", "scan_bytes_per_instance", "gc_mark_ns_per_instance"}
	t := suites.ReviewTable{Header: []string{"form", "lib", "transactions", "B/entry", "objects/entry", "GC scan B/entry", "mark ns/entry/cycle", "MB at 1M"},
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
	var made []string
	for _, r := range rows {
		made = append(made, fmt.Sprintf("%s %s: `%s`", r.Lib, strings.TrimSpace(string(r.Repr)+" "+string(r.Param)), r.Constructor))
	}
	return append(out, suites.ReviewBlock{Table: &t}, suites.ReviewBlock{Paragraph: "How each cache was made:"}, suites.ReviewBlock{Bullets: made})
}

// mb formats bytes per instance as megabytes (10⁶ B) at 10⁶ instances,
// with one decimal, as the review's summary does.
func mb(bytesPerInstance float64) string {
	return units.FormatFixed(bytesPerInstance*1e6/1e6, 1)
}
