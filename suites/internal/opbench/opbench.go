// Package opbench runs the registered throughput operations as Go
// benchmarks, so that each suite's ops_bench_test.go is one line. It is
// for tests only.
package opbench

import (
	"strconv"
	"testing"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// RunAll benchmarks every operation of suite s, in the order of vocab.Ops,
// one sub-benchmark per operation, type and representation, named with
// key=value parts as gnark-crypto's benchmarks are, so that benchstat can
// pivot on them: op=<op>/lib=<lib>/repr=<repr>/type=<type>, then
// batch=<n> for a batch and the parameter (tasks=1) where the operation
// is timed at several. Each harness
// is first checked to compute the known result (a harness that computes
// the wrong thing fails instead of being timed); an unavailable operation
// is skipped with its reason. Operations that handle many items also
// report ns/item.
func RunAll(b *testing.B, s suites.Suite) {
	v, err := fixtures.Load()
	if err != nil {
		b.Fatal(err)
	}
	if len(s.Ops) == 0 {
		b.Skipf("%s has no operations", s.Name)
	}
	for _, op := range vocab.Ops {
		for _, o := range s.Ops {
			if o.Op != op {
				continue
			}
			name := "op=" + string(o.Op) + "/lib=" + string(o.Lib) + "/repr=" + string(o.Repr) + "/type=" + string(o.Type)
			if o.Batch > 1 {
				name += "/batch=" + strconv.Itoa(o.Batch)
			}
			if o.Param != "" {
				name += "/" + string(o.Param)
			}
			b.Run(name, func(b *testing.B) {
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
	}
}
