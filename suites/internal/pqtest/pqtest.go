// Package pqtest holds the checks the post-quantum suites' tests run on
// their entries: every key of the matrix registered once, available or
// with a reason; the exact bytes and objects each instance keeps, against
// a truth derived by construction (the sizes the standards fix, read from
// the libraries' constants, unsafe.Sizeof of the parsed types and of what
// they point to, and the allocator's size classes); and that a parsed key
// built by pqkit.Clone keeps what the library's own constructor keeps.
package pqtest

import (
	"flag"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/internal/typeptr"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/kzgtest"
	"github.com/memprof/memprof/suites/internal/pqkit"
	"github.com/memprof/memprof/vocab"
)

// All, set by -pq.all (.ci/run passes it), makes the agreement checks run
// every known answer of fixtures/pq and the operations of every set (go
// test runs a few vectors per set, and leaves out the slow SLH-DSA small
// sets' signing).
var All = flag.Bool("pq.all", false, "run every post-quantum known answer and every set's operations (minutes; .ci/run passes it)")

// N is the number of instances go test measures each entry at (the
// default N, pqkit.DefaultN, is .ci/run's and the budgets').
const N = 300

// Setup applies -pq.all: every vector in the agreement checks.
func Setup() {
	if *All {
		pqkit.VectorsPerKind = 0
	}
}

// Main is the TestMain of the post-quantum suites' tests: the flags
// parsed (m.Run would parse them only after Setup had read -pq.all),
// Setup, then the tests.
func Main(m *testing.M) {
	flag.Parse()
	Setup()
	m.Run()
}

// Keys returns the keys of lib's entries: one for every type of types,
// representation of pqkit.Reprs and set of sets.
func Keys(lib vocab.Lib, types []vocab.Type, sets []pqkit.Set) []results.Key {
	var keys []results.Key
	for _, typ := range types {
		for _, r := range pqkit.Reprs {
			for _, set := range sets {
				keys = append(keys, results.Key{Type: typ, Lib: lib, Repr: r, Layout: measure.Pointer, Param: set.Param()})
			}
		}
	}
	return keys
}

// CheckDefaultN checks that an available entry is measured at
// pqkit.DefaultN by default (suitetest.CheckCoverage's check of the
// post-quantum suites).
func CheckDefaultN(e suites.Entry) error {
	if e.Unavailable.IsZero() && e.DefaultN != pqkit.DefaultN {
		return fmt.Errorf("DefaultN %d, want %d", e.DefaultN, pqkit.DefaultN)
	}
	return nil
}

// Footprint is what one value of a type keeps, by construction: its own
// slot and that of every object its pointers point to (one level, as
// pqkit.Clone copies), and the number of objects.
func Footprint(t *testing.T, v any) (bytes, objects float64) {
	t.Helper()
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer {
		t.Fatalf("Footprint of a %T: want a pointer", v)
	}
	bytes, objects = kzgtest.Slot(t, rv.Type().Elem().Size(), typeptr.Has(rv.Type().Elem())), 1
	var walk func(reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i))
			}
		case reflect.Array:
			if typeptr.Has(v.Type().Elem()) {
				for i := range v.Len() {
					walk(v.Index(i))
				}
			}
		case reflect.Pointer:
			if !v.IsNil() {
				e := v.Type().Elem()
				bytes += kzgtest.Slot(t, e.Size(), typeptr.Has(e))
				objects++
			}
		}
	}
	walk(rv.Elem())
	return bytes, objects
}

// Want is the truth of one entry: the bytes and objects one instance
// keeps.
type Want struct {
	Key            results.Key
	Bytes, Objects float64
}

// EncodingWant is the truth of an entry holding an encoding of size
// bytes, which the standard fixes: one pointer-free object in its slot.
func EncodingWant(t *testing.T, k results.Key, size int) Want {
	t.Helper()
	return Want{Key: k, Bytes: kzgtest.Slot(t, uintptr(size), false), Objects: 1}
}

// ParsedWant is the truth of an entry holding a parsed object like v.
func ParsedWant(t *testing.T, k results.Key, v any) Want {
	t.Helper()
	b, o := Footprint(t, v)
	return Want{Key: k, Bytes: b, Objects: o}
}

// ShortSets are the sets go test measures without -pq.all: one of each
// scheme's sizes the issue names, and a fast SLH-DSA set; .ci/run
// measures every set.
var ShortSets = []pqkit.Set{"ML-KEM-768", "ML-DSA-65", "SLH-DSA-SHA2-128s", "SLH-DSA-SHAKE-128f"}

// CheckMeasurements measures each entry of wants in this process at N and
// checks its bytes and objects per instance (those of ShortSets only
// without -pq.all), and that every available entry of s has a want (none
// is left unchecked).
func CheckMeasurements(t *testing.T, s suites.Suite, wants []Want) {
	t.Helper()
	for _, e := range s.Entries {
		if e.Unavailable.IsZero() && !slices.ContainsFunc(wants, func(w Want) bool { return w.Key == e.Key }) {
			t.Errorf("%s: available but not checked", e.Key)
		}
	}
	for _, w := range wants {
		if !*All && !slices.Contains(ShortSets, pqkit.SetOf(w.Key.Param)) {
			continue
		}
		t.Run(w.Key.BenchName(), func(t *testing.T) {
			r, e := kzgtest.Measure(t, s, w.Key, memprof.N(N), memprof.SkipGC())
			if math.Abs(r.BytesPerInstance-w.Bytes) > 1e-9 || math.Abs(r.AllocsPerInstance-w.Objects) > 1e-9 {
				t.Errorf("got %v B in %v objects per instance, want %v B in %v objects", r.BytesPerInstance, r.AllocsPerInstance, w.Bytes, w.Objects)
				for _, st := range r.Sites {
					t.Logf("site %s: %.3f B, %.3f objects, slots %v", st.Function, st.BytesPerInstance, st.AllocsPerInstance, st.SlotSizes)
				}
			}
			if r.SizeofBytes != int64(e.SizeHint) {
				t.Errorf("sizeof: got %d, want the size hint %d", r.SizeofBytes, e.SizeHint)
			}
			// A site names the type or the library's frame: never
			// reflect's allocation on the harness's behalf, nor the
			// harness's own function.
			for _, st := range r.Sites {
				if strings.HasPrefix(st.Function, "reflect.") || strings.Contains(st.Function, "/memprof/suites/") {
					t.Errorf("site %q: want the type it holds or the library's frame", st.Function)
				}
			}
		})
	}
}

// Must is a constructor for CheckLikeConstructor from one that returns
// an error: it panics on the error.
func Must[T any](f func(i int) (T, error)) func(i int) any {
	return func(i int) any {
		v, err := f(i)
		if err != nil {
			panic(err)
		}
		return v
	}
}

// CheckLikeConstructor measures, at a small N, the entry k of s beside a
// case whose instance i is what real(i) returns (the library's own
// constructor, called per instance), and checks that both keep the same
// bytes and objects per instance: a case built by copying keeps what the
// library's constructor keeps.
func CheckLikeConstructor(t *testing.T, s suites.Suite, k results.Key, real func(i int) any) {
	t.Helper()
	const n = 200
	r, _ := kzgtest.Measure(t, s, k, memprof.N(n), memprof.SkipGC())
	c := memprof.Case{Name: k.BenchName() + "/constructor", New: real}
	want, err := memprof.Measure(c, memprof.N(n), memprof.SkipGC())
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.BytesPerInstance-want.BytesPerInstance) > 1e-9 || math.Abs(r.AllocsPerInstance-want.AllocsPerInstance) > 1e-9 {
		t.Errorf("%s: the case keeps %v B in %v objects per instance, the library's constructor %v B in %v", k, r.BytesPerInstance, r.AllocsPerInstance, want.BytesPerInstance, want.AllocsPerInstance)
		for _, st := range want.Sites {
			t.Logf("constructor site %s: %.3f B, %.3f objects, slots %v", st.Function, st.BytesPerInstance, st.AllocsPerInstance, st.SlotSizes)
		}
	}
}

// Key is the key of lib's entry of typ in repr at set.
func Key(typ vocab.Type, lib vocab.Lib, repr vocab.Repr, set pqkit.Set) results.Key {
	return results.Key{Type: typ, Lib: lib, Repr: repr, Layout: measure.Pointer, Param: set.Param()}
}
