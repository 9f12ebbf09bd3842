package circl

import (
	"fmt"

	bls12381 "github.com/cloudflare/circl/ecc/bls12381"
	"github.com/cloudflare/circl/sign/bls"

	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/suitekit"
	"github.com/memprof/memprof/vocab"
)

// lib is the library name in the registry.
const lib = vocab.Circl

// Module is circl's module path, whose version results record.
const Module = "github.com/cloudflare/circl"

// Suite returns circl's instance entries, operations and agreement
// library.
func Suite() suites.Suite {
	return suites.Suite{
		Name:    string(lib),
		Modules: []string{Module},
		Entries: suitekit.Entries(lib, circlLacks, vocab.Why{}, circlImpls()),
		Ops:     operations(),
		Agree:   []suites.AgreeLib{agreeLib()},
	}
}

// circlLacks says why circl has no such representation, or nothing.
func circlLacks(k suitekit.Key) vocab.Why {
	switch k.Repr {
	case vocab.Affine:
		return vocab.Because(vocab.NotOffered, "circl has no affine point type: ecc/bls12381 G1/G2 are homogeneous projective (X:Y:Z), affine only inside its encoders")
	case vocab.Jacobian:
		return vocab.Because(vocab.NotOffered, "circl has no Jacobian point type: ecc/bls12381 G1/G2 are homogeneous projective (x = X/Z, y = Y/Z)")
	}
	return vocab.Why{}
}

// circlImpls returns the constructor of every combination circl offers.
func circlImpls() map[suitekit.Key]suitekit.Impl {
	m := map[suitekit.Key]suitekit.Impl{}
	suitekit.Fill[bls.PrivateKey[MinPk]]{
		Name:    "bls.PrivateKey[KeyG1SigG2]",
		How:     "set by UnmarshalBinary of a bls.KeyGen key (bls.KeyGen makes the same one object, but only after its HKDF steps, which allocate temporaries)",
		Prepare: suitekit.Prepare(SecretKeyBytes),
		Set:     func(dst *bls.PrivateKey[MinPk], i int) bool { return dst.UnmarshalBinary(SecretKeyBytes()[i]) == nil },
	}.Add(m, suitekit.Key{Type: vocab.SecretKey, Repr: vocab.Scalar})
	suitekit.AddPoints(m, g1, g2)
	return m
}

// g1 and g2 describe circl's points of each group.
var (
	g1 = group[bls12381.G1, MinPk, [bls12381.G1SizeCompressed]byte, [bls12381.G1Size]byte, *bls12381.G1]{
		"bls.PublicKey[KeyG1SigG2]", PublicKeysMinPk, PublicKeyPointsG1, SignaturePointsG1, HashedG1}
	g2 = group[bls12381.G2, MinSig, [bls12381.G2SizeCompressed]byte, [bls12381.G2Size]byte, *bls12381.G2]{
		"bls.PublicKey[KeyG2SigG1]", PublicKeysMinSig, PublicKeyPointsG2, SignaturePointsG2, HashedG2}
)

// point is the methods circl's point types, G1 and G2, share.
type point[P any] interface {
	*P
	Add(P, Q *P)
	Bytes() []byte
	BytesCompressed() []byte
	SetBytes(b []byte) error
}

// group describes circl's points of one group, P (bls12381.G1 or G2),
// with C and U its compressed and uncompressed encodings: publicKeys are
// the public keys in this group, of type keyType (circl's own key type,
// whose point is unexported), keyPoints the same keys as P values,
// signatures the signatures in this group and hashed the raw points.
type group[P any, K bls.KeyGroup, C, U any, PP point[P]] struct {
	keyType                       string
	publicKeys                    func() []bls.PublicKey[K]
	keyPoints, signatures, hashed func() []P
}

// points returns the P values of a point type.
func (g group[P, K, C, U, PP]) points(typ vocab.Type) func() []P {
	return suitekit.ValuesOf(typ, g.keyPoints, g.signatures, g.hashed)
}

// AddImpls adds g's constructors of point type typ under scheme: the
// projective point in both layouts, and its two encodings. The real
// constructors of keys, signatures and encodings decode or encode with a
// subgroup check or a field inversion per call; the instances are copies
// of values they made in Prepare, the same objects
// (TestCopiesAllocateLikeTheRealConstructor).
func (g group[P, K, C, U, PP]) AddImpls(m map[suitekit.Key]suitekit.Impl, typ vocab.Type, scheme vocab.Scheme) {
	k := suitekit.Key{Type: typ, Repr: vocab.Projective, Scheme: scheme}
	switch typ {
	case vocab.PublicKey:
		suitekit.Fill[bls.PublicKey[K]]{
			Name: g.keyType, How: "set to a copy of a real key (UnmarshalBinary makes the same one object but also checks the subgroup)",
			Prepare: suitekit.Prepare(g.publicKeys), Set: suitekit.CopyOf(g.publicKeys),
		}.Add(m, k)
	case vocab.Signature:
		suitekit.Fill[P]{
			How:     "set to a copy of a signature decoded by SetBytes (which makes the same one object but also checks the subgroup)",
			Prepare: suitekit.Prepare(g.signatures), Set: suitekit.CopyOf(g.signatures),
		}.Add(m, k)
	default:
		suitekit.Fill[P]{
			How:     "set by (*" + suitekit.TypeName[P]() + ").Add of two hash-to-curve points",
			Prepare: suitekit.Prepare(g.hashed),
			Set:     func(dst *P, i int) bool { PP(dst).Add(&g.hashed()[i], &g.hashed()[(i+1)%Distinct]); return true },
		}.Add(m, k)
	}
	v, points := suitekit.What(typ, scheme), g.points(typ)
	k.Repr = vocab.Compressed
	addEncoding(m, k, "(*"+suitekit.TypeName[P]()+").BytesCompressed of "+v,
		suitekit.Vector(func(i int) C { return *suitekit.ArrayOf[C](PP(&points()[i]).BytesCompressed()) }))
	k.Repr = vocab.Uncompressed
	addEncoding(m, k, "(*"+suitekit.TypeName[P]()+").Bytes of "+v,
		suitekit.Vector(func(i int) U { return *suitekit.ArrayOf[U](PP(&points()[i]).Bytes()) }))
}

// addEncoding adds both layouts of an encoding E under k: copies of the
// encodings call made in Prepare. The call allocates one slice as long as
// E; it first converts the point to affine coordinates, a field
// inversion.
func addEncoding[E any](m map[suitekit.Key]suitekit.Impl, k suitekit.Key, call string, encodings func() []E) {
	suitekit.Fill[E]{
		How:     fmt.Sprintf("set to a copy of %s, encoded in Prepare (the call allocates one %d-byte slice, the same object, but first converts the point to affine coordinates: a field inversion)", call, suitekit.SizeOf[E]()),
		Prepare: suitekit.Prepare(encodings), Set: suitekit.CopyOf(encodings),
	}.Add(m, k)
}
