//go:build cgo

package blst

import (
	"testing"

	"github.com/memprof/memprof/suites/internal/opbench"
)

// Benchmarks of every blst operation, named
// Benchmark<Op>/lib=blst/repr=<repr>/type=<type>; the same harnesses as
// memprof throughput, checked before they are timed.

func BenchmarkCompress(b *testing.B)            { opbench.Run(b, "blst", "compress") }
func BenchmarkSerialize(b *testing.B)           { opbench.Run(b, "blst", "serialize") }
func BenchmarkDecompress(b *testing.B)          { opbench.Run(b, "blst", "decompress") }
func BenchmarkDecompressChecked(b *testing.B)   { opbench.Run(b, "blst", "decompress-checked") }
func BenchmarkToAffine(b *testing.B)            { opbench.Run(b, "blst", "to-affine") }
func BenchmarkToAffineBatch(b *testing.B)       { opbench.Run(b, "blst", "to-affine-batch") }
func BenchmarkAggregate(b *testing.B)           { opbench.Run(b, "blst", "aggregate") }
func BenchmarkSign(b *testing.B)                { opbench.Run(b, "blst", "sign") }
func BenchmarkVerify(b *testing.B)              { opbench.Run(b, "blst", "verify") }
func BenchmarkFastAggregateVerify(b *testing.B) { opbench.Run(b, "blst", "fast-aggregate-verify") }
