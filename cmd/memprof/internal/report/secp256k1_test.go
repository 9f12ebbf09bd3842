package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/model"
)

// secpFixture is results whose trade-off is known: a decred signature
// kept as R‖S (64 B) verifies in 120 µs and as DER (80 B) in 130 µs, a
// libsecp256k1 R‖S in 40 µs; and two sender caches.
func secpFixture() *model.Results {
	inst := func(typ model.Type, lib model.Lib, repr model.Repr, layout model.Layout, param model.Param, n int, b float64) model.Result {
		return model.Result{Key: model.Key{Type: typ, Lib: lib, Repr: repr, Layout: layout, Param: param},
			Constructor: "made so", Measurement: model.Measurement{N: n, BytesPerInstance: b, AllocsPerInstance: 1}}
	}
	op := func(lib model.Lib, repr model.Repr, ns float64) model.ThroughputRow {
		return model.ThroughputRow{Key: model.Key{Type: model.Secp256k1Signature, Lib: lib, Repr: repr, Op: model.Verify, Batch: 1},
			Timing: model.Timing{Samples: 1, NsPerOpMedian: ns, NsPerOpQ1: ns, NsPerOpQ3: ns, SamplesNs: []float64{ns}}}
	}
	return &model.Results{Schema: model.Schema,
		Instances: []model.Result{
			inst(model.Secp256k1Signature, model.Decred, model.RS, model.Pointer, "", 1000, 64),
			inst(model.Secp256k1Signature, model.Decred, model.DER, model.Pointer, "", 1000, 80),
			inst(model.Secp256k1Signature, model.Libsecp256k1, model.RS, model.Pointer, "", 1000, 64),
			inst(model.SenderCache, model.Decred, model.MapAddress, model.Collection, "population=10000", 10000, 91.5),
			inst(model.SenderCache, model.Libsecp256k1, model.SigCache, model.Collection, "population=10000", 10000, 134.5),
		},
		Throughput: []model.ThroughputRow{op(model.Decred, model.RS, 120e3), op(model.Decred, model.DER, 130e3), op(model.Libsecp256k1, model.RS, 40e3)},
	}
}

// TestSecp256k1Section: the section names each library's fastest form at
// the key operation and the Pareto-optimal forms (from model.TradeoffOf),
// and lists the sender caches with their constructors; results without
// secp256k1 rows have no section.
func TestSecp256k1Section(t *testing.T) {
	var buf bytes.Buffer
	mw := render.NewMarkdownWriter(&buf)
	writeSecp256k1(mw, secpFixture())
	if err := mw.Err(); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	for _, want := range []string{
		"## secp256k1: cgo against pure Go",
		"V‖R‖S with V = 27 + recovery id",
		"- **Secp256k1Signature**: the fastest verify: libsecp256k1 from rs, 40.00 µs per call (64 B per instance); decred from rs, 120.0 µs per call (64 B per instance). Pareto-optimal (the trade-off table above): libsecp256k1 rs.",
		"### Sender cache",
		"| map-address | decred       |        10000 |   91.50 |",
		"| sigcache    | libsecp256k1 |        10000 |  134.50 |",
		"- decred map-address population=10000: `made so`",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the secp256k1 section lacks %q:\n%s", want, got)
		}
	}
	buf.Reset()
	writeSecp256k1(mw, kzgFixture())
	if buf.Len() != 0 {
		t.Errorf("results without secp256k1 rows: got a section:\n%s", buf.String())
	}
}
