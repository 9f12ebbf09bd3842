package suitekit

import (
	"encoding/binary"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// A toy library for the builders: affine points of two words, Jacobian
// ones of three, encodings of 16 and 32 bytes (at least 16: smaller
// objects without pointers share the runtime's tiny blocks). Its "library calls"
// allocate exactly as a real library's would: compress returns a slice it
// allocates, serialize an array by value.
type (
	toyAffine   struct{ x, y uint64 }
	toyJacobian struct{ x, y, z uint64 }
)

var toyValues = Vector(func(i int) toyAffine { return toyAffine{uint64(i), uint64(i) + 1} })

func toyCompress(a *toyAffine) []byte {
	return binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(make([]byte, 0, 16), a.x), a.y)
}

func toySerialize(a *toyAffine) (out [32]byte) {
	binary.BigEndian.PutUint64(out[:], a.x)
	binary.BigEndian.PutUint64(out[8:], a.y)
	return out
}

func toyGroup(raw bool) PointGroup[toyAffine, toyJacobian, [16]byte, [32]byte] {
	g := PointGroup[toyAffine, toyJacobian, [16]byte, [32]byte]{
		Values: func(vocab.Type) func() []toyAffine { return toyValues },
		Decode: Decoding[toyAffine]{Call: "decode of", Set: func(dst *toyAffine, enc []byte) bool {
			if len(enc) != 32 {
				return false
			}
			*dst = toyAffine{binary.BigEndian.Uint64(enc), binary.BigEndian.Uint64(enc[8:])}
			return true
		}},
		FromAffine: func(dst *toyJacobian, a *toyAffine) { *dst = toyJacobian{a.x, a.y, 1} },
		Compressed: Encoding[toyAffine, [16]byte]{
			Method: "Compress", Kept: "the library allocates the bytes",
			New: func(a *toyAffine) *[16]byte { return ArrayOf[[16]byte](toyCompress(a)) },
			Set: func(dst *[16]byte, a *toyAffine) { copy(Bytes(dst), toyCompress(a)) },
		},
		Uncompressed: Encoding[toyAffine, [32]byte]{
			Method: "Serialize", Kept: "returned by value, moved to the heap",
			New: func(a *toyAffine) *[32]byte { b := toySerialize(a); return &b },
			Set: func(dst *[32]byte, a *toyAffine) { *dst = toySerialize(a) },
		},
	}
	if raw {
		g.RawAffineSlice = Batch("batch of n points", nil, func(i int) toyJacobian { return toyJacobian{uint64(i), 0, 1} },
			func(in []toyJacobian) []toyAffine { return make([]toyAffine, len(in)) })
		g.RawJacobianPointer = Made("sum of two points", nil, func(i int) *toyJacobian { return &toyJacobian{uint64(i), 0, 1} })
	}
	return g
}

func TestPointGroupMakesEveryConstructor(t *testing.T) {
	for _, tc := range []struct {
		name    string
		typ     vocab.Type
		scheme  vocab.Scheme
		raw     bool
		replace []Key // the constructors the raw ones replace
	}{
		{name: "public key", typ: vocab.PublicKey, scheme: vocab.MinPk, raw: true},
		{name: "raw type without raw constructors", typ: vocab.G1, raw: false},
		{name: "raw type", typ: vocab.G2, raw: true, replace: []Key{
			{Type: vocab.G2, Repr: vocab.Affine, Layout: measure.Slice},
			{Type: vocab.G2, Repr: vocab.Jacobian, Layout: measure.Pointer},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := map[Key]Impl{}
			toyGroup(tc.raw).AddImpls(m, tc.typ, tc.scheme)
			size := map[vocab.Repr]uintptr{
				vocab.Affine:       unsafe.Sizeof(toyAffine{}),
				vocab.Jacobian:     unsafe.Sizeof(toyJacobian{}),
				vocab.Compressed:   16,
				vocab.Uncompressed: 32,
			}
			if len(m) != 2*len(size) {
				t.Errorf("got %d constructors, want %d (4 representations x 2 layouts)", len(m), 2*len(size))
			}
			for repr, want := range size {
				for _, layout := range Layouts {
					k := Key{Type: tc.typ, Repr: repr, Layout: layout, Scheme: tc.scheme}
					im, ok := m[k]
					if !ok {
						t.Errorf("%s: no constructor", k)
						continue
					}
					if im.SizeHint != want {
						t.Errorf("%s: SizeHint: got %d, want %d", k, im.SizeHint, want)
					}
					raw := strings.HasPrefix(im.Constructor, "batch") || strings.HasPrefix(im.Constructor, "sum")
					if replaced := slices.Contains(tc.replace, k); raw != replaced {
						t.Errorf("%s: got constructor %q; want the raw one: %v", k, im.Constructor, replaced)
					}
				}
			}
		})
	}
}

// TestPointGroupInstancesAreExact measures the toy group's instances: each
// is one object of its type's size class (the library's own allocation for
// the compressed encoding), and a slice is one backing array.
func TestPointGroupInstancesAreExact(t *testing.T) {
	m := map[Key]Impl{}
	toyGroup(false).AddImpls(m, vocab.Signature, vocab.MinSig)
	for k, im := range m {
		t.Run(k.String(), func(t *testing.T) {
			c := im.Case()
			c.Name = k.String()
			r, err := memprof.Measure(c, memprof.N(1000))
			if err != nil {
				t.Fatal(err)
			}
			if r.SizeofBytes != int64(im.SizeHint) {
				t.Errorf("sizeof: got %d, want SizeHint %d", r.SizeofBytes, im.SizeHint)
			}
			switch k.Layout {
			case measure.Pointer:
				if r.AllocsPerInstance != 1 || r.BytesPerInstance != r.SlotBytes || r.SlotBytes < float64(im.SizeHint) {
					t.Errorf("got %.3f allocs, %.3f B, slot %.0f per instance; want 1 object of its slot, at least %d B", r.AllocsPerInstance, r.BytesPerInstance, r.SlotBytes, im.SizeHint)
				}
			case measure.Slice:
				if array := r.ArraySlotBytesPerInstance * 1000; array < float64(im.SizeHint)*1000 {
					t.Errorf("array slot: got %.0f B, want at least %d", array, im.SizeHint*1000)
				}
			}
			// Every allocation is the harness's own (the toy library is in
			// this package): named by what it holds, without a file.
			var want []string
			switch typ := toyTypeName(k.Repr); k.Layout {
			case measure.Pointer:
				want = []string{"new(" + typ + ")"}
			case measure.Slice:
				want = []string{"make([]" + typ + ", n)", "any([]" + typ + ")"}
			}
			var got []string
			for _, s := range r.Sites {
				got = append(got, s.Function)
				if s.File != "" || s.Line != 0 {
					t.Errorf("site %s: got file %q line %d, want none", s.Function, s.File, s.Line)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("sites: got %q, want %q", got, want)
			}
		})
	}
}

// toyTypeName is the toy's type of repr as Go source spells it.
func toyTypeName(repr vocab.Repr) string {
	switch repr {
	case vocab.Jacobian:
		return "suitekit.toyJacobian"
	case vocab.Compressed:
		return "[16]byte"
	case vocab.Uncompressed:
		return "[32]byte"
	}
	return "suitekit.toyAffine"
}

func TestFillSetsEachInstance(t *testing.T) {
	f := Fill[toyJacobian]{How: "set by FromAffine", Prepare: Prepare(toyValues), Set: func(dst *toyJacobian, i int) bool {
		*dst = toyJacobian{toyValues()[i].x, toyValues()[i].y, 1}
		return i != 3 // input 3 is rejected
	}}
	if got, want := f.Pointer().Constructor, "new(suitekit.toyJacobian) set by FromAffine"; got != want {
		t.Errorf("pointer constructor: got %q, want %q", got, want)
	}
	if got, want := f.Slice().Constructor, "[]suitekit.toyJacobian, each set by FromAffine"; got != want {
		t.Errorf("slice constructor: got %q, want %q", got, want)
	}
	c := f.Pointer().Case()
	if err := c.Prepare(4); err != nil {
		t.Fatal(err)
	}
	if p := c.New(2).(*toyJacobian); *p != (toyJacobian{2, 3, 1}) {
		t.Errorf("New(2): got %+v, want {2 3 1}", *p)
	}
	if p := c.New(3).(*toyJacobian); p != nil {
		t.Errorf("New(3) of a rejected input: got %+v, want nil", *p)
	}
	s := f.Slice().Case()
	if got := s.NewSlice(3).([]toyJacobian); !slices.Equal(got, []toyJacobian{{0, 1, 1}, {1, 2, 1}, {2, 3, 1}}) {
		t.Errorf("NewSlice(3): got %+v", got)
	}
	func() {
		defer func() {
			if p, _ := recover().(string); !strings.Contains(p, "input 3") {
				t.Errorf("NewSlice(4) with a rejected input 3: got panic %q, want one naming input 3", p)
			}
		}()
		s.NewSlice(4)
	}()
}

func TestArrayOfKeepsTheLibrarysBytes(t *testing.T) {
	b := []byte{1, 2, 3, 4}
	p := ArrayOf[[4]byte](b)
	p[0] = 9
	if b[0] != 9 {
		t.Errorf("ArrayOf copied: the slice got %v after writing through the array, want 9 first", b)
	}
	if got := Bytes(p); &got[0] != &b[0] || len(got) != 4 {
		t.Errorf("Bytes: got %d bytes at %p, want the 4 bytes at %p", len(got), &got[0], &b[0])
	}
	for _, n := range []int{3, 5} {
		func() {
			defer func() {
				if p, _ := recover().(string); !strings.Contains(p, "[4]byte") {
					t.Errorf("ArrayOf of %d bytes: got panic %q, want one naming [4]byte", n, p)
				}
			}()
			ArrayOf[[4]byte](make([]byte, n))
		}()
	}
}

func TestTypeName(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{TypeName[[48]byte](), "[48]byte"},
		{TypeName[toyAffine](), "suitekit.toyAffine"},
		{TypeName[results.Key](), "results.Key"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
