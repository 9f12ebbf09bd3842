package blst

import (
	"testing"

	"github.com/memprof/memprof/suites/internal/suitekit"
	"github.com/memprof/memprof/suites/internal/suitetest"
	"github.com/memprof/memprof/vocab"
)

// TestBuildVariant checks that both build variants register the entries
// of one table: a combination blst lacks, or that does not apply, gives
// its own reason in either build; every other one is measurable with cgo
// and says "needs cgo" without it.
func TestBuildVariant(t *testing.T) {
	for _, e := range suitetest.Entries(Suite()) {
		k := suitekit.Key{Type: e.Type, Repr: e.Repr, Layout: e.Layout, Scheme: e.Scheme}
		intrinsic := suitekit.NotApplicable(k.Type, k.Repr)
		if intrinsic.IsZero() {
			intrinsic = blstLacks(k)
		}
		var want vocab.Why
		switch {
		case !intrinsic.IsZero():
			want = intrinsic
		case !haveCgo:
			want = cgoReason
		}
		if e.Unavailable != want {
			t.Errorf("%s (cgo %v): got %+v, want %+v", e.Key, haveCgo, e.Unavailable, want)
		}
	}
}
