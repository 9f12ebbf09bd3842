// Package suitetest holds the checks every library suite's tests run on
// its own registered entries: the matrix is covered without gaps, every
// unavailable entry says why, and every available entry, measured in
// process, reports figures consistent with unsafe.Sizeof and with the
// heap profile's own slot sizes.
package suitetest

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/suitekit"
	"github.com/memprof/memprof/vocab"
)

// Entries returns the entries of s that belong to the instance matrix
// (a suite may hold scenarios too), their keys normalized as the registry
// does.
func Entries(s suites.Suite) []suites.Entry {
	var out []suites.Entry
	for _, e := range s.Entries {
		e.Key = e.Key.Normalize()
		if slices.Contains(suitekit.Types, e.Type) && slices.Contains(suitekit.Reprs, e.Repr) && slices.Contains(suitekit.Layouts, e.Layout) {
			out = append(out, e)
		}
	}
	return out
}

func keyOf(e suites.Entry) suitekit.Key {
	return suitekit.Key{Type: e.Type, Repr: e.Repr, Layout: e.Layout, Scheme: e.Scheme}
}

// CheckSuite runs the checks every library suite's entries must pass, as
// subtests of t: Coverage (CheckCoverage of the matrix), Schemes (CheckSchemes) and
// Measurements (CheckMeasurements; select it alone with
// -run 'TestSuite/^Measurements$').
func CheckSuite(t *testing.T, s suites.Suite) {
	t.Run("Coverage", func(t *testing.T) { CheckCoverage(t, Entries(s), matrixKeys(s.Name), nil) })
	t.Run("Schemes", func(t *testing.T) { CheckSchemes(t, s) })
	t.Run("Measurements", func(t *testing.T) { CheckMeasurements(t, s) })
}

// CheckCoverage checks that entries register exactly keys, each once: an
// unavailable entry with a known kind (vocab.Kinds), a reason and no
// case, an available one with a constructor, a size hint and a case; and
// that check, if not nil, accepts each of them (what a family asks more:
// a fixed N, the reason's wording).
func CheckCoverage(t *testing.T, entries []suites.Entry, keys []results.Key, check func(suites.Entry) error) {
	t.Helper()
	got := map[results.Key]suites.Entry{}
	for _, e := range entries {
		if _, dup := got[e.Key]; dup {
			t.Errorf("%s registered twice", e.Key)
		}
		got[e.Key] = e
	}
	for _, k := range keys {
		e, ok := got[k]
		switch {
		case !ok:
			t.Errorf("no entry for %s (available or unavailable)", k)
		case !e.Unavailable.IsZero() && (e.Case != nil || e.Unavailable.Reason == "" || !vocab.Known(e.Unavailable.Kind, vocab.Kinds)):
			t.Errorf("%s: unavailable (kind %q, reason %q) with a case %v: want a known kind, a reason and no case", k, e.Unavailable.Kind, e.Unavailable.Reason, e.Case != nil)
		case e.Unavailable.IsZero() && (e.Constructor == "" || e.SizeHint == 0 || e.Case == nil):
			t.Errorf("%s: got constructor %q, size hint %d, case %v; want all set", k, e.Constructor, e.SizeHint, e.Case != nil)
		case check != nil:
			if err := check(e); err != nil {
				t.Errorf("%s: %v", k, err)
			}
		}
	}
	if len(got) != len(keys) {
		t.Errorf("got %d entries, want %d (one per key)", len(got), len(keys))
	}
}

// CheckAgree runs a family's agreement check on libs (for one library's
// own test, its known answers) and fails t if the check fails or checks
// no case.
func CheckAgree[L any](t *testing.T, check func(libs []L) (*suites.AgreeReport, error), libs ...L) {
	t.Helper()
	rep, err := check(libs)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Cases == 0 {
		t.Error("no case checked")
	}
}

// matrixKeys returns the keys of the instance matrix (suitekit.Keys) of
// library lib.
func matrixKeys(lib string) []results.Key {
	keys := suitekit.Keys()
	for i := range keys {
		keys[i].Lib = vocab.Lib(lib)
	}
	return keys
}

// CheckSchemes checks that PublicKey and Signature are registered under
// both schemes in every repr and layout, and that where both are
// available the two schemes' representations differ in size (they live
// in different groups).
func CheckSchemes(t *testing.T, s suites.Suite) {
	lib := s.Name
	t.Helper()
	byKey := map[suitekit.Key]suites.Entry{}
	for _, e := range Entries(s) {
		byKey[keyOf(e)] = e
	}
	for _, typ := range []vocab.Type{vocab.PublicKey, vocab.Signature} {
		for _, repr := range suitekit.Reprs {
			for _, layout := range suitekit.Layouts {
				pk, okPk := byKey[suitekit.Key{Type: typ, Repr: repr, Layout: layout, Scheme: vocab.MinPk}]
				sig, okSig := byKey[suitekit.Key{Type: typ, Repr: repr, Layout: layout, Scheme: vocab.MinSig}]
				if !okPk || !okSig {
					t.Errorf("%s: %s/%s/%s: got min-pk %v, min-sig %v, want both registered", lib, typ, repr, layout, okPk, okSig)
					continue
				}
				if pk.Unavailable.IsZero() && sig.Unavailable.IsZero() && pk.SizeHint == sig.SizeHint {
					t.Errorf("%s: %s/%s/%s: min-pk and min-sig both have size %d, want different groups", lib, typ, repr, layout, pk.SizeHint)
				}
			}
		}
	}
}

// largeN is the extra N .ci/run measures every entry at
// (-suites.large-n=100000); it takes minutes, too long for go test ./....
var largeN = flag.Int("suites.large-n", 0, "also measure every available entry at `N` instances (.ci/run passes 100000)")

// Ns returns the numbers of instances CheckMeasurements measures every
// available entry at: 1,000, where the engine profiles every instance,
// and ExtendedN, where it profiles fewer and extends their sites to N
// (1,000 alone with -short), then the -suites.large-n one when it is set.
func Ns() []int {
	ns := []int{1_000, ExtendedN}
	if testing.Short() {
		ns = ns[:1]
	}
	if *largeN > 0 && !slices.Contains(ns, *largeN) {
		ns = append(ns, *largeN)
	}
	return ns
}

// ExtendedN is an N at which the engine profiles fewer instances than
// it measures and extends their sites to N: it profiles all n only while
// its two sets of a large n, of at most memprof.ProfiledInstances each,
// hold them, so twice that and one more is past that point (TestNs
// checks it). A larger N only builds more of the same instances: the
// truth the checks derive (one slot per instance) is as exact here as at
// the 100,000 .ci/run measures.
var ExtendedN = 2*memprof.ProfiledInstances(measure.Pointer, math.MaxInt) + 1

// CheckMeasurements measures every available entry of s in process, at
// each N of Ns, and checks the figures:
//   - SizeofBytes equals the entry's SizeHint;
//   - pointer layout: one live object per instance, BytesPerInstance ==
//     SlotBytes, the slot being the one the profile's "bytes" label gives
//     and the runtime's size class for SizeofBytes (read from
//     runtime.MemStats.BySize), and the same figure at every N to 0.01 B;
//   - slice layout: one live object in all (the backing array), of at
//     least n*SizeofBytes bytes and less than one page or an eighth more.
func CheckMeasurements(t *testing.T, s suites.Suite) {
	lib := s.Name
	t.Helper()
	ns := Ns()
	measured := 0
	defer func() {
		if measured == 0 {
			t.Skipf("%s: no available entry in this build", lib)
		}
	}()
	for _, e := range Entries(s) {
		if !e.Unavailable.IsZero() {
			continue
		}
		measured++
		t.Run(e.BenchName(), func(t *testing.T) { checkEntry(t, e, ns) })
	}
}

// CheckEntry measures e, an entry outside the matrix (a representation
// only one library has), in process at each of ns, and checks its figures
// as CheckMeasurements does; it returns the last measurement.
func CheckEntry(t *testing.T, e suites.Entry, ns ...int) *memprof.Result {
	t.Helper()
	return checkEntry(t, e, ns)
}

func checkEntry(t *testing.T, e suites.Entry, ns []int) *memprof.Result {
	t.Helper()
	var first, last *memprof.Result
	for _, n := range ns {
		r := measureEntry(t, e, n)
		if r == nil {
			continue
		}
		last = r
		if r.SizeofBytes != int64(e.SizeHint) {
			t.Errorf("N=%d: SizeofBytes: got %d, want SizeHint %d", n, r.SizeofBytes, e.SizeHint)
		}
		if e.Layout == measure.Slice {
			checkSlice(t, r)
			continue
		}
		checkPointer(t, r)
		if first == nil {
			first = r
		} else if d := math.Abs(first.BytesPerInstance - r.BytesPerInstance); d > 0.01 {
			t.Errorf("BytesPerInstance: got %.4f at N=%d and %.4f at N=%d, want equal within 0.01", first.BytesPerInstance, first.N, r.BytesPerInstance, n)
		}
	}
	return last
}

func measureEntry(t *testing.T, e suites.Entry, n int) *memprof.Result {
	t.Helper()
	c := e.Case()
	c.Name = e.BenchName()
	r, err := memprof.Measure(c, memprof.N(n), memprof.SkipGC()) // bytes and objects only
	if err != nil {
		t.Errorf("Measure(N=%d): %v", n, err)
		return nil
	}
	return r
}

// sizeClasses are the allocator's size classes, from the bucket
// boundaries of runtime/metrics' /gc/heap/allocs-by-size:bytes, which are
// each class's size plus one (runtime.MemStats.BySize stops at 61 classes,
// before 24,576 B).
var sizeClasses = sync.OnceValue(func() []int64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs-by-size:bytes"}}
	metrics.Read(s)
	var out []int64
	if s[0].Value.Kind() != metrics.KindFloat64Histogram {
		return nil
	}
	for _, b := range s[0].Value.Float64Histogram().Buckets {
		if c := int64(b) - 1; b > 1 && !math.IsInf(b, 1) {
			out = append(out, c)
		}
	}
	return out
})

// SizeClass returns the slot the allocator gives an object of n bytes
// without a malloc header (one without pointers, or of at most 512
// bytes): the smallest size class that holds n, of those sizeClasses
// lists (up to 32 KiB); false above them.
func SizeClass(n int64) (int64, bool) {
	for _, c := range sizeClasses() {
		if c >= n {
			return c, true
		}
	}
	return 0, false
}

func checkPointer(t *testing.T, r *memprof.Result) {
	t.Helper()
	if r.AllocsPerInstance != 1 {
		t.Errorf("N=%d: AllocsPerInstance: got %v, want 1 (one heap object per instance)", r.N, r.AllocsPerInstance)
	}
	if math.Abs(r.BytesPerInstance-r.SlotBytes) > 0.01 {
		t.Errorf("N=%d: BytesPerInstance: got %.4f, want SlotBytes %.0f", r.N, r.BytesPerInstance, r.SlotBytes)
	}
	if class, ok := SizeClass(r.SizeofBytes); !ok {
		t.Errorf("N=%d: no size class in runtime/metrics holds sizeof %d", r.N, r.SizeofBytes)
	} else if r.SlotBytes != float64(class) {
		t.Errorf("N=%d: SlotBytes: got %.0f, want %d, the runtime's size class for sizeof %d", r.N, r.SlotBytes, class, r.SizeofBytes)
	}
	var slots []int64
	for _, s := range r.Sites {
		slots = append(slots, s.SlotSizes...)
	}
	if len(slots) != 1 || float64(slots[0]) != r.SlotBytes {
		t.Errorf("N=%d: slot sizes in the profile: got %v, want exactly [%.0f]", r.N, slots, r.SlotBytes)
	}
	if t.Failed() {
		logSites(t, r)
	}
}

func checkSlice(t *testing.T, r *memprof.Result) {
	t.Helper()
	n := float64(r.N)
	array := r.ArraySlotBytesPerInstance * n
	total, want := r.BytesPerInstance*n, float64(r.SizeofBytes)*n
	objects := r.AllocsPerInstance * n
	// The engine leaves out the runtime's records for a wait (a semaphore's
	// sudog, cached for the life of the process), which blst's P1s.ToAffine
	// and gnark's BatchJacobianToAffineG1 can leave under the constructor
	// while they wait for their worker goroutines.
	for _, s := range r.Sites {
		if strings.HasPrefix(s.Function, "sync.runtime_Semacquire") {
			t.Errorf("N=%d: a site of the runtime's own wait records was charged to the instances: %s", r.N, s.Function)
		}
	}
	// Besides the backing array, the only other live object allowed is the
	// slice header that NewSlice's return boxes into an interface.
	header := float64(unsafe.Sizeof([]byte(nil)))
	switch extra := total - array; {
	case math.Abs(objects-1) < 1e-6 && math.Abs(extra) < 0.5:
	case math.Abs(objects-2) < 1e-6 && math.Abs(extra-header) < 0.5:
	default:
		t.Errorf("N=%d: got %.3f live objects, %.0f bytes beyond the array's slot %.0f; want the array alone, or the array and one %.0f-byte slice header", r.N, objects, extra, array, header)
		logSites(t, r)
	}
	if array < want || array >= want+max(8192, want/8) {
		t.Errorf("N=%d: array slot: got %.0f bytes, want in [%.0f, %.0f + max(one 8 KiB page, an eighth))", r.N, array, want, want)
	}
}

func logSites(t *testing.T, r *memprof.Result) {
	t.Helper()
	for _, s := range r.Sites {
		t.Logf("N=%d: site %s (%s:%d): %.4f B, %.4f allocs, slots %v", r.N, s.Function, s.File, s.Line, s.BytesPerInstance, s.AllocsPerInstance, s.SlotSizes)
	}
}

// BenchmarkNew times New of every available pointer-layout entry of lib
// (one instance per op, profiling off), as a check that instances are
// cheap enough to make 100,000 of them per case: sub-benchmarks are named
// by the entry's bench name.
func BenchmarkNew(b *testing.B, s suites.Suite) {
	for _, e := range Entries(s) {
		if !e.Unavailable.IsZero() || e.Layout != measure.Pointer {
			continue
		}
		b.Run(e.BenchName(), func(b *testing.B) {
			c := e.Case()
			if c.Prepare != nil {
				if err := c.Prepare(suitekit.Distinct); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				sink = c.New(i)
				i++
			}
			sink = nil
		})
	}
}

// sink keeps benchmark results alive against dead-code elimination.
var sink any

// CheckOps runs every operation lib registers on valid inputs (its
// result must match the vectors blst made, fixtures/vectors.json, after
// the first call and after a second one: the timing calls a harness many
// times) and once on inputs it must reject; an unavailable operation must
// say "not offered by <lib>".
func CheckOps(t *testing.T, s suites.Suite) {
	lib := s.Name
	t.Helper()
	v, err := fixtures.Load()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, op := range s.Ops {
		op.Key = op.Key.Normalize()
		n++
		t.Run(op.BenchName(), func(t *testing.T) {
			if !op.Unavailable.IsZero() {
				if op.Unavailable.Kind != vocab.NotOffered && op.Unavailable.Kind != vocab.NeedsCgo && op.Unavailable.Kind != vocab.DoesNotApply {
					t.Errorf("got kind %q, want %s, %s or %s", op.Unavailable.Kind, vocab.NotOffered, vocab.NeedsCgo, vocab.DoesNotApply)
				}
				if op.Unavailable.Kind == vocab.DoesNotApply && !slices.Contains([][2]vocab.Op{{vocab.Compress, vocab.Op(vocab.Compressed)}, {vocab.Serialize, vocab.Op(vocab.Uncompressed)}}, [2]vocab.Op{op.Op, vocab.Op(op.Repr)}) {
					t.Errorf("got kind %s for %s from %s, want it only where the input is the output (compress from compressed, serialize from uncompressed)", vocab.DoesNotApply, op.Op, op.Repr)
				}
				if op.Unavailable.Kind == vocab.NotOffered && !strings.Contains(op.Unavailable.Reason, string(op.Lib)) {
					t.Errorf("got reason %q, want it to name %s", op.Unavailable.Reason, op.Lib)
				}
				return
			}
			h, err := suites.CheckOp(op, v)
			if err != nil {
				t.Error(err)
			} else if err := CheckAgain(op, h, v); err != nil {
				t.Error(err)
			}
			if err := suites.CheckOpRejects(op); err != nil {
				t.Error(err)
			}
		})
	}
	if n == 0 {
		t.Fatalf("no %s operation registered", lib)
	}
}

// CheckAgain runs the checked harness h of op a second time: its result
// must still be the known one (a harness that consumes its inputs
// computes the right thing only once).
func CheckAgain(op suites.Op, h suites.OpHarness, v *fixtures.Vectors) error {
	if err := h.Run(); err != nil {
		return fmt.Errorf("%s: second call: %w", op.Key, err)
	}
	got, err := h.Result()
	if err != nil {
		return fmt.Errorf("%s: second call: result: %w", op.Key, err)
	}
	want, err := suites.OpWant(op, v)
	if err != nil {
		return err
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("%s: second call: got result %x, want %x (the first call's)", op.Key, got, want)
	}
	return nil
}

// CheckScan measures e at n instances, after two warm-up rounds, and
// checks what the collector scans per instance (per what, in the
// messages): at least atLeast[e.Repr] bytes, or below below[e.Repr] (a
// form without a pointer per instance), each within the figure's
// resolution. It returns the measurement.
func CheckScan(t *testing.T, e suites.Entry, n int, what string, atLeast, below map[vocab.Repr]float64) *memprof.Result {
	t.Helper()
	c := e.Case()
	c.Name = e.BenchName()
	r := memprof.MeasureInstances(t, c, memprof.N(n), memprof.Warmup(2))
	got := r.ScanBytesPerInstance
	if min, ok := atLeast[e.Repr]; ok && got < min-r.ScanResolution {
		t.Errorf("scan bytes per %s: got %v, want at least %v", what, got, min)
	}
	if max, ok := below[e.Repr]; ok && got > max+r.ScanResolution {
		t.Errorf("scan bytes per %s: got %v, want below %v (no pointer per %s)", what, got, max, what)
	}
	return r
}
