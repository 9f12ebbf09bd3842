package scenarios

import (
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/model"
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
		if e.Layout != model.Collection {
			continue
		}
		seen++
		t.Run(e.BenchName(), func(t *testing.T) {
			if !e.Unavailable.IsZero() {
				if e.Unavailable.Kind != model.NeedsCgo {
					t.Errorf("unavailable, kind %q, want %s: %q", e.Unavailable.Kind, model.NeedsCgo, e.Unavailable.Reason)
				}
				return
			}
			c := e.Case()
			c.Name = e.BenchName()
			r := memprof.MeasureInstances(t, c, memprof.N(n))
			if r.SizeofBytes != int64(e.SizeHint) || r.SizeofBytes == 0 {
				t.Errorf("sizeof: got %d, want the value's size %d", r.SizeofBytes, e.SizeHint)
			}
			min := float64(r.SizeofBytes)
			if strings.HasPrefix(string(e.Repr), "index") || strings.HasPrefix(string(e.Repr), "wrapper") || e.Repr == "map-pointer" {
				min += 48 // every validator has a 48-byte key in the index map
			}
			if e.Repr == "slice-compressed" {
				min = 32 + 96
			}
			if r.BytesPerInstance < min {
				t.Errorf("bytes per instance: got %v, want at least %v", r.BytesPerInstance, min)
			}
			pointerForm := e.Repr == "map-pointer" || e.Repr == "wrapper-pointer" || e.Repr == "slice-pointer" || e.Repr == "map-root"
			switch {
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
	// The BLS libraries' scenarios (the KZG libraries have PeerDASNode).
	bls := slices.DeleteFunc(slices.Clone(model.Libs), model.Lib.IsKZG)
	if want := 2 * 4 * len(bls); seen != want {
		t.Errorf("got %d scenario entries, want %d (2 scenarios x 4 forms x %d libraries)", seen, want, len(bls))
	}
}
