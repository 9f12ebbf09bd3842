package ckzg

import (
	"fmt"
	"testing"

	"github.com/memprof/memprof/internal/childtest"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/kzgtest"
	"github.com/memprof/memprof/suites/internal/suitetest"
	"github.com/memprof/memprof/vocab"
)

// TestMain lets the test binary serve as the measuring child of the
// context tests: c-kzg holds one setup per process, so each context is
// measured in a process of its own, as memprof instances does.
func TestMain(m *testing.M) {
	childtest.Main(m, "ckzg test child", memprof.ChildRequested, func() error {
		r, err := suites.NewRegistry(Suite())
		if err != nil {
			return err
		}
		return memprof.ServeChild(r.LookupCase)
	})
}

// TestCoverage: every key of the KZG matrix is registered once; without
// cgo, every one c-kzg would offer says it needs cgo.
func TestCoverage(t *testing.T) {
	s := Suite()
	suitetest.CheckCoverage(t, s.Entries, keys(), kzgtest.CheckFixedN)
	for _, e := range s.Entries {
		if !haveCgo && lacks(e.Key).IsZero() && e.Unavailable.Kind != vocab.NeedsCgo {
			t.Errorf("%s: got unavailable %+v in a build without cgo, want kind %s", e.Key, e.Unavailable, vocab.NeedsCgo)
		}
		if haveCgo && lacks(e.Key).IsZero() && !e.Unavailable.IsZero() {
			t.Errorf("%s: unavailable (%s) in a build with cgo", e.Key, e.Unavailable.Reason)
		}
	}
	for _, o := range s.Ops {
		if o.Isolate != isolate(precomputeOf(t, o.Param)) || !o.CHeap {
			t.Errorf("%s: isolation %q, C heap %v; want its level's process and the C heap recorded", o.Key, o.Isolate, o.CHeap)
		}
		if !haveCgo && o.Unavailable.Kind != vocab.NeedsCgo {
			t.Errorf("%s: got unavailable %+v without cgo, want kind %s", o.Key, o.Unavailable, vocab.NeedsCgo)
		}
	}
}

func precomputeOf(t *testing.T, p results.Param) int {
	t.Helper()
	var l int
	if _, err := fmt.Sscanf(string(p), "precompute=%d", &l); err != nil {
		t.Fatalf("parameter %q: %v", p, err)
	}
	return l
}
