package suites

import (
	"fmt"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/memprof"
)

// LookupOp finds an available operation by its key's BenchName, prepares
// it and checks that it computes the known result (CheckOp), and returns
// the call to run: the lookup a child process hands to
// memprof.ServeChildren (memprof.Lookups.Op), so that the parent and the
// child name an operation the same way.
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

// ChildLookups returns what a measuring child process serves for r (see
// memprof.ServeChildren): its instance cases and its operations, by name.
func (r *Registry) ChildLookups() memprof.Lookups {
	return memprof.Lookups{Case: r.LookupCase, Op: r.LookupOp}
}
