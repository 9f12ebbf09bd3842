package bn254kit

import (
	"reflect"
	"unsafe"

	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
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
func WrapperLacks(lib model.Lib) func(model.Type, model.Repr) model.Why {
	return func(typ model.Type, repr model.Repr) model.Why {
		switch repr {
		case model.Affine, model.Jacobian:
			return suites.NotOffered(lib, "the points are a struct holding a pointer to the library's own point (x, y, z, t, unexported): there is no %s type", repr)
		case model.Compressed:
			return suites.NotOffered(lib, "Marshal writes the EIP-196/197 form only")
		case model.Prepared:
			return suites.NotOffered(lib, "PairingCheck computes each G2 point's lines anew; no prepared form is exported")
		}
		return model.Why{}
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
