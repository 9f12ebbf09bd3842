package suites

import (
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// TestNewRegistryErrors: every entry, operation and agreement library a
// set of suites repeats or gets wrong is refused with one error each,
// naming its suite, in the order of the suites; nothing is registered.
func TestNewRegistryErrors(t *testing.T) {
	entry := Entry{Key: results.Key{Type: vocab.G1, Lib: vocab.Gnark, Repr: vocab.Affine, Layout: measure.Pointer},
		Case: func() memprof.Case { return memprof.Case{} }}
	op := Op{Key: results.Key{Type: vocab.G1, Lib: vocab.Gnark, Repr: vocab.Jacobian, Op: vocab.ToAffine, Batch: 1},
		Prepare: func(OpInput) (OpHarness, error) { return OpHarness{}, nil }}
	lib := AgreeLib{Lib: vocab.Gnark, Unavailable: vocab.Because(vocab.NotOffered, "test")}
	noLayout := entry
	noLayout.Layout = ""
	noBatch := op
	noBatch.Batch = 0
	tests := []struct {
		name   string
		suites []Suite
		want   string
	}{
		{"one of each, twice", []Suite{
			{Name: "a", Entries: []Entry{entry}, Ops: []Op{op}, Agree: []AgreeLib{lib}},
			{Name: "b", Entries: []Entry{entry}, Ops: []Op{op}, Agree: []AgreeLib{lib}},
		}, "suite b: duplicate entry type=G1/lib=gnark/repr=affine/layout=pointer\n" +
			"suite b: duplicate op G1/gnark/jacobian op=to-affine\n" +
			"suite b: duplicate agreement lib gnark"},
		{"repeated within a suite", []Suite{
			{Name: "a", Entries: []Entry{entry, entry}, Agree: []AgreeLib{lib, lib}},
		}, "suite a: duplicate entry type=G1/lib=gnark/repr=affine/layout=pointer\n" +
			"suite a: duplicate agreement lib gnark"},
		{"invalid items, suite by suite", []Suite{
			{Name: "a", Entries: []Entry{noLayout}, Ops: []Op{noBatch}},
			{Name: "b", Agree: []AgreeLib{{Lib: "openssl"}}},
		}, "suite a: entry G1/gnark/affine: an entry has a layout and no op or batch\n" +
			"suite a: op G1/gnark/jacobian op=to-affine: batch must be at least 1\n" +
			`suite b: agreement lib "openssl" is not one of blst, gnark, circl`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewRegistry(tt.suites...)
			if err == nil || err.Error() != tt.want {
				t.Errorf("got error %v, want\n%s", err, tt.want)
			}
			if r != nil {
				t.Errorf("got a registry %v, want none", r)
			}
		})
	}
}
