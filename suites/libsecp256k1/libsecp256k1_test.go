package libsecp256k1

import (
	"testing"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites/internal/secptest"
	"github.com/memprof/memprof/suites/internal/suitetest"
	"github.com/memprof/memprof/vocab"
)

// TestSuite: every key of the matrix and of the scenario is registered
// once, available with a constructor or unavailable with the reason
// (n/a: needs cgo in a build without cgo; DER and a decoded signature,
// which go-ethereum lacks, always), and every row of the operations table
// is an operation.
func TestSuite(t *testing.T) {
	s := Suite()
	suitetest.CheckCoverage(t, s.Entries, keys(), secptest.CheckUnavailable(s.Name))
	avail := secptest.CheckOps(t, s)
	for _, e := range s.Entries {
		if e.Unavailable.IsZero() != haveCgo && e.Unavailable.Kind != vocab.NotOffered {
			t.Errorf("%s: available %v in a build with cgo %v", e.Key, e.Unavailable.IsZero(), haveCgo)
		}
		if !haveCgo && !e.Unavailable.IsZero() && e.Unavailable.Kind != vocab.NeedsCgo && e.Unavailable.Kind != vocab.NotOffered {
			t.Errorf("%s: kind %s without cgo", e.Key, e.Unavailable.Kind)
		}
	}
	if (avail > 0) != haveCgo {
		t.Errorf("%d operations available in a build with cgo %v", avail, haveCgo)
	}
	if why := lacks(results.Key{Type: vocab.Secp256k1Signature, Repr: vocab.DER}); why.Kind != vocab.NotOffered {
		t.Errorf("DER: got %v, want not offered in every build", why)
	}
}
