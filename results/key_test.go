package results

import (
	"slices"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/vocab"
)

func TestKeyNames(t *testing.T) {
	tests := []struct {
		key        Key
		str, bench string
	}{
		{Key{Type: vocab.Signature, Lib: vocab.Blst, Repr: vocab.Affine, Layout: measure.Pointer, Scheme: vocab.MinPk},
			"Signature/blst/affine/pointer", "type=Signature/lib=blst/repr=affine/layout=pointer"},
		{Key{Type: vocab.Signature, Lib: vocab.Blst, Repr: vocab.Affine, Layout: measure.Pointer, Scheme: vocab.MinSig},
			"Signature/blst/affine/pointer/min-sig", "type=Signature/lib=blst/repr=affine/layout=pointer/scheme=min-sig"},
		{Key{Type: vocab.G1, Lib: vocab.Gnark, Repr: vocab.Jacobian, Layout: measure.Slice},
			"G1/gnark/jacobian/slice", "type=G1/lib=gnark/repr=jacobian/layout=slice"},
		{Key{Type: vocab.PubkeyCache, Lib: vocab.Circl, Repr: vocab.MapPointer, Layout: measure.Collection, Param: "population=100000"},
			"PubkeyCache/circl/map-pointer/collection/population=100000", "type=PubkeyCache/lib=circl/repr=map-pointer/layout=collection/population=100000"},
		{Key{Type: vocab.Signature, Lib: vocab.Blst, Repr: vocab.Affine, Scheme: vocab.MinPk, Op: vocab.Verify, Batch: 1},
			"Signature/blst/affine op=verify", "type=Signature/lib=blst/repr=affine/op=verify"},
		{Key{Type: vocab.PublicKey, Lib: vocab.Gnark, Repr: vocab.Affine, Op: vocab.Aggregate, Batch: 128},
			"PublicKey/gnark/affine op=aggregate batch=128", "type=PublicKey/lib=gnark/repr=affine/op=aggregate/batch=128"},
		{Key{Name: "my pub key", Layout: measure.Pointer}, "my pub key", "my_pub_key"},
	}
	for _, tt := range tests {
		if got := tt.key.String(); got != tt.str {
			t.Errorf("String: got %q, want %q", got, tt.str)
		}
		if got := tt.key.BenchName(); got != tt.bench {
			t.Errorf("BenchName: got %q, want %q", got, tt.bench)
		}
	}
}

// TestCompare: the one ordering groups instance cases of a type by
// library, operations by what they do, and orders parameters by number.
func TestCompare(t *testing.T) {
	want := []Key{
		{Type: vocab.PublicKey, Lib: vocab.Blst, Repr: vocab.Affine, Layout: measure.Pointer, Scheme: vocab.MinPk},
		{Type: vocab.PublicKey, Lib: vocab.Blst, Repr: vocab.Compressed, Layout: measure.Pointer, Scheme: vocab.MinPk},
		{Type: vocab.PublicKey, Lib: vocab.Gnark, Repr: vocab.Affine, Layout: measure.Pointer, Scheme: vocab.MinPk},
		{Type: vocab.PublicKey, Lib: vocab.Gnark, Repr: vocab.Affine, Layout: measure.Slice, Scheme: vocab.MinPk},
		{Type: vocab.PublicKey, Lib: vocab.Gnark, Repr: vocab.Affine, Layout: measure.Slice, Scheme: vocab.MinSig},
		{Type: vocab.PublicKey, Lib: vocab.Blst, Repr: vocab.Affine, Op: vocab.Compress, Batch: 1},
		{Type: vocab.PublicKey, Lib: vocab.Gnark, Repr: vocab.Affine, Op: vocab.Compress, Batch: 1},
		{Type: vocab.PublicKey, Lib: vocab.Blst, Repr: vocab.Affine, Op: vocab.Aggregate, Batch: 8},
		{Type: vocab.PublicKey, Lib: vocab.Blst, Repr: vocab.Affine, Op: vocab.Aggregate, Batch: 128},
		{Type: vocab.Signature, Lib: vocab.Blst, Repr: vocab.Affine, Layout: measure.Pointer, Scheme: vocab.MinPk},
		{Type: vocab.PubkeyCache, Lib: vocab.Blst, Repr: vocab.IndexSlice, Layout: measure.Collection, Param: "population=100000"},
		{Type: vocab.PubkeyCache, Lib: vocab.Blst, Repr: vocab.IndexSlice, Layout: measure.Collection, Param: "population=1000000"},
		{Type: "Unknown", Lib: vocab.Blst, Repr: vocab.Affine, Layout: measure.Pointer},
	}
	checkOrder(t, want)
}

// checkOrder sorts want's keys from the reverse order with Compare and
// checks it gets want back.
func checkOrder(t *testing.T, want []Key) {
	t.Helper()
	got := slices.Clone(want)
	slices.Reverse(got)
	slices.SortStableFunc(got, Compare)
	if !slices.Equal(got, want) {
		t.Errorf("order:\ngot  %v\nwant %v", got, want)
	}
}

func TestNormalize(t *testing.T) {
	old := Key{Type: vocab.Signature, Lib: vocab.Blst, Repr: vocab.Affine, Op: vocab.Verify, Batch: 1}
	if got := old.Normalize().Scheme; got != vocab.MinPk {
		t.Errorf("an operation of Signature without a scheme: got %q, want %q", got, vocab.MinPk)
	}
	if got := (Key{Type: vocab.G1}).Normalize().Scheme; got != "" {
		t.Errorf("G1 has no scheme: got %q", got)
	}
}

func TestParamCheck(t *testing.T) {
	for _, tt := range []struct {
		p  Param
		ok bool
	}{
		{"", true}, {"population=1000000", true}, {"precompute=6", true},
		{"population", false}, {"=6", false}, {"Population=6", false}, {"a=b/c", false}, {"a=", false},
	} {
		if err := tt.p.Check(); (err == nil) != tt.ok {
			t.Errorf("Check(%q): got %v, want ok %v", tt.p, err, tt.ok)
		}
	}
}

// TestParamNaturalOrder orders parameter sets by their numbers, as the
// standards list them.
func TestParamNaturalOrder(t *testing.T) {
	want := []Param{"set=ML-KEM-512", "set=ML-KEM-768", "set=ML-KEM-1024", "set=SLH-DSA-SHA2-128f", "set=SLH-DSA-SHA2-128s", "set=SLH-DSA-SHAKE-128f"}
	got := slices.Clone(want)
	slices.Reverse(got)
	slices.SortFunc(got, func(a, b Param) int { return a.compare(b) })
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
