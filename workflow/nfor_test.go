package workflow

import "testing"

// TestNForFixed: an entry with a fixed N (an LRU at a population its
// parameter names) is measured at it, whatever N the options give.
func TestNForFixed(t *testing.T) {
	fixed := testRegistry().Entries()[0]
	fixed.FixedN, fixed.DefaultN = 100_000, 1_000_000
	for _, n := range []int{0, 1234} {
		if got := (Options{N: n}).nFor(fixed); got != fixed.FixedN {
			t.Errorf("options N %d: got N %d, want the entry's fixed %d", n, got, fixed.FixedN)
		}
	}
}
