package report

import (
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	kzgagree "github.com/memprof/memprof/suites/agree/kzg"
	"github.com/memprof/memprof/vocab"
)

// kzgFixture is results whose figures are chosen so that the trade-offs
// are known: c-kzg's context at precompute 0 holds 3 MiB of C heap and at
// 8 holds 100 MiB, and computes cells and proofs in 300 ms and 150 ms;
// go-eth-kzg's holds 4 MiB of Go heap and takes 600 ms.
func kzgFixture() *results.File {
	mib := func(n float64) float64 { return n * (1 << 20) }
	ptr := func(v float64) *float64 { return &v }
	ctx := func(lib vocab.Lib, param results.Param, goHeap float64, cHeap *float64) results.Row {
		return results.Row{Key: results.Key{Type: vocab.KZGContext, Lib: lib, Repr: vocab.Decoded, Layout: measure.Single, Param: param},
			Measurement: measure.Measurement{N: 1, BytesPerInstance: goHeap, AllocsPerInstance: 1, CHeapBytesPerInstance: cHeap, BuildNs: 2e9}}
	}
	op := func(lib vocab.Lib, param results.Param, ns float64) results.ThroughputRow {
		return results.ThroughputRow{Key: results.Key{Type: vocab.CellsAndProofs, Lib: lib, Repr: vocab.ByteForm, Op: vocab.ComputeCellsAndProofs, Batch: 1, Param: param},
			Timing: measure.Timing{Samples: 1, NsPerOpMedian: ns, NsPerOpQ1: ns, NsPerOpQ3: ns, SamplesNs: []float64{ns}}}
	}
	return &results.File{Schema: results.Schema,
		Instances: []results.Row{
			ctx(vocab.CKZG, "precompute=0", 16, ptr(mib(3))),
			ctx(vocab.CKZG, "precompute=8", 16, ptr(mib(100))),
			ctx(vocab.GoKZG, "", mib(4), ptr(0)),
		},
		Throughput: []results.ThroughputRow{op(vocab.CKZG, "precompute=0", 300e6), op(vocab.CKZG, "precompute=8", 150e6), op(vocab.GoKZG, "", 600e6)},
	}
}

// TestKZGSection: the review states the precompute trade-off ("level L:
// +X MiB, compute-cells-and-proofs Y ms against Z") and cgo against pure
// Go, with the fixture's figures.
func TestKZGSection(t *testing.T) {
	checkSection(t, kzgFixture(), &results.File{Schema: results.Schema}, kzgagree.Family(), []string{
		"## KZG: cgo against pure Go, memory against speed",
		"**ckzg precompute 8**: 100.0 MiB (0.0 MiB Go heap, 100.0 MiB C heap), +97.0 MiB over precompute 0; compute-cells-and-proofs 150.0 ms against 300.0 ms (2.00× as fast).",
		"**ckzg precompute 0**: 3.0 MiB (0.0 MiB Go heap, 3.0 MiB C heap); compute-cells-and-proofs 300.0 ms.",
		"**ckzg against gokzg**, each at its smallest setting: 3.0 MiB against 4.0 MiB of context, compute-cells-and-proofs 300.0 ms against 600.0 ms (ckzg: 0.50× the time).",
		"precompute=8 | 0.0 MiB | 100.0 MiB | 100.0 MiB |",
		"| compute-cells-and-proofs |     1 |          300.0 ms |          150.0 ms | 600.0 ms |",
	})
}
