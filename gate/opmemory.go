package gate

import (
	"fmt"

	"github.com/memprof/memprof/model"
)

// checkOpMemory checks a max_bytes_per_op or max_allocs_per_op limit
// against the operation rows b selects: exactly, as the bytes budgets
// (the figure is what one call allocated, on average over every timed
// call). A row whose allocations depend on the cores holds only for the
// GOMAXPROCS the results were measured with: the budget must name it
// (gomaxprocs: N), and a budget for another GOMAXPROCS is an Error, never
// a pass.
func checkOpMemory(b *Budget, l Limit, rs *indexed) ([]Outcome, error) {
	if why := disagreement(rs.Results); why != "" {
		return []Outcome{{Budget: b, Limit: l, Case: b.Select.String(), Status: Error, Detail: why}}, nil
	}
	outs := throughputRows.outcomes(b, l, rs.Throughput, rs.throughput, func(o *Outcome, t *model.ThroughputRow) {
		o.Measured = t.BytesPerOp
		if l.Metric == AllocsPerOp {
			o.Measured = t.AllocsPerOp
		}
		if t.CoresDependent {
			switch {
			case b.GOMAXPROCS == 0:
				o.Status, o.Detail = Error, fmt.Sprintf("what one call allocates depends on the cores (measured at GOMAXPROCS %d): say which the budget holds for with gomaxprocs: N", rs.Env.GOMAXPROCS)
				return
			case b.GOMAXPROCS != rs.Env.GOMAXPROCS:
				o.Status, o.Detail = Error, fmt.Sprintf("what one call allocates depends on the cores: measured at GOMAXPROCS %d, the budget holds for gomaxprocs %d", rs.Env.GOMAXPROCS, b.GOMAXPROCS)
				return
			}
		}
		o.Status = Pass
		if o.Measured > l.Value {
			o.Status = Fail
		}
	})
	if len(outs) > 0 {
		return outs, nil
	}
	return noOperation(b, l, rs, "no operation was measured: the results hold no throughput rows")
}
