// Package kzgtest holds the checks the KZG suites' tests run on their own
// entries and operations: every key of the KZG matrix registered once,
// available or with a reason; the exact bytes each instance keeps, from a
// truth the test derives by construction (unsafe.Sizeof of the library's
// types and the allocator's rules, Slot); and every operation computing
// the vectors' result and rejecting what it must.
package kzgtest

import (
	"flag"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
)

// AllContexts, set by -kzg.contexts (.ci/run passes it), makes the
// context tests measure every context: each is built twice per
// measurement, for seconds, so go test ./... measures only the cheapest
// that cover each case of the checks.
var AllContexts = flag.Bool("kzg.contexts", false, "measure every KZG context in the context tests (seconds each; .ci/run passes it)")

// Go's allocator rules that the exact sizes follow.
const (
	// maxSmall is the largest object the allocator serves from a size
	// class (runtime._MaxSmallSize); a larger one gets whole pages.
	maxSmall = 32 << 10
	// page is the heap's page (runtime._PageSize, 8 KiB on every
	// platform Go supports), the unit of a large object's slot.
	page = 8 << 10
	// headerAbove is the size above which an object with pointers
	// carries an 8-byte malloc header inside its slot
	// (runtime.minSizeForMallocHeader, 512 B on 64-bit platforms).
	headerAbove = 512
	header      = 8
)

// sizeClasses are the allocator's size classes, as runtime.MemStats.BySize
// lists them (the classes up to 18 KiB).
var sizeClasses = sync.OnceValue(func() []uint32 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	var out []uint32
	for _, c := range ms.BySize {
		if c.Size > 0 {
			out = append(out, c.Size)
		}
	}
	return out
})

// Slot returns the bytes the allocator gives one object of n bytes
// (pointers: whether its type holds pointers): its size class, the
// malloc header of a pointerful object above 512 B included, or for a
// large object n rounded up to whole pages. It fails t when n falls
// between the classes runtime.MemStats lists and the large objects.
func Slot(t *testing.T, n uintptr, pointers bool) float64 {
	t.Helper()
	if pointers && n > headerAbove {
		n += header
	}
	if n > maxSmall {
		return float64((n + page - 1) / page * page)
	}
	for _, c := range sizeClasses() {
		if uintptr(c) >= n {
			return float64(c)
		}
	}
	t.Fatalf("no size class runtime.MemStats lists holds %d bytes", n)
	return 0
}

// CheckCoverage checks that s registers exactly one entry for every key
// of keys, each unavailable one with a known kind and a reason, each
// available one with a constructor, a size hint and a case, and that
// entries of the single layout and the PeerDAS scenario have their fixed
// N.
func CheckCoverage(t *testing.T, s suites.Suite, keys []model.Key) {
	t.Helper()
	got := map[model.Key]suites.Entry{}
	for _, e := range s.Entries {
		if _, dup := got[e.Key]; dup {
			t.Errorf("%s registered twice", e.Key)
		}
		got[e.Key] = e
	}
	for _, k := range keys {
		e, ok := got[k]
		switch {
		case !ok:
			t.Errorf("no entry for %s", k)
		case !e.Unavailable.IsZero() && (e.Case != nil || e.Unavailable.Reason == "" || !model.Known(e.Unavailable.Kind, model.Kinds)):
			t.Errorf("%s: unavailable (kind %q, reason %q) with a case %v: want a known kind, a reason and no case", k, e.Unavailable.Kind, e.Unavailable.Reason, e.Case != nil)
		case e.Unavailable.IsZero() && (e.Constructor == "" || e.SizeHint == 0 || e.Case == nil):
			t.Errorf("%s: got constructor %q, size hint %d, case %v; want all set", k, e.Constructor, e.SizeHint, e.Case != nil)
		case k.Layout == model.Single && e.FixedN != 1, k.Type == model.PeerDASNode && (e.FixedN == 0 || !strings.HasSuffix(string(k.Param), "="+strconv.Itoa(e.FixedN))):
			t.Errorf("%s: FixedN %d, want the one its layout or parameter names", k, e.FixedN)
		}
	}
	if len(got) != len(keys) {
		t.Errorf("got %d entries, want %d (one per key)", len(got), len(keys))
	}
}

// Want is the truth of one entry: the bytes and objects one instance keeps
// (bytes from Slot of the types it is made of), measured at N.
type Want struct {
	Key     model.Key
	N       int
	Bytes   float64
	Objects float64
}

// CheckMeasurements measures each entry of wants in this process and
// checks its bytes and objects per instance against the truth, and that
// every object's slot in the heap profile (its bytes label) is one Slot
// gives for the entry.
func CheckMeasurements(t *testing.T, s suites.Suite, wants []Want) {
	t.Helper()
	for _, w := range wants {
		t.Run(w.Key.BenchName(), func(t *testing.T) {
			i := slices.IndexFunc(s.Entries, func(e suites.Entry) bool { return e.Key == w.Key })
			if i < 0 || s.Entries[i].Case == nil {
				t.Fatalf("no available entry %s", w.Key)
			}
			c := s.Entries[i].Case()
			c.Name = w.Key.BenchName()
			r, err := memprof.Measure(c, memprof.N(w.N))
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(r.BytesPerInstance-w.Bytes) > 1e-9 || math.Abs(r.AllocsPerInstance-w.Objects) > 1e-9 {
				t.Errorf("got %v B in %v objects per instance, want %v B in %v objects", r.BytesPerInstance, r.AllocsPerInstance, w.Bytes, w.Objects)
				for _, st := range r.Sites {
					t.Logf("site %s: %.3f B, %.3f objects, slots %v", st.Function, st.BytesPerInstance, st.AllocsPerInstance, st.SlotSizes)
				}
			}
			if r.SizeofBytes != int64(s.Entries[i].SizeHint) && w.Key.Layout == model.Pointer {
				t.Errorf("sizeof: got %d, want the size hint %d", r.SizeofBytes, s.Entries[i].SizeHint)
			}
		})
	}
}

// CheckOps runs every available operation of s that keep selects once on
// valid inputs (its result must be the vectors') and once on inputs it
// must reject, and checks that each unavailable one says why.
func CheckOps(t *testing.T, s suites.Suite, keep func(suites.Op) bool) {
	t.Helper()
	v, err := fixtures.Load()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, op := range s.Ops {
		if !keep(op) {
			continue
		}
		t.Run(op.BenchName(), func(t *testing.T) {
			if !op.Unavailable.IsZero() {
				if op.Unavailable.Reason == "" || !model.Known(op.Unavailable.Kind, model.Kinds) {
					t.Errorf("unavailable without a reason or a known kind: %+v", op.Unavailable)
				}
				return
			}
			n++
			if op.Want == nil {
				t.Error("no Want: a KZG operation's result comes from the KZG vectors")
			}
			if _, err := suites.CheckOp(op, v); err != nil {
				t.Error(err)
			}
			if err := suites.CheckOpRejects(op); err != nil {
				t.Error(err)
			}
		})
	}
	if n == 0 {
		t.Skipf("%s: no available operation selected in this build", s.Name)
	}
}
