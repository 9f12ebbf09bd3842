package suitetest

import (
	"fmt"
	"slices"
	"testing"
	"unsafe"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/suitekit"
)

// CheckHeld measures e in process at n instances and checks its figures
// against what its instances hold by construction (Reachable): a
// pointer-layout instance is the objects its value reaches, each in its
// slot (tiny objects as the 16-byte blocks they share, between the fewest
// they fit in and one each: see Held), so bytes and objects per instance
// must equal the mean of
// Reachable over the values the n instances are made of (instance i is
// value i % suitekit.Distinct), and the profile's slot sizes must
// be the slots Reachable finds; a slice-layout case is its backing array
// and what the elements reach (plus, at most, the 24-byte slice header
// NewSlice's result boxes); a single-layout case is the one object (n is
// not used). It returns the measurement and what one instance (pointer,
// single) or all n (slice) hold.
func CheckHeld(t *testing.T, e suites.Entry, n int) (*memprof.Result, Held) {
	t.Helper()
	c := e.Case()
	c.Name = e.BenchName()
	opts := []memprof.Option{memprof.SkipGC()}
	if e.Layout != measure.Single {
		opts = append(opts, memprof.N(n))
	}
	r, err := memprof.Measure(c, opts...)
	if err != nil {
		t.Fatalf("Measure(N=%d): %v", n, err)
	}
	if r.SizeofBytes != int64(e.SizeHint) {
		t.Errorf("SizeofBytes: got %d, want SizeHint %d", r.SizeofBytes, e.SizeHint)
	}
	// A second case builds the instances the walker counts, outside the
	// measurement.
	c = e.Case()
	if c.Prepare != nil {
		if err := c.Prepare(n); err != nil {
			t.Fatal(err)
		}
	}
	var held Held
	switch e.Layout {
	case measure.Single:
		return r, checkOneHeld(t, c, r)
	case measure.Slice:
		held = checkSliceHeld(t, c, r, n)
	default:
		held = checkPointersHeld(t, c, r, n)
	}
	if t.Failed() {
		logSites(t, r)
	}
	return r, held
}

// checkOneHeld checks a single-layout case: the one object.
func checkOneHeld(t *testing.T, c memprof.Case, r *memprof.Result) Held {
	t.Helper()
	held, err := Reachable(c.NewOne())
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := held.range_()
	if r.BytesPerInstance < lo.bytes-0.01 || r.BytesPerInstance > hi.bytes+0.01 || r.AllocsPerInstance < lo.objects || r.AllocsPerInstance > hi.objects {
		t.Errorf("measured %.1f bytes and %.1f objects, the object holds %s by construction", r.BytesPerInstance, r.AllocsPerInstance, held.describe())
		logSites(t, r)
	}
	return held
}

// checkSliceHeld checks a slice-layout case: its backing array and what the
// elements reach, plus at most the slice header.
func checkSliceHeld(t *testing.T, c memprof.Case, r *memprof.Result, n int) Held {
	t.Helper()
	held, err := Reachable(c.NewSlice(n))
	if err != nil {
		t.Fatal(err)
	}
	bytes, objects := r.BytesPerInstance*float64(n), r.AllocsPerInstance*float64(n)
	header := float64(unsafe.Sizeof([]byte(nil)))
	lo, hi := held.range_()
	if bytes < lo.bytes-0.5 || bytes > hi.bytes+header+0.5 {
		t.Errorf("N=%d: measured %.1f bytes in all, the instances hold %s by construction (the slice header may add %.0f)", n, bytes, held.describe(), header)
	}
	if objects < lo.objects-1e-6 || objects > hi.objects+1+1e-6 {
		t.Errorf("N=%d: measured %.3f objects in all, the instances hold %s by construction (the slice header may add one)", n, objects, held.describe())
	}
	return held
}

// checkPointersHeld checks a pointer-layout case: the mean of what the
// values the n instances are made of reach, and the slot sizes; it
// returns what the first value holds.
func checkPointersHeld(t *testing.T, c memprof.Case, r *memprof.Result, n int) Held {
	t.Helper()
	var lo, hi figures
	var first Held
	slots := map[int64]bool{}
	values := min(n, suitekit.Distinct)
	for i := range values {
		h, err := Reachable(c.New(i))
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = h
		}
		l, u := h.range_()
		lo.add(l, values)
		hi.add(u, values)
		for _, s := range h.Sizes {
			slots[s] = true
		}
		if h.Tiny > 0 {
			slots[TinyBlock] = true
		}
	}
	if r.BytesPerInstance < lo.bytes-0.01 || r.BytesPerInstance > hi.bytes+0.01 {
		t.Errorf("N=%d: BytesPerInstance: got %.4f, the instances hold %s by construction", n, r.BytesPerInstance, first.describe())
	}
	if r.AllocsPerInstance < lo.objects-1e-6 || r.AllocsPerInstance > hi.objects+1e-6 {
		t.Errorf("N=%d: AllocsPerInstance: got %.4f, the instances hold %s by construction", n, r.AllocsPerInstance, first.describe())
	}
	checkSlots(t, r, slots, n, first)
	return first
}

// checkSlots checks that the profile's slot sizes are the slots the
// instances hold, no more and no fewer.
func checkSlots(t *testing.T, r *memprof.Result, slots map[int64]bool, n int, first Held) {
	t.Helper()
	var profiled []int64
	for _, s := range r.Sites {
		for _, z := range s.SlotSizes {
			if !slices.Contains(profiled, z) {
				profiled = append(profiled, z)
			}
		}
	}
	for _, z := range profiled {
		if !slots[z] {
			t.Errorf("N=%d: the profile has a %d-byte slot no instance holds (%v)", n, z, first.Sizes)
		}
	}
	for z := range slots {
		if !slices.Contains(profiled, z) {
			t.Errorf("N=%d: the instances hold %d-byte slots the profile does not show (%v)", n, z, profiled)
		}
	}
}

// figures are bytes and objects.
type figures struct{ bytes, objects float64 }

// add adds f over n.
func (f *figures) add(g figures, n int) {
	f.bytes += g.bytes / float64(n)
	f.objects += g.objects / float64(n)
}

// range_ is the least and the most a heap profile can record of h: its
// objects with slots exactly, its tiny objects as 16-byte blocks, packed
// as tightly as they fit or each in its own.
func (h Held) range_() (lo, hi figures) {
	lo = figures{float64(h.Bytes + int64(h.TinyBlocks())*TinyBlock), float64(h.Objects + h.TinyBlocks())}
	hi = figures{float64(h.Bytes + int64(h.Tiny)*TinyBlock), float64(h.Objects + h.Tiny)}
	return lo, hi
}

func (h Held) describe() string {
	s := fmt.Sprintf("%d objects, %d bytes (%v)", h.Objects, h.Bytes, h.Sizes)
	if h.Tiny > 0 {
		s += fmt.Sprintf(" and %d tiny objects of %d bytes in all (%d to %d blocks of %d bytes)", h.Tiny, h.TinyBytes, h.TinyBlocks(), h.Tiny, TinyBlock)
	}
	return s
}
