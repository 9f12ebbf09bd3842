package scenarios

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// TestScenariosAtSmallN measures every available scenario at a small N and
// checks the figures against what each form must hold: its values (the
// representation's size, reported as sizeof), a map entry key for the
// index forms, and one allocation per instance exactly for the forms that
// hold each value behind a pointer.
func TestScenariosAtSmallN(t *testing.T) {
	const n = 2000
	seen := 0
	for _, e := range Suite().Entries {
		if e.Layout != measure.Collection {
			continue
		}
		seen++
		t.Run(e.BenchName(), func(t *testing.T) {
			if !e.Unavailable.IsZero() {
				if e.Unavailable.Kind != vocab.NeedsCgo {
					t.Errorf("unavailable, kind %q, want %s: %q", e.Unavailable.Kind, vocab.NeedsCgo, e.Unavailable.Reason)
				}
				return
			}
			c := e.Case()
			c.Name = e.BenchName()
			r := memprof.MeasureInstances(t, c, memprof.N(n), memprof.SkipGC()) // gc_test.go checks the GC figures
			if r.SizeofBytes != int64(e.SizeHint) || r.SizeofBytes == 0 {
				t.Errorf("sizeof: got %d, want the value's size %d", r.SizeofBytes, e.SizeHint)
			}
			min := float64(r.SizeofBytes)
			if e.Type == vocab.PubkeyCache {
				min += 48 // every validator has a 48-byte key in the index map
			}
			if e.Repr == "slice-compressed" {
				min = 32 + 96
			}
			if r.BytesPerInstance < min {
				t.Errorf("bytes per instance: got %v, want at least %v", r.BytesPerInstance, min)
			}
			pointerForm := e.Repr == "map-pointer" || e.Repr == "wrapper-pointer" || e.Repr == "slice-pointer" || e.Repr == "map-root"
			// The objects each validator is in the client-shaped
			// forms: its key and the wrapper around it, and for the
			// LRU its list entry.
			wrapped := map[vocab.Repr]float64{vocab.InterfaceMap: 2, vocab.LRU: 3}[e.Repr]
			switch {
			case wrapped > 0 && e.Lib != "circl":
				if r.AllocsPerInstance < wrapped || r.AllocsPerInstance > wrapped+0.01 {
					t.Errorf("allocs per instance: got %v, want %v (the key, its wrapper, the LRU's entry) plus growth", r.AllocsPerInstance, wrapped)
				}
			case pointerForm && e.Lib != "circl":
				if r.AllocsPerInstance < 1 || r.AllocsPerInstance > 1.01 {
					t.Errorf("allocs per instance: got %v, want 1 (one value object each) plus growth", r.AllocsPerInstance)
				}
			case !pointerForm && e.Lib != "circl":
				if r.AllocsPerInstance > 0.01 {
					t.Errorf("allocs per instance: got %v, want only growth steps for a value form", r.AllocsPerInstance)
				}
			}
		})
	}
	// PubkeyCache: 5 forms and the LRU at 2 populations; AttestationPool:
	// 4 forms.
	// The BLS libraries' scenarios (the KZG libraries have PeerDASNode).
	bls := vocab.BLS12381.Libs()
	if want := (5 + len(lruPopulations) + 4) * len(bls); seen != want {
		t.Errorf("got %d scenario entries, want %d ((5 + %d LRU populations + 4 forms) x %d libraries)", seen, want, len(lruPopulations), len(bls))
	}
}

// TestLRUPopulations: the LRU form is two entries per library, one per
// population, told apart by the parameter population=N and measured at
// exactly that N (FixedN), the population its constructor names.
func TestLRUPopulations(t *testing.T) {
	for _, lib := range vocab.BLS12381.Libs() {
		var got []results.Param
		for _, e := range Suite().Entries {
			if e.Lib != lib || e.Repr != vocab.LRU {
				continue
			}
			got = append(got, e.Param)
			name, value := e.Param.Split()
			if name != "population" || value != strconv.Itoa(e.FixedN) || e.DefaultN != e.FixedN {
				t.Errorf("%s: parameter %q, fixed N %d, default N %d: want population=N with both N", e.Key, e.Param, e.FixedN, e.DefaultN)
			}
			if e.Unavailable.IsZero() && !strings.Contains(e.Constructor, "holding "+value) {
				t.Errorf("%s: constructor %q does not say it holds %s", e.Key, e.Constructor, value)
			}
		}
		var want []results.Param
		for _, n := range lruPopulations {
			want = append(want, results.NewParam("population", n))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: LRU entries %v, want %v", lib, got, want)
		}
	}
}

// TestInterfaceFormsHoldKeys: the client-shaped forms (interface-map and
// the LRU) hold each validator's own key behind publicKey: under the
// validator's cache key, a wrapper whose key is the validator's, a key
// object of its own.
func TestInterfaceFormsHoldKeys(t *testing.T) {
	const n = 3 * distinct
	v := &values[int, int]{}
	for j := range distinct {
		v.pks = append(v.pks, 1000+j)
		v.compressed = append(v.compressed, [48]byte{byte(j), 1})
	}
	for _, form := range []vocab.Repr{vocab.InterfaceMap, vocab.LRU} {
		t.Run(string(form), func(t *testing.T) {
			var get func(k [48]byte) (publicKey[int], bool)
			switch c := pubkeyCache(v, form, n).(type) {
			case map[[48]byte]publicKey[int]:
				get = func(k [48]byte) (publicKey[int], bool) { pk, ok := c[k]; return pk, ok }
			case *lru.Cache[[48]byte, publicKey[int]]:
				get = c.Get
			default:
				t.Fatalf("got a cache of type %T", c)
			}
			seen := map[*int]bool{}
			for i := range n {
				pk, ok := get(cacheKey(v.compressed[i%distinct], i))
				if !ok {
					t.Fatalf("validator %d: not in the cache", i)
				}
				p := pk.point()
				if *p != v.pk(i) || seen[p] {
					t.Errorf("validator %d: got key %d (shared: %v), want its own copy of %d", i, *p, seen[p], v.pk(i))
				}
				seen[p] = true
			}
		})
	}
}
