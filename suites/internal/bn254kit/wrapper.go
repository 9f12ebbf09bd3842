package bn254kit

import (
	"fmt"
	"math/big"
	"reflect"
	"strings"
	"unsafe"

	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// The helpers of go-ethereum's bn256-cloudflare and bn256-google, whose
// points are a wrapper struct around a pointer to a hidden point.

// WrapperSize is unsafe.Sizeof of a wrapper W (its one pointer).
func WrapperSize[W any]() uintptr {
	var w W
	return unsafe.Sizeof(w)
}

// HiddenSize is the size of the object a wrapper W's first field points
// to (cloudflare's curvePoint, google's twistPoint), read from the type.
func HiddenSize[W any]() uintptr {
	return reflect.TypeFor[W]().Field(0).Type.Elem().Size()
}

// WrapperLacks is the Lacks of a library whose points are wrappers
// around a hidden point: no affine or Jacobian type, no compressed
// encoding, no prepared G2 point.
func WrapperLacks(lib vocab.Lib) func(vocab.Type, vocab.Repr) vocab.Why {
	return func(typ vocab.Type, repr vocab.Repr) vocab.Why {
		switch repr {
		case vocab.Affine, vocab.Jacobian:
			return suites.NotOffered(lib, "the points are a struct holding a pointer to the library's own point (x, y, z, t, unexported): there is no %s type", repr)
		case vocab.Compressed:
			return suites.NotOffered(lib, "Marshal writes the EIP-196/197 form only")
		case vocab.Prepared:
			return suites.NotOffered(lib, "PairingCheck computes each G2 point's lines anew; no prepared form is exported")
		}
		return vocab.Why{}
	}
}

// Pointers returns pointers to the elements of ps, as go-ethereum's
// PairingCheck takes its points.
func Pointers[P any](ps []P) []*P {
	out := make([]*P, len(ps))
	for i := range ps {
		out[i] = &ps[i]
	}
	return out
}

// GethPoint is what go-ethereum's cloudflare and google points, of either
// group, have: a wrapper type W with the same methods.
type GethPoint[W any] interface {
	*W
	Unmarshal(m []byte) ([]byte, error)
	Marshal() []byte
	Add(a, b *W) *W
	ScalarMult(a *W, k *big.Int) *W
}

// Wrapper describes one group of a go-ethereum package whose points are
// wrappers around a hidden point, for WrapperGroup.
type Wrapper struct {
	Type vocab.Type
	Name string // "bn256.G1"
	// Holds says what one point keeps (see Group.Holds).
	Holds string
	// Checks says what Unmarshal checks, before "; the zero bytes the
	// point at infinity".
	Checks string
	// AddNote and ScalarMulNote complete the sentences of Add and
	// ScalarMult: "(math/big arithmetic)".
	AddNote, ScalarMulNote string
}

// WrapperGroup is the Group of the wrapper type W: decoded by Unmarshal,
// encoded by Marshal, with Add and ScalarMult. Copy and DefaultN are the
// caller's to set.
func WrapperGroup[W any, PW GethPoint[W]](w Wrapper) *Group[W] {
	method := "(*" + w.Name[strings.LastIndex(w.Name, ".")+1:] + ")."
	size := G1Size
	if w.Type == vocab.BN254G2 {
		size = G2Size
	}
	unmarshal := func(p *W, enc []byte) error { _, err := PW(p).Unmarshal(enc); return err }
	return &Group[W]{
		Type: w.Type, Repr: vocab.Decoded, Name: w.Name, Holds: w.Holds,
		Unmarshal: suites.Offer(fmt.Sprintf("%s; %d zero bytes the point at infinity", w.Checks, size), unmarshal).Via("Unmarshal"),
		Marshal: suites.Offer(fmt.Sprintf("%sMarshal: converts the point to affine in place, allocates the %d bytes", method, size),
			func(p *W) []byte { return PW(p).Marshal() }).Via("Marshal"),
		MarshalKept: "the library allocates the slice",
		Add:         suites.Offer(strings.TrimSpace(method+"Add "+w.AddNote), func(dst, a, b *W) { PW(dst).Add(a, b) }).Via("Add"),
		ScalarMul: suites.Offer(strings.TrimSpace(method+"ScalarMult "+w.ScalarMulNote),
			func(dst, a *W, k *big.Int) { PW(dst).ScalarMult(a, k) }).Via("ScalarMult"),
		Values: DecodedPoints(w.Type, w.Name, unmarshal),
	}
}

// WrapperCurve is the description of go-ethereum's cloudflare or google
// package: its groups, PairingCheck (described by pairing) and what a
// wrapper package lacks, multi-scalar multiplication among it.
func WrapperCurve[G1, G2 any](lib vocab.Lib, g1 *Group[G1], g2 *Group[G2], pairing string, check func([]*G1, []*G2) bool) Curve[G1, G2] {
	return Curve[G1, G2]{
		Lib: lib, G1: g1, G2: g2,
		Pairing: suites.Offer(pairing,
			func(g1s []G1, g2s []G2) func() (bool, error) {
				a, b := Pointers(g1s), Pointers(g2s)
				return func() (bool, error) { return check(a, b), nil }
			}).Via("PairingCheck"),
		Lacks:    WrapperLacks(lib),
		MSMLacks: suites.NotOffered(lib, "no multi-scalar multiplication"),
	}
}
