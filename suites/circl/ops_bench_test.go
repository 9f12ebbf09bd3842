package circl

import (
	"testing"

	"github.com/memprof/memprof/suites/internal/opbench"
)

// BenchmarkOp times every circl operation with the same harnesses as
// memprof throughput, checked before they are timed:
// BenchmarkOp/op=<op>/lib=circl/repr=<repr>/type=<type>.
func BenchmarkOp(b *testing.B) { opbench.RunAll(b, Suite()) }
