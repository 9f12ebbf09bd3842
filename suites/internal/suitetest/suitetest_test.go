package suitetest

import (
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
)

// TestNs: Ns measures an entry where the engine profiles every instance
// and where it profiles fewer and extends their sites, the two ways a
// suite's figures are made.
func TestNs(t *testing.T) {
	ns := Ns()
	if len(ns) < 2 && !testing.Short() {
		t.Fatalf("got Ns %v, want at least two", ns)
	}
	for i, n := range ns[:min(2, len(ns))] {
		profiled := memprof.ProfiledInstances(measure.Pointer, n)
		if full := profiled == n; full != (i == 0) {
			t.Errorf("N=%d: the engine profiles %d instances; want all of them at the first N only", n, profiled)
		}
	}
}
