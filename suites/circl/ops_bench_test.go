package circl

import (
	"testing"

	"github.com/memprof/memprof/suites/internal/opbench"
)

// Benchmarks of every circl operation, named
// Benchmark<Op>/lib=circl/repr=<repr>/type=<type>; the same harnesses as
// memprof throughput, checked before they are timed.

func BenchmarkCompress(b *testing.B)            { opbench.Run(b, "circl", "compress") }
func BenchmarkSerialize(b *testing.B)           { opbench.Run(b, "circl", "serialize") }
func BenchmarkDecompress(b *testing.B)          { opbench.Run(b, "circl", "decompress") }
func BenchmarkDecompressChecked(b *testing.B)   { opbench.Run(b, "circl", "decompress-checked") }
func BenchmarkToAffine(b *testing.B)            { opbench.Run(b, "circl", "to-affine") }
func BenchmarkToAffineBatch(b *testing.B)       { opbench.Run(b, "circl", "to-affine-batch") }
func BenchmarkAggregate(b *testing.B)           { opbench.Run(b, "circl", "aggregate") }
func BenchmarkSign(b *testing.B)                { opbench.Run(b, "circl", "sign") }
func BenchmarkVerify(b *testing.B)              { opbench.Run(b, "circl", "verify") }
func BenchmarkFastAggregateVerify(b *testing.B) { opbench.Run(b, "circl", "fast-aggregate-verify") }
