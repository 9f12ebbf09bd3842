package gnark

import (
	"testing"

	"github.com/memprof/memprof/suites/internal/opbench"
)

// Benchmarks of every gnark operation, named
// Benchmark<Op>/lib=gnark/repr=<repr>/type=<type>; the same harnesses as
// memprof throughput, checked before they are timed.

func BenchmarkCompress(b *testing.B)            { opbench.Run(b, "gnark", "compress") }
func BenchmarkSerialize(b *testing.B)           { opbench.Run(b, "gnark", "serialize") }
func BenchmarkDecompress(b *testing.B)          { opbench.Run(b, "gnark", "decompress") }
func BenchmarkDecompressChecked(b *testing.B)   { opbench.Run(b, "gnark", "decompress-checked") }
func BenchmarkToAffine(b *testing.B)            { opbench.Run(b, "gnark", "to-affine") }
func BenchmarkToAffineBatch(b *testing.B)       { opbench.Run(b, "gnark", "to-affine-batch") }
func BenchmarkAggregate(b *testing.B)           { opbench.Run(b, "gnark", "aggregate") }
func BenchmarkSign(b *testing.B)                { opbench.Run(b, "gnark", "sign") }
func BenchmarkVerify(b *testing.B)              { opbench.Run(b, "gnark", "verify") }
func BenchmarkFastAggregateVerify(b *testing.B) { opbench.Run(b, "gnark", "fast-aggregate-verify") }
