package all

import (
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
	if len(r.Ops()) == 0 || len(r.AgreeLibs()) != len(model.Libs) {
		t.Errorf("got %d operations and %d agreement libraries, want some and %d", len(r.Ops()), len(r.AgreeLibs()), len(model.Libs))
	}
}
