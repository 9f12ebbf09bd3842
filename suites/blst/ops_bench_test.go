//go:build cgo

package blst

import (
	"testing"

	"github.com/memprof/memprof/suites/internal/opbench"
)

// BenchmarkOp times every blst operation with the same harnesses as
// memprof throughput, checked before they are timed:
// BenchmarkOp/op=<op>/lib=blst/repr=<repr>/type=<type>.
func BenchmarkOp(b *testing.B) { opbench.RunAll(b, Suite()) }
