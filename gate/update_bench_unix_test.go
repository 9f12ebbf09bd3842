//go:build unix

package gate

import (
	"fmt"
	"syscall"
	"testing"

	"github.com/memprof/memprof/internal/testresults"
)

// BenchmarkCheckUpdate checks and updates a budgets file of a budget per
// row at two sizes (no registry: each budget selects its row by its
// parameter): the time per budget must not grow with the budgets.
func BenchmarkCheckUpdate(b *testing.B) {
	for _, n := range []int{2000, 8000} {
		rs, err := testresults.Make(n, 4)
		if err != nil {
			b.Fatal(err)
		}
		src := testresults.RowBudgets(rs, 1)
		b.Run(fmt.Sprintf("budgets=%d", n), func(b *testing.B) {
			cpu0 := cpuTime()
			for b.Loop() {
				f, err := Parse("b.yaml", src)
				if err != nil {
					b.Fatal(err)
				}
				rep := Check(f, rs, CheckOptions{})
				if _, err := Update(f, rep, 1.2); err != nil {
					b.Fatal(err)
				}
			}
			rows := float64(b.N) * float64(len(rs.Instances)+len(rs.Throughput))
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/rows, "ns/budget")
			b.ReportMetric(float64(cpuTime()-cpu0)/rows, "cpu-ns/budget") // the work, whatever the load
		})
	}
}

// cpuTime is the CPU time this process has used, in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
