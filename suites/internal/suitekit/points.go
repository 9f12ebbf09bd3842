package suitekit

import (
	"fmt"
	"reflect"
	"strconv"
	"sync"
	"unsafe"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/vocab"
)

// The builders below write each kind of constructor once, so that a
// suite describes a curve group (G1 or G2) once and instantiates the
// description for both groups: PointGroup makes the eight constructors
// of a point type, Fill, Made and Batch the constructors it is made of.

// What names the values of a point type in constructor sentences: "a
// min-pk public key", "a min-sig signature", "a hash-to-curve point".
func What(typ vocab.Type, scheme vocab.Scheme) string {
	switch typ {
	case vocab.PublicKey:
		return "a " + string(scheme) + " public key"
	case vocab.Signature:
		return "a " + string(scheme) + " signature"
	}
	return "a hash-to-curve point"
}

// ValuesOf picks, among one group's values, those of point type typ: the
// public keys, the signatures, or the raw points (G1, G2).
func ValuesOf[V any](typ vocab.Type, publicKeys, signatures, raw V) V {
	switch typ {
	case vocab.PublicKey:
		return publicKeys
	case vocab.Signature:
		return signatures
	}
	return raw
}

// Vector returns a function giving the Distinct values value(0), ...,
// value(Distinct-1), computed on first use (from a Prepare step, with
// profiling off) and kept for the life of the process.
func Vector[T any](value func(i int) T) func() []T {
	return sync.OnceValue(func() []T {
		out := make([]T, Distinct)
		for i := range out {
			out[i] = value(i)
		}
		return out
	})
}

// CopyOf returns a Fill.Set that sets an instance to a copy of value i.
func CopyOf[T any](values func() []T) func(dst *T, i int) bool {
	return func(dst *T, i int) bool { *dst = values()[i]; return true }
}

// TypeName names T in constructor sentences as Go source spells it:
// "blst.P1Affine", "[48]byte".
func TypeName[T any]() string {
	t := reflect.TypeFor[T]()
	if t.Kind() == reflect.Array && t.Elem().Kind() == reflect.Uint8 {
		return "[" + strconv.Itoa(t.Len()) + "]byte"
	}
	return t.String()
}

// SizeOf is unsafe.Sizeof of a T.
func SizeOf[T any]() uintptr {
	var zero T
	return unsafe.Sizeof(zero)
}

// Bytes returns the bytes of *e, a byte array ([48]byte, ...), without
// copying them.
func Bytes[E any](e *E) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(e)), SizeOf[E]())
}

// ArrayOf returns b, a slice a library call allocated, as the byte array
// E ([48]byte, ...) it holds, without copying: the instance stays the
// library's own allocation, as (*[48]byte)(b) would keep it. It panics
// if b is not exactly as long as E.
func ArrayOf[E any](b []byte) *E {
	if uintptr(len(b)) != SizeOf[E]() {
		panic(fmt.Sprintf("suitekit: %d bytes as %s", len(b), TypeName[E]()))
	}
	return (*E)(unsafe.Pointer(unsafe.SliceData(b)))
}

// mustBeByteArray panics unless E is a byte array: Bytes and ArrayOf
// read an E as its bytes.
func mustBeByteArray[E any]() {
	if t := reflect.TypeFor[E](); t.Kind() != reflect.Array || t.Elem().Kind() != reflect.Uint8 {
		panic("suitekit: an encoding must be a byte array, not " + t.String())
	}
}

// Fill is a representation whose instances a library call sets in place:
// the pointer layout allocates each instance with new(T), the slice layout
// one []T of n, and Set sets instance i from input value i (i <
// Distinct), reporting whether the library accepted the input.
type Fill[T any] struct {
	// Name is T as constructor sentences spell it; TypeName[T] when empty.
	Name string
	// How completes the sentence: "set by FromAffine of a min-pk public
	// key".
	How string
	// Prepare computes the inputs (profiling is off then); it may be nil.
	Prepare func()
	Set     func(dst *T, i int) bool
}

func (f Fill[T]) name() string {
	if f.Name != "" {
		return f.Name
	}
	return TypeName[T]()
}

// Pointer is f's pointer-layout constructor, "new(T) <How>". An input the
// library rejects makes a nil instance, which the engine reports.
func (f Fill[T]) Pointer() Impl {
	return Impl{
		Constructor: "new(" + f.name() + ") " + f.How,
		SizeHint:    SizeOf[T](),
		Case: func() memprof.Case {
			return PointerCase(f.Prepare, func(i int) *T {
				p := new(T)
				if !f.Set(p, i) {
					return nil
				}
				return p
			})
		},
	}
}

// Slice is f's slice-layout constructor, "[]T, each <How>". An input the
// library rejects panics: a slice has no nil instance to return.
func (f Fill[T]) Slice() Impl {
	name := f.name()
	return Impl{
		Constructor: "[]" + name + ", each " + f.How,
		SizeHint:    SizeOf[T](),
		Case: func() memprof.Case {
			return SliceCase(f.Prepare, func(dst *T, i int) {
				if !f.Set(dst, i) {
					panic(fmt.Sprintf("suitekit: setting a %s from input %d failed", name, i))
				}
			})
		},
	}
}

// Add adds both layouts of f under k (whose Layout it sets).
func (f Fill[T]) Add(m map[Key]Impl, k Key) {
	k.Layout = measure.Pointer
	m[k] = f.Pointer()
	k.Layout = measure.Slice
	m[k] = f.Slice()
}

// Made is a pointer-layout constructor whose instance the library call
// itself allocates: newInstance(i) returns it, made from input value i
// (i < Distinct).
func Made[T any](constructor string, prepare func(), newInstance func(i int) *T) Impl {
	return Impl{
		Constructor: constructor,
		SizeHint:    SizeOf[T](),
		Case:        func() memprof.Case { return PointerCase(prepare, newInstance) },
	}
}

// Batch is a slice-layout constructor whose []T the library allocates in
// one call, convert, of n inputs; input i is input(i % Distinct). The
// inputs are made before anything is measured.
func Batch[In, T any](constructor string, prepare func(), input func(i int) In, convert func(in []In) []T) Impl {
	return Impl{
		Constructor: constructor,
		SizeHint:    SizeOf[T](),
		Case: func() memprof.Case {
			var in []In
			return BatchSliceCase(prepare, func(n int) {
				in = make([]In, n)
				for i := range in {
					in[i] = input(i % Distinct)
				}
			}, func(n int) []T { return convert(in[:n]) })
		},
	}
}

// PointGroup is how a library makes the points of one curve group (G1 or
// G2): A is its affine point type, J its Jacobian one, C and U the
// compressed and uncompressed encodings as a program keeps them (byte
// arrays: [48]byte and [96]byte in G1). AddImpls makes from it the eight
// constructors of a point type: affine, Jacobian, compressed and
// uncompressed, in both layouts.
type PointGroup[A, J, C, U any] struct {
	// Values returns the affine values of a point type (see ValuesOf).
	Values func(typ vocab.Type) func() []A
	// Decode makes affine instances from the uncompressed encoding.
	Decode Decoding[A]
	// FromAffine sets dst to a in Jacobian coordinates.
	FromAffine   func(dst *J, a *A)
	Compressed   Encoding[A, C]
	Uncompressed Encoding[A, U]
	// RawAffineSlice and RawJacobianPointer, when their Case is set,
	// make the raw types' (G1, G2) affine slice and Jacobian pointer
	// instances with the library's own calls (a batch conversion, a
	// point addition) instead of decoding and FromAffine.
	RawAffineSlice, RawJacobianPointer Impl
}

// Decoding is how a library decodes an affine point from its uncompressed
// encoding.
type Decoding[A any] struct {
	// Call names the call, to precede the encoding in a sentence:
	// "Deserialize of".
	Call string
	// Note, when set, says why this call is the one used (for instance
	// that the call a program would make keeps the same object but does
	// more work); it ends the sentence in parentheses.
	Note string
	// Prepare, when set, runs before decoding is measured (a warm-up).
	Prepare func()
	// Set decodes enc into dst, reporting whether the library accepted it.
	Set func(dst *A, enc []byte) bool
}

// Encoding is one of a library's point encodings, E a byte array.
type Encoding[A, E any] struct {
	// Method is the affine type's method that encodes: "Compress".
	Method string
	// New returns a's encoding where the library's call leaves it on the
	// heap (the pointer layout), and Kept says how: "the library
	// allocates the bytes".
	New  func(a *A) *E
	Kept string
	// Set sets dst to a's encoding (the slice layout).
	Set func(dst *E, a *A)
}

// AddImpls adds g's constructors of point type typ under scheme.
func (g PointGroup[A, J, C, U]) AddImpls(m map[Key]Impl, typ vocab.Type, scheme vocab.Scheme) {
	key := func(repr vocab.Repr) Key { return Key{Type: typ, Repr: repr, Scheme: scheme} }
	values, v := g.Values(typ), What(typ, scheme)
	raw := typ == vocab.G1 || typ == vocab.G2

	encoded := Vector(func(i int) []byte { return Bytes(g.Uncompressed.New(&values()[i])) })
	how := fmt.Sprintf("set by %s %s's %d-byte uncompressed encoding", g.Decode.Call, v, SizeOf[U]())
	if g.Decode.Note != "" {
		how += " (" + g.Decode.Note + ")"
	}
	Fill[A]{How: how, Prepare: func() {
		encoded()
		if g.Decode.Prepare != nil {
			g.Decode.Prepare()
		}
	}, Set: func(dst *A, i int) bool { return g.Decode.Set(dst, encoded()[i]) }}.Add(m, key(vocab.Affine))

	Fill[J]{How: "set by FromAffine of " + v, Prepare: Prepare(values), Set: func(dst *J, i int) bool {
		g.FromAffine(dst, &values()[i])
		return true
	}}.Add(m, key(vocab.Jacobian))

	if raw && g.RawAffineSlice.Case != nil {
		k := key(vocab.Affine)
		k.Layout = measure.Slice
		m[k] = g.RawAffineSlice
	}
	if raw && g.RawJacobianPointer.Case != nil {
		k := key(vocab.Jacobian)
		k.Layout = measure.Pointer
		m[k] = g.RawJacobianPointer
	}
	addEncoding(m, key(vocab.Compressed), g.Compressed, values, v)
	addEncoding(m, key(vocab.Uncompressed), g.Uncompressed, values, v)
}

// addEncoding adds both layouts of encoding e of values under k.
func addEncoding[A, E any](m map[Key]Impl, k Key, e Encoding[A, E], values func() []A, v string) {
	mustBeByteArray[E]()
	call := "(*" + TypeName[A]() + ")." + e.Method + " of " + v
	k.Layout = measure.Pointer
	m[k] = Made(call+", kept as *"+TypeName[E]()+" ("+e.Kept+")", Prepare(values), func(i int) *E { return e.New(&values()[i]) })
	k.Layout = measure.Slice
	m[k] = Fill[E]{How: "set to a copy of " + call, Prepare: Prepare(values), Set: func(dst *E, i int) bool {
		e.Set(dst, &values()[i])
		return true
	}}.Slice()
}

// PointImpls is a description of one group's points that adds their
// constructors for a point type (PointGroup is one).
type PointImpls interface {
	AddImpls(m map[Key]Impl, typ vocab.Type, scheme vocab.Scheme)
}

// AddPoints adds the constructors of every point type under every scheme
// it is registered under, each from the group its points live in.
func AddPoints(m map[Key]Impl, g1, g2 PointImpls) {
	EachPoint(func(typ vocab.Type, scheme vocab.Scheme, group vocab.Type) {
		g := g1
		if group == vocab.G2 {
			g = g2
		}
		g.AddImpls(m, typ, scheme)
	})
}
