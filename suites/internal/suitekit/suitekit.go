// Package suitekit is what the three library suites (suites/blst,
// suites/gnark, suites/circl) share: the instance matrix they must cover,
// the reasons a combination does not apply, the deterministic inputs that
// make their values identical across libraries, and the builders of
// pointer- and slice-layout cases, among them PointGroup, which makes
// every constructor of a curve group from one description (points.go).
//
// A suite describes only what its library lacks and how it makes each
// available combination; Entries turns that into one suites.Entry per
// combination of the matrix, available or not, and panics if the suite's
// constructors and the matrix disagree, so no combination can be dropped
// silently.
package suitekit

import (
	"crypto/sha256"
	"strconv"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// The instance matrix every suite covers. The registry knows more names
// (scenarios, the collection layout); these are the built-in instance
// cases.
var (
	Types   = vocab.ObjectTypes
	Reprs   = []vocab.Repr{vocab.Scalar, vocab.Affine, vocab.Jacobian, vocab.Projective, vocab.Compressed, vocab.Uncompressed}
	Layouts = []measure.Layout{measure.Pointer, measure.Slice}
)

// Key is one combination of the matrix: a results.Key without a library.
// Scheme is min-pk or min-sig for PublicKey and Signature, "" for the
// other types.
type Key = results.Key

// SchemesOf returns the schemes type typ is registered under: both for
// PublicKey and Signature, whose group the scheme decides, and "" alone
// for the others.
func SchemesOf(typ vocab.Type) []vocab.Scheme {
	if typ.HasScheme() {
		return vocab.Schemes
	}
	return []vocab.Scheme{""}
}

// Keys returns every combination of the matrix, in matrix order.
func Keys() []Key {
	var out []Key
	for _, t := range Types {
		for _, r := range Reprs {
			for _, l := range Layouts {
				for _, s := range SchemesOf(t) {
					out = append(out, Key{Type: t, Repr: r, Layout: l, Scheme: s})
				}
			}
		}
	}
	return out
}

// Group names the curve group of a point type under a scheme: "G1" or
// "G2". It is "" for SecretKey.
func Group(typ vocab.Type, scheme vocab.Scheme) vocab.Type {
	switch {
	case typ == vocab.G1 || typ == vocab.G2:
		return typ
	case typ == vocab.PublicKey && scheme == vocab.MinPk, typ == vocab.Signature && scheme == vocab.MinSig:
		return vocab.G1
	case typ.HasScheme():
		return vocab.G2
	}
	return ""
}

// NotApplicable says why repr does not apply to typ in any library, or ""
// when it does: a secret key is a scalar with one 32-byte encoding, every
// other type a curve point.
func NotApplicable(typ vocab.Type, repr vocab.Repr) vocab.Why {
	switch {
	case typ == vocab.SecretKey && (repr == vocab.Compressed || repr == vocab.Uncompressed):
		return vocab.Because(vocab.DoesNotApply, "does not apply: a secret key has one 32-byte big-endian encoding; compressed and uncompressed are curve-point encodings")
	case typ == vocab.SecretKey && repr != vocab.Scalar:
		return vocab.Because(vocab.DoesNotApply, "does not apply: a secret key is a scalar, not a curve point, so it has no %s coordinates", repr)
	case typ != vocab.SecretKey && repr == vocab.Scalar:
		return vocab.Because(vocab.DoesNotApply, "does not apply: a %s is a curve point; the scalar representation is the SecretKey's", typ)
	}
	return vocab.Why{}
}

// Impl is how a suite makes one available combination.
type Impl struct {
	// Constructor is a short, honest sentence of how one instance is made.
	Constructor string
	// SizeHint is unsafe.Sizeof of the representation.
	SizeHint uintptr
	// Case builds the case; called only when the entry is measured.
	Case func() memprof.Case
}

// Entries returns lib's entries, one per Key of the matrix. A key gets,
// in this order: the NotApplicable reason; the reason lacks gives (the
// library has no such representation); build when it is not zero (this
// build cannot run the library at all); otherwise impls[key]. It panics
// when an available key has no Impl or an Impl's key is not available:
// the suite's table and its constructors have drifted apart.
func Entries(lib vocab.Lib, lacks func(Key) vocab.Why, build vocab.Why, impls map[Key]Impl) []suites.Entry {
	return suites.EntriesOf("suites/"+string(lib), Keys(),
		func(k Key) suites.Entry {
			e := suites.Entry{Key: k}
			e.Lib = lib
			return e
		},
		func(k Key) vocab.Why {
			if why := NotApplicable(k.Type, k.Repr); !why.IsZero() {
				return why
			}
			if why := lacks(k); !why.IsZero() {
				return why
			}
			return build
		},
		impls, func(e *suites.Entry, im Impl) {
			e.Constructor, e.SizeHint, e.Case = im.Constructor, im.SizeHint, im.Case
		})
}

// Distinct is how many distinct real values a suite computes for each
// kind of object; instance i is made from value i%Distinct, so that
// construction stays cheap at large N while every instance is a real
// object made by a real library call.
const Distinct = 64

// IKM returns the 32 bytes of input keying material of key i:
// SHA-256("memprof ikm <i>"). The three suites derive the same secret keys
// from it (IETF KeyGen), hence the same public keys and signatures.
func IKM(i int) []byte {
	h := sha256.Sum256([]byte("memprof ikm " + strconv.Itoa(i)))
	return h[:]
}

// Message returns message i: "memprof message <i>".
func Message(i int) []byte {
	return []byte("memprof message " + strconv.Itoa(i))
}

// Domain separation tags of the basic BLS scheme (IETF
// draft-irtf-cfrg-bls-signature, ciphersuites _NUL_).
var (
	// DSTMinPk hashes messages to G2: public keys in G1, signatures in G2,
	// as Ethereum does.
	DSTMinPk = []byte("BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_")
	// DSTMinSig hashes messages to G1: public keys in G2, signatures in G1.
	DSTMinSig = []byte("BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_")
)

// KeyGenSalt is the initial salt of IETF KeyGen (draft 04 and later):
// SHA-256("BLS-SIG-KEYGEN-SALT-"). blst's KeyGen uses it; circl's KeyGen
// takes it as its salt argument.
var KeyGenSalt = func() []byte {
	h := sha256.Sum256([]byte("BLS-SIG-KEYGEN-SALT-"))
	return h[:]
}()

// PointerCase is a pointer-layout case: New(i) returns newInstance(i %
// Distinct), each instance its own heap object as the library's
// constructor makes it. prepare, if not nil, computes the input values
// (profiling is off then).
func PointerCase[T any](prepare func(), newInstance func(i int) *T) memprof.Case {
	return memprof.Case{
		Prepare: prepareFunc(prepare, nil),
		New:     func(i int) any { return newInstance(i % Distinct) },
	}
}

// SliceCase is a slice-layout case: NewSlice(n) makes one []T of n
// elements and fills element i with fill(&s[i], i % Distinct).
func SliceCase[T any](prepare func(), fill func(dst *T, i int)) memprof.Case {
	return memprof.Case{
		Prepare: prepareFunc(prepare, nil),
		NewSlice: func(n int) any {
			s := make([]T, n)
			for i := range s {
				fill(&s[i], i%Distinct)
			}
			return s
		},
	}
}

// BatchSliceCase is a slice-layout case whose slice the library itself
// allocates in one batch call: prepareN(n) builds the inputs for up to n
// instances, and batch(n) returns the library's []T of n instances.
func BatchSliceCase[T any](prepare func(), prepareN func(n int), batch func(n int) []T) memprof.Case {
	return memprof.Case{
		Prepare:  prepareFunc(prepare, prepareN),
		NewSlice: func(n int) any { return batch(n) },
	}
}

func prepareFunc(prepare func(), prepareN func(int)) func(int) error {
	return func(n int) error {
		if prepare != nil {
			prepare()
		}
		if prepareN != nil {
			prepareN(n)
		}
		return nil
	}
}

// PointTypes are the types that are curve points.
var PointTypes = []vocab.Type{vocab.PublicKey, vocab.Signature, vocab.G1, vocab.G2}

// EachPoint calls add for every point type and scheme it is registered
// under, with the group (G1 or G2) its points live in.
func EachPoint(add func(typ vocab.Type, scheme vocab.Scheme, group vocab.Type)) {
	for _, t := range PointTypes {
		for _, s := range SchemesOf(t) {
			add(t, s, Group(t, s))
		}
	}
}

// Prepare turns a vector accessor (a sync.OnceValue) into a Prepare step
// that computes the vectors before anything is measured.
func Prepare[T any](f func() T) func() { return func() { f() } }
