package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/model"
)

// kzgFixture is results whose figures are chosen so that the trade-offs
// are known: c-kzg's context at precompute 0 holds 3 MiB of C heap and at
// 8 holds 100 MiB, and computes cells and proofs in 300 ms and 150 ms;
// go-eth-kzg's holds 4 MiB of Go heap and takes 600 ms.
func kzgFixture() *model.Results {
	mib := func(n float64) float64 { return n * (1 << 20) }
	ptr := func(v float64) *float64 { return &v }
	ctx := func(lib model.Lib, param model.Param, goHeap float64, cHeap *float64) model.Result {
		return model.Result{Key: model.Key{Type: model.KZGContext, Lib: lib, Repr: model.Decoded, Layout: model.Single, Param: param},
			Measurement: model.Measurement{N: 1, BytesPerInstance: goHeap, AllocsPerInstance: 1, CHeapBytesPerInstance: cHeap, BuildNs: 2e9}}
	}
	op := func(lib model.Lib, param model.Param, ns float64) model.ThroughputRow {
		return model.ThroughputRow{Key: model.Key{Type: model.CellsAndProofs, Lib: lib, Repr: model.ByteForm, Op: model.ComputeCellsAndProofs, Batch: 1, Param: param},
			Timing: model.Timing{Samples: 1, NsPerOpMedian: ns, NsPerOpQ1: ns, NsPerOpQ3: ns, SamplesNs: []float64{ns}}}
	}
	return &model.Results{Schema: model.Schema,
		Instances: []model.Result{
			ctx(model.CKZG, "precompute=0", 16, ptr(mib(3))),
			ctx(model.CKZG, "precompute=8", 16, ptr(mib(100))),
			ctx(model.GoKZG, "", mib(4), ptr(0)),
		},
		Throughput: []model.ThroughputRow{op(model.CKZG, "precompute=0", 300e6), op(model.CKZG, "precompute=8", 150e6), op(model.GoKZG, "", 600e6)},
	}
}

// TestKZGSection: the review states the precompute trade-off ("level L:
// +X MiB, compute-cells-and-proofs Y ms against Z") and cgo against pure
// Go, with the fixture's figures.
func TestKZGSection(t *testing.T) {
	var buf bytes.Buffer
	mw := render.NewMarkdownWriter(&buf)
	writeKZG(mw, kzgFixture())
	if err := mw.Err(); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	for _, want := range []string{
		"## KZG: cgo against pure Go, memory against speed",
		"**ckzg precompute 8**: 100.0 MiB (0.0 MiB Go heap, 100.0 MiB C heap), +97.0 MiB over precompute 0; compute-cells-and-proofs 150.0 ms against 300.0 ms (2.00× as fast).",
		"**ckzg precompute 0**: 3.0 MiB (0.0 MiB Go heap, 3.0 MiB C heap); compute-cells-and-proofs 300.0 ms.",
		"**ckzg against gokzg**, each at its smallest setting: 3.0 MiB against 4.0 MiB of context, compute-cells-and-proofs 300.0 ms against 600.0 ms (ckzg: 0.50× the time).",
		"precompute=8 | 0.0 MiB | 100.0 MiB | 100.0 MiB |",
		"| compute-cells-and-proofs |     1 |          300.0 ms |          150.0 ms | 600.0 ms |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the KZG section lacks %q:\n%s", want, got)
		}
	}
	// Results without KZG rows have no KZG section.
	buf.Reset()
	writeKZG(render.NewMarkdownWriter(&buf), &model.Results{Schema: model.Schema})
	if buf.Len() != 0 {
		t.Errorf("got %q for results without KZG rows, want nothing", buf.String())
	}
}
