package report

import (
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	secpagree "github.com/memprof/memprof/suites/agree/secp256k1"
	"github.com/memprof/memprof/vocab"
)

// secpFixture is results whose trade-off is known: a decred signature
// kept as R‖S (64 B) verifies in 120 µs and as DER (80 B) in 130 µs, a
// libsecp256k1 R‖S in 40 µs; and two sender caches.
func secpFixture() *results.File {
	inst := func(typ vocab.Type, lib vocab.Lib, repr vocab.Repr, layout measure.Layout, param results.Param, n int, b float64) results.Row {
		return results.Row{Key: results.Key{Type: typ, Lib: lib, Repr: repr, Layout: layout, Param: param},
			Constructor: "made so", Measurement: measure.Measurement{N: n, BytesPerInstance: b, AllocsPerInstance: 1}}
	}
	op := func(lib vocab.Lib, repr vocab.Repr, ns float64) results.ThroughputRow {
		return results.ThroughputRow{Key: results.Key{Type: vocab.Secp256k1Signature, Lib: lib, Repr: repr, Op: vocab.Verify, Batch: 1},
			Timing: measure.Timing{Samples: 1, NsPerOpMedian: ns, NsPerOpQ1: ns, NsPerOpQ3: ns, SamplesNs: []float64{ns}}}
	}
	return &results.File{Schema: results.Schema,
		Instances: []results.Row{
			inst(vocab.Secp256k1Signature, vocab.Decred, vocab.RS, measure.Pointer, "", 1000, 64),
			inst(vocab.Secp256k1Signature, vocab.Decred, vocab.DER, measure.Pointer, "", 1000, 80),
			inst(vocab.Secp256k1Signature, vocab.Libsecp256k1, vocab.RS, measure.Pointer, "", 1000, 64),
			inst(vocab.SenderCache, vocab.Decred, vocab.MapAddress, measure.Collection, "population=10000", 10000, 91.5),
			inst(vocab.SenderCache, vocab.Libsecp256k1, vocab.SigCache, measure.Collection, "population=10000", 10000, 134.5),
		},
		Throughput: []results.ThroughputRow{op(vocab.Decred, vocab.RS, 120e3), op(vocab.Decred, vocab.DER, 130e3), op(vocab.Libsecp256k1, vocab.RS, 40e3)},
	}
}

// TestSecp256k1Section: the section names each library's fastest form at
// the key operation and the Pareto-optimal forms (from results.TradeoffOf),
// and lists the sender caches with their constructors; results without
// secp256k1 rows have no section.
func TestSecp256k1Section(t *testing.T) {
	checkSection(t, secpFixture(), kzgFixture(), secpagree.Family(), []string{
		"## secp256k1: cgo against pure Go",
		"V‖R‖S with V = 27 + recovery id",
		"- **Secp256k1Signature**: the fastest verify: libsecp256k1 from rs, 40.00 µs per call (64 B per instance); decred from rs, 120.0 µs per call (64 B per instance). Pareto-optimal (the trade-off table above): libsecp256k1 rs.",
		"### Sender cache",
		"| map-address | decred       |        10000 |   91.50 |",
		"| sigcache    | libsecp256k1 |        10000 |  134.50 |",
		"- decred map-address population=10000: `made so`",
	})
}
