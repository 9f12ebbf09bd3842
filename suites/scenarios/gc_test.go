package scenarios

import (
	"math"
	"testing"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"

	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/suites/internal/suitetest"
	"github.com/memprof/memprof/vocab"
)

// gcCase is a pointer-free library type held the two ways the engine
// holds instances: each its own object, and all in one slice.
type gcCase struct {
	name string
	c    memprof.Case
}

// pointerFree returns the cases of T: new(T) each, and one []T.
func pointerFree[T any](name string) []gcCase {
	return []gcCase{
		{name + "/pointer", memprof.Case{New: func(int) any { return new(T) }}},
		{name + "/slice", memprof.Case{NewSlice: func(n int) any { return make([]T, n) }}},
	}
}

// checkScansNothing measures each case and checks that the collector
// scans nothing of it: a type without pointers (its coordinates are
// arrays of machine words) is never scanned, so its scan bytes per
// instance are 0 within their resolution.
func checkScansNothing(t *testing.T, cases []gcCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			tt.c.Name = tt.name
			r := memprof.MeasureInstances(t, tt.c, memprof.N(20_000), memprof.Warmup(2))
			if math.Abs(r.ScanBytesPerInstance) > r.ScanResolution {
				t.Errorf("scan bytes per instance: got %v, want 0 within %v", r.ScanBytesPerInstance, r.ScanResolution)
			}
		})
	}
}

// TestScanPointerFreeGnark: gnark-crypto's G1Affine and G2Affine hold no
// pointer.
func TestScanPointerFreeGnark(t *testing.T) {
	checkScansNothing(t, append(pointerFree[bls12381.G1Affine]("bls12381.G1Affine"), pointerFree[bls12381.G2Affine]("bls12381.G2Affine")...))
}

// TestScenarioScanBytes: what the collector scans per validator follows
// from each form's shape. A form that holds its keys by value in a slice
// beside an index of integers (index-slice, wrapper-value) holds no
// pointer per validator: only the maps' own tables (a few pointers per
// thousand entries) are scanned, far below one pointer per validator. A
// form that holds each key behind a pointer scans at least that pointer
// for each (map-pointer, wrapper-pointer), and the client-shaped forms
// more: an interface value's two words and the wrapper's pointer
// (interface-map), and the LRU's list entry too (lru).
//
// The shapes are the same in every library; it measures gnark-crypto's
// (pure Go), at an N where the resolution (one runtime page over N) stays
// below 2 B.
func TestScenarioScanBytes(t *testing.T) {
	const n = 5_000
	word := 8.0
	atLeast := map[vocab.Repr]float64{"map-pointer": word, "wrapper-pointer": word, "interface-map": 3 * word, "lru": 6 * word}
	below := map[vocab.Repr]float64{"index-slice": word / 8, "wrapper-value": word / 8}
	for _, e := range Suite().Entries {
		if e.Type != "PubkeyCache" || e.Lib != "gnark" {
			continue
		}
		t.Run(e.BenchName(), func(t *testing.T) {
			r := suitetest.CheckScan(t, e, n, "validator", atLeast, below)
			t.Logf("%s: scan %v B per validator (resolution %v), %v B", e.Key, r.ScanBytesPerInstance, r.ScanResolution, r.BytesPerInstance)
		})
	}
}
