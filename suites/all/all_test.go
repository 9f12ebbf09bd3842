package all

import (
	"slices"
	"testing"

	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
)

// TestRegistry assembles every built-in suite: no duplicate, no name
// outside the vocabulary, every library and scenario type present.
func TestRegistry(t *testing.T) {
	r, err := suites.NewRegistry(Suites()...)
	if err != nil {
		t.Fatal(err)
	}
	libs := map[model.Lib]bool{}
	types := map[model.Type]bool{}
	for _, e := range r.Entries() {
		libs[e.Lib], types[e.Type] = true, true
		if got, ok := r.Lookup(e.BenchName()); !ok || got.Key != e.Key {
			t.Errorf("Lookup(%s): got %v, %v; want the entry", e.BenchName(), got.Key, ok)
		}
	}
	for _, l := range model.Libs {
		if !libs[l] {
			t.Errorf("no entry of library %s", l)
		}
	}
	for _, ty := range model.Types {
		if !types[ty] {
			t.Errorf("no entry of type %s", ty)
		}
	}
	// Every library takes part in one agreement check: the BLS libraries
	// in the signatures' (suites/agree), the KZG ones in the KZG check
	// (suites/agree/kzg).
	var agreeing []model.Lib
	for _, l := range r.AgreeLibs() {
		agreeing = append(agreeing, l.Lib)
	}
	for _, l := range r.KZGAgreeLibs() {
		agreeing = append(agreeing, l.Lib)
	}
	if len(r.Ops()) == 0 || !slices.Equal(agreeing, model.Libs) {
		t.Errorf("got %d operations and agreement libraries %v, want some operations and %v", len(r.Ops()), agreeing, model.Libs)
	}
}
