//go:build cgo

package blst

import (
	"testing"

	"github.com/memprof/memprof/suites/internal/opbench"
)

// Benchmarks of every blst operation, named
// Benchmark<Op>/lib=blst/repr=<repr>/type=<type>; the same harnesses as
// memprof throughput, checked before they are timed.

func BenchmarkCompress(b *testing.B)            { opbench.Run(b, Suite(), "compress") }
func BenchmarkSerialize(b *testing.B)           { opbench.Run(b, Suite(), "serialize") }
func BenchmarkDecompress(b *testing.B)          { opbench.Run(b, Suite(), "decompress") }
func BenchmarkDecompressChecked(b *testing.B)   { opbench.Run(b, Suite(), "decompress-checked") }
func BenchmarkToAffine(b *testing.B)            { opbench.Run(b, Suite(), "to-affine") }
func BenchmarkToAffineBatch(b *testing.B)       { opbench.Run(b, Suite(), "to-affine-batch") }
func BenchmarkAggregate(b *testing.B)           { opbench.Run(b, Suite(), "aggregate") }
func BenchmarkSign(b *testing.B)                { opbench.Run(b, Suite(), "sign") }
func BenchmarkVerify(b *testing.B)              { opbench.Run(b, Suite(), "verify") }
func BenchmarkFastAggregateVerify(b *testing.B) { opbench.Run(b, Suite(), "fast-aggregate-verify") }
