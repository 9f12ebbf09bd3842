package suites

import (
	"fmt"

	"github.com/memprof/memprof/fixtures"
)

// LookupOp finds an available operation by its key's BenchName, prepares
// it and checks that it computes the known result (CheckOp), and returns
// the call to run: the lookup of the child process that profiles where
// operations allocate (memprof.OpSitesTask; workflow.ChildTasks), so that the
// parent and the child name an operation the same way.
func (r *Registry) LookupOp(name string) (func() error, error) {
	for _, o := range r.ops {
		if o.BenchName() != name {
			continue
		}
		if !o.Unavailable.IsZero() {
			return nil, fmt.Errorf("operation %s is unavailable: %s", name, o.Unavailable.Reason)
		}
		v, err := fixtures.Load()
		if err != nil {
			return nil, err
		}
		h, err := CheckOp(o, v)
		if err != nil {
			return nil, err
		}
		return h.Run, nil
	}
	return nil, fmt.Errorf("no operation %q registered", name)
}
