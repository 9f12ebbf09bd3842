package results

import (
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/vocab"
)

func TestSelectorMatches(t *testing.T) {
	sig := Key{Type: vocab.Signature, Lib: vocab.Blst, Repr: vocab.Affine, Layout: measure.Pointer, Scheme: vocab.MinPk}
	minSig := sig
	minSig.Scheme = vocab.MinSig
	noScheme := sig // written before keys carried a scheme: its type's default
	noScheme.Scheme = ""
	slice := sig
	slice.Layout = measure.Slice
	own := sig // a user's own case: no layout
	own.Layout = ""
	g1 := Key{Type: vocab.G1, Lib: vocab.Gnark, Repr: vocab.Affine, Layout: measure.Pointer}
	verify := Key{Type: vocab.Signature, Lib: vocab.Blst, Repr: vocab.Affine, Op: vocab.Verify, Scheme: vocab.MinPk}
	g1Op := Key{Type: vocab.G1, Lib: vocab.Gnark, Repr: vocab.Affine, Op: vocab.Verify}
	all := func(names ...string) []string { return names }
	tests := []struct {
		name string
		sel  Selector
		key  Key
		want bool
	}{
		{"empty selects the default layout and scheme", Selector{}, sig, true},
		{"empty leaves out min-sig", Selector{}, minSig, false},
		{"empty leaves out the slice", Selector{}, slice, false},
		{"a key without a scheme is of the default", Selector{}, noScheme, true},
		{"a case without a layout is selected by any", Selector{Layout: all("collection")}, own, true},
		{"every layout widens", Selector{Layout: vocab.Strings(measure.Layouts)}, slice, true},
		{"every scheme widens", Selector{Scheme: vocab.Strings(vocab.Schemes)}, minSig, true},
		{"names ignore case", Selector{Type: all("signature"), Lib: all("BLST")}, sig, true},
		{"another lib", Selector{Lib: all("gnark")}, sig, false},
		{"a scheme selects a type without one", Selector{Scheme: all("min-sig")}, g1, true},
		{"no scheme leaves out a type with one", Selector{NoScheme: true}, sig, false},
		{"no scheme keeps a type without one", Selector{NoScheme: true}, g1, true},
		{"an op selects no instance", Selector{Op: all("verify")}, sig, false},
		{"an op selects its operation", Selector{Op: all("verify")}, verify, true},
		{"a layout does not select operations", Selector{Layout: all("slice")}, verify, true},
		{"a named scheme selects an operation's", Selector{Scheme: all("min-sig")}, verify, false},
		{"an operation without a scheme is selected by any", Selector{Scheme: all("min-sig")}, g1Op, true},
		{"no scheme does not leave out operations", Selector{NoScheme: true}, verify, true},
		{"param", Selector{Param: all("precompute=8")}, sig, false},
	}
	for _, tt := range tests {
		if got := tt.sel.Matches(tt.key); got != tt.want {
			t.Errorf("%s: %+v.Matches(%v) = %v, want %v", tt.name, tt.sel, tt.key, got, tt.want)
		}
	}
}

func TestFileSelect(t *testing.T) {
	sig := Key{Type: vocab.Signature, Lib: vocab.Blst, Repr: vocab.Affine, Layout: measure.Pointer, Scheme: vocab.MinPk}
	slice := sig
	slice.Layout = measure.Slice
	verify := Key{Type: vocab.Signature, Lib: vocab.Blst, Repr: vocab.Affine, Op: vocab.Verify, Scheme: vocab.MinPk}
	f := &File{Instances: []Row{{Key: sig}, {Key: slice}}, Throughput: []ThroughputRow{{Key: verify}}, Unavailable: []Unavailable{{Key: slice}}}
	got := f.Select(Selector{})
	if len(got.Instances) != 1 || got.Instances[0].Key != sig || len(got.Throughput) != 1 || len(got.Unavailable) != 0 {
		t.Errorf("Select(Selector{}) = %d instances, %d throughput, %d unavailable rows, want 1, 1, 0", len(got.Instances), len(got.Throughput), len(got.Unavailable))
	}
	if len(f.Instances) != 2 {
		t.Errorf("Select changed the file: %d instances, want 2", len(f.Instances))
	}
}
