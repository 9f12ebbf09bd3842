// Package kzgtest holds the checks the KZG suites' tests run on their own
// entries and operations: every key of the KZG matrix registered once,
// available or with a reason; the library's sizes against the EIPs'; and
// the exact bytes each instance keeps, from a truth the test derives by
// construction (unsafe.Sizeof of the library's types and the allocator's
// rules, Slot). The operations are checked by suitetest.CheckOps.
package kzgtest

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/suitetest"
	"github.com/memprof/memprof/vocab"
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

// Slot returns the bytes the allocator gives one object of n bytes
// (pointers: whether its type holds pointers): its size class, the
// malloc header of a pointerful object above 512 B included, or for a
// large object n rounded up to whole pages. It fails t when no size class
// suitetest.SizeClass knows holds a small object of n bytes.
func Slot(t *testing.T, n uintptr, pointers bool) float64 {
	t.Helper()
	if pointers && n > headerAbove {
		n += header
	}
	if n > maxSmall {
		return float64((n + page - 1) / page * page)
	}
	c, ok := suitetest.SizeClass(int64(n))
	if !ok {
		t.Fatalf("no size class the runtime lists holds %d bytes", n)
	}
	return float64(c)
}

// CheckFixedN checks that an entry of the single layout or of the PeerDAS
// scenario has its fixed N: 1, or the one its parameter names
// (suitetest.CheckCoverage's check of the KZG suites).
func CheckFixedN(e suites.Entry) error {
	if k := e.Key; k.Layout == measure.Single && e.FixedN != 1 || k.Type == vocab.PeerDASNode && (e.FixedN == 0 || paramValue(k.Param) != strconv.Itoa(e.FixedN)) {
		return fmt.Errorf("FixedN %d, want the one its layout or parameter names", e.FixedN)
	}
	return nil
}

func paramValue(p results.Param) string {
	_, v := p.Split()
	return v
}

// Want is the truth of one entry: the bytes and objects one instance keeps
// (bytes from Slot of the types it is made of), measured at N.
type Want struct {
	Key     results.Key
	N       int
	Bytes   float64
	Objects float64
}

// Measure measures the available entry k of s in this process, and
// returns the result and the entry.
func Measure(t *testing.T, s suites.Suite, k results.Key, opts ...memprof.Option) (*memprof.Result, suites.Entry) {
	t.Helper()
	i := slices.IndexFunc(s.Entries, func(e suites.Entry) bool { return e.Key == k })
	if i < 0 || s.Entries[i].Case == nil {
		t.Fatalf("no available entry %s", k)
	}
	c := s.Entries[i].Case()
	c.Name = k.BenchName()
	r, err := memprof.Measure(c, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return r, s.Entries[i]
}

// CheckMeasurements measures each entry of wants in this process and
// checks its bytes and objects per instance against the truth, and that
// every object's slot in the heap profile (its bytes label) is one Slot
// gives for the entry.
func CheckMeasurements(t *testing.T, s suites.Suite, wants []Want) {
	t.Helper()
	for _, w := range wants {
		t.Run(w.Key.BenchName(), func(t *testing.T) {
			r, e := Measure(t, s, w.Key, memprof.N(w.N), memprof.SkipGC()) // bytes and objects only
			if math.Abs(r.BytesPerInstance-w.Bytes) > 1e-9 || math.Abs(r.AllocsPerInstance-w.Objects) > 1e-9 {
				t.Errorf("got %v B in %v objects per instance, want %v B in %v objects", r.BytesPerInstance, r.AllocsPerInstance, w.Bytes, w.Objects)
				for _, st := range r.Sites {
					t.Logf("site %s: %.3f B, %.3f objects, slots %v", st.Function, st.BytesPerInstance, st.AllocsPerInstance, st.SlotSizes)
				}
			}
			if r.SizeofBytes != int64(e.SizeHint) && w.Key.Layout == measure.Pointer {
				t.Errorf("sizeof: got %d, want the size hint %d", r.SizeofBytes, e.SizeHint)
			}
		})
	}
}

// AppendedCap is the capacity of a slice of pointers grown one element at
// a time to n, as a PeerDAS node's list of blobs is: what append's growth
// rule and the size classes give, read from append itself.
func AppendedCap(n int) int {
	var s []*byte
	for range n {
		s = append(s, nil)
	}
	return cap(s)
}

// Sizes are a library's sizes of the EIP-4844 and EIP-7594 objects.
type Sizes struct {
	Blob, Cell, CellsPerBlob, Commitment, FieldElements int
}

// CheckSizes checks that lib's sizes are the ones the fixtures use.
func CheckSizes(t *testing.T, lib string, got Sizes) {
	t.Helper()
	want := Sizes{fixtures.KZGBytesPerBlob, fixtures.KZGBytesPerCell, fixtures.KZGCellsPerBlob, fixtures.KZGBytesPerG1, fixtures.KZGFieldElementsPerBlob}
	if got != want {
		t.Errorf("%s: got sizes %+v, want the fixtures' (the EIPs') %+v", lib, got, want)
	}
}
