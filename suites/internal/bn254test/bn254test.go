// Package bn254test holds the checks every BN254 suite's tests run on its
// own entries and operations (CheckSuite), and the checks of what a
// library's point holds by construction.
package bn254test

import (
	"flag"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/bn254kit"
	"github.com/memprof/memprof/suites/internal/suitetest"
	"github.com/memprof/memprof/vocab"
)

// CheckSuite runs the checks every BN254 suite's tests run, as subtests
// of t: Coverage (one entry per combination of the matrix, each available
// with a constructor and a case or unavailable with a reason), Held
// (every available entry measured in process, its figures those its
// instances hold by construction: suitetest.CheckHeld) and Ops (every
// operation's result against the vectors, twice, and its rejection of
// the inputs it must refuse: suitetest.CheckOps; those of at most 1,024
// items per call unless -bn254.all-ops is set). Then, unless -run leaves
// Held out, it checks what one instance of each pointer entry in want
// holds, for the suite's own checks of its representations; an entry of
// want that Held did not measure is an error.
func CheckSuite(t *testing.T, s suites.Suite, want ...Holds) {
	t.Helper()
	lib := s.Entries[0].Lib
	var held map[results.Key]suitetest.Held
	t.Run("Coverage", func(t *testing.T) { suitetest.CheckCoverage(t, s.Entries, matrixKeys(lib), nil) })
	t.Run("Held", func(t *testing.T) {
		held = map[results.Key]suitetest.Held{}
		for _, e := range s.Entries {
			if !e.Unavailable.IsZero() {
				continue
			}
			t.Run(e.BenchName(), func(t *testing.T) {
				_, h := suitetest.CheckHeld(t, e, TestN(e))
				if e.Layout == measure.Pointer {
					held[e.Key] = h
				}
			})
		}
	})
	t.Run("Ops", func(t *testing.T) { suitetest.CheckOps(t, opsChecked(s)) })
	if held == nil {
		return // -run left the measurements out
	}
	for _, w := range want {
		k := results.Key{Type: w.Type, Lib: lib, Repr: w.Repr, Layout: measure.Pointer}
		h, ok := held[k]
		if !ok {
			t.Errorf("%s: not measured", k)
			continue
		}
		w.Check(t, k, h)
	}
}

// Holds is what one instance of a suite's pointer entry of Type in Repr
// holds by construction: Check looks at h, what the walker found in one.
type Holds struct {
	Type  vocab.Type
	Repr  vocab.Repr
	Check func(t *testing.T, k results.Key, h suitetest.Held)
}

// OneObject is the check of an instance that is one pointer-free object
// of size bytes, in its slot (the size class; whole pages above 32 KiB).
func OneObject(size uintptr) func(t *testing.T, k results.Key, h suitetest.Held) {
	return func(t *testing.T, k results.Key, h suitetest.Held) {
		t.Helper()
		slot, err := suitetest.Slot(int64(size), false)
		if err != nil {
			t.Fatal(err)
		}
		if h.Objects != 1 || h.Bytes != slot {
			t.Errorf("%s: an instance holds %d objects, %d bytes (%v); want one %d-byte object in its %d-byte slot", k, h.Objects, h.Bytes, h.Sizes, size, slot)
		}
	}
}

// TestN is the number of instances the tests measure e at: 1,000; 4 for
// an entry whose constructor takes milliseconds (a DefaultN below 1,000);
// the Distinct values once for an entry whose instances are large
// (prepared lines, 16 KiB each). The figures are per instance and exact
// at any N (CheckHeld); .ci/run measures at the defaults.
func TestN(e suites.Entry) int {
	switch {
	case e.DefaultN > 0 && e.DefaultN < 1_000:
		return slowN
	case e.SizeHint >= largeInstance:
		return bn254kit.Distinct
	}
	return 1_000
}

// slowN is the N of an entry whose constructor takes milliseconds
// (bn256-google's G2 Unmarshal: 3 ms on a quiet machine, tens on a loaded
// one).
const slowN = 4

// largeInstance is the size above which TestN measures few instances.
const largeInstance = 4 << 10

// allOps times every operation in CheckSuite's Ops, the multi-scalar
// multiplications of 16,384 points included (seconds in G2): .ci/run sets
// it; go test checks those of at most 1,024 points.
var allOps = flag.Bool("bn254.all-ops", false, "check every BN254 operation, the multi-scalar multiplications of 16,384 points too (.ci/run sets it)")

// opsChecked returns s with the operations CheckSuite checks: all with
// -bn254.all-ops, else those of at most 1,024 items per call.
func opsChecked(s suites.Suite) suites.Suite {
	if *allOps {
		return s
	}
	var ops []suites.Op
	for _, o := range s.Ops {
		if o.Batch <= maxBatch {
			ops = append(ops, o)
		}
	}
	s.Ops = ops
	return s
}

// maxBatch is the largest batch go test checks without -bn254.all-ops.
const maxBatch = 1_024

// matrixKeys returns the keys of the BN254 matrix of library lib: every
// type, representation and layout of bn254kit.
func matrixKeys(lib vocab.Lib) []results.Key {
	var keys []results.Key
	for _, typ := range bn254kit.Types {
		for _, r := range bn254kit.Reprs {
			for _, l := range bn254kit.Layouts {
				keys = append(keys, results.Key{Type: typ, Lib: lib, Repr: r, Layout: l})
			}
		}
	}
	return keys
}

// Wrapper is the check of a decoded point that is two objects, the
// wrapper of wrapper bytes (one pointer) and the hidden point of point
// bytes, each in its slot.
func Wrapper(wrapper, point uintptr) func(t *testing.T, k results.Key, h suitetest.Held) {
	return func(t *testing.T, k results.Key, h suitetest.Held) {
		t.Helper()
		ws, err := suitetest.Slot(int64(wrapper), true)
		if err != nil {
			t.Fatal(err)
		}
		ps, err := suitetest.Slot(int64(point), false)
		if err != nil {
			t.Fatal(err)
		}
		if h.Objects != 2 || h.Bytes != ws+ps {
			t.Errorf("%s: an instance holds %d objects, %d bytes (%v); want the %d-byte wrapper in its %d-byte slot and the %d-byte point in its %d-byte slot", k, h.Objects, h.Bytes, h.Sizes, wrapper, ws, point, ps)
		}
	}
}

// CheckCopy checks that an instance of g made by g.Copy holds what one
// made by unmarshal holds, for every one of the Distinct points.
func CheckCopy[P any](t *testing.T, g *bn254kit.Group[P], unmarshal func(*P, []byte) error) {
	t.Helper()
	if g.Copy == nil {
		t.Fatalf("%s has no Copy", g.Name)
	}
	for i, enc := range bn254kit.Points(g.Type) {
		decoded := new(P)
		if err := unmarshal(decoded, enc); err != nil {
			t.Fatal(err)
		}
		copied := new(P)
		g.Copy.Set(copied, &g.Values()[i])
		a, err := suitetest.Reachable(decoded)
		if err != nil {
			t.Fatal(err)
		}
		b, err := suitetest.Reachable(copied)
		if err != nil {
			t.Fatal(err)
		}
		if a.Objects != b.Objects || a.Bytes != b.Bytes {
			t.Fatalf("point %d: %s keeps %d objects, %d bytes (%v); Unmarshal keeps %d, %d (%v)", i, g.Copy.Call, b.Objects, b.Bytes, b.Sizes, a.Objects, a.Bytes, a.Sizes)
		}
	}
}
