package truth

import "runtime"

// Finalized64 is the finalizer case: 64 bytes, no pointer, and a
// finalizer (a record outside the heap).
type Finalized64 struct{ b [64]byte }

// NewFinalized64 makes instance i, with a finalizer.
func NewFinalized64(i int) any {
	p := &Finalized64{}
	runtime.SetFinalizer(p, func(*Finalized64) {})
	return p
}
