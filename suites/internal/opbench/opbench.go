// Package opbench runs the registered throughput operations as Go
// benchmarks, so that the suites' ops_bench_test.go files stay one line
// per operation. It is for tests only.
package opbench

import (
	"testing"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
)

// Run benchmarks every operation op of suite s, one sub-benchmark per
// type and representation, named lib=<lib>/repr=<repr>/type=<type>.
// Each harness is first checked to compute the known result (a harness
// that computes the wrong thing fails instead of being timed). Operations
// that handle many items also report ns/item.
func Run(b *testing.B, s suites.Suite, op model.Op) {
	v, err := fixtures.Load()
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, o := range s.Ops {
		if o.Op != op {
			continue
		}
		n++
		b.Run("lib="+string(o.Lib)+"/repr="+string(o.Repr)+"/type="+string(o.Type), func(b *testing.B) {
			if !o.Unavailable.IsZero() {
				b.Skip(o.Unavailable.Reason)
			}
			h, err := suites.CheckOp(o, v)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := h.Run(); err != nil {
					b.Fatal(err)
				}
			}
			if o.Batch > 1 && b.N > 0 {
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(o.Batch), "ns/item")
			}
		})
	}
	if n == 0 {
		b.Skipf("%s has no %s operation", s.Name, op)
	}
}
