package all

import (
	"testing"

	"github.com/memprof/memprof/memprof"
)

// TestNotesOfN: every entry measured by default at an N other than
// memprof.DefaultN (its DefaultN or FixedN) says why in the note its rows'
// constructor carries.
func TestNotesOfN(t *testing.T) {
	for _, e := range Registry().Entries() {
		if !e.Unavailable.IsZero() {
			continue
		}
		for _, n := range []int{e.DefaultN, e.FixedN} {
			if n != 0 && n != memprof.DefaultN && e.NNote(n) == "" {
				t.Errorf("%s: measured at N = %d by default, with no word why", e.Key, n)
			}
		}
	}
}
