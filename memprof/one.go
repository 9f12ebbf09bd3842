package memprof

import (
	"fmt"
	"time"
)

// A case of the single layout (Case.NewOne) is one object that exists
// once per process and takes long to build: a library's KZG context, its
// trusted setup decoded and its tables precomputed. Measure treats it as
// NewAll of one: no warm-up (a second object would be a second context),
// one build with profiling off for the footprint readings (the C heap of a
// cgo library's tables, the resident set) and the build time, then one at
// MemProfileRate 1 for the exact Go heap. Lazy one-time set-up that the
// first build runs (a library's own tables, built on first use) is
// therefore in the footprint pass's readings and not in the profiled
// bytes.

// builtInstances is what the footprint pass learnt of what it built: the
// size of what a case of one object's NewOne returned (0 for other cases:
// nothing of the instances is kept, so the GC pass can drop them), and how
// long building took.
type builtInstances struct {
	size uintptr
	took time.Duration
}

// built returns what recordOne reads of the instances in h, built in took.
func (c *Case) built(h *held, took time.Duration) builtInstances {
	b := builtInstances{took: took}
	if c.NewOne != nil && h.many != nil {
		b.size = representationSize(h.many)
	}
	return b
}

// checkOne refuses options a case of one object cannot honour: an N
// other than 1 given explicitly.
func (c *Case) checkOne(o Options) error {
	if c.NewOne != nil && o.nGiven && o.N != 1 {
		return fmt.Errorf("case %s: one object per process (NewOne): N must be 1, got %d", c.Name, o.N)
	}
	return nil
}

// oneOptions returns o for a case of one object: N is 1.
func (c *Case) oneOptions(o Options) Options {
	if c.NewOne != nil {
		o.N = 1
	}
	return o
}

// oneAsMany is NewOne in the form of NewAll, for the passes: it makes the
// one object whatever n is (checkOne and Measure keep n at 1).
func (c *Case) oneAsMany(int) any { return c.NewOne() }

// recordOne sets the figures only a case of one object has: its build
// time, and unless Case.SizeOf says otherwise, the size of what NewOne
// returned (the pointee, for a pointer). It does nothing for other cases.
func (c *Case) recordOne(r *Result, built builtInstances) {
	if c.NewOne == nil {
		return
	}
	r.BuildNs = float64(built.took.Nanoseconds())
	if c.SizeOf == 0 && built.size != 0 {
		r.SizeofBytes = int64(built.size)
	}
}
