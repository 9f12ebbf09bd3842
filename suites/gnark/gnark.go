package gnark

import (
	"bytes"
	"sync"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/suitekit"
	"github.com/memprof/memprof/vocab"
)

// lib is the library name in the registry.
const lib = vocab.Gnark

// Module is gnark-crypto's module path, whose version results record.
const Module = "github.com/consensys/gnark-crypto"

// Suite returns gnark-crypto's instance entries, operations and agreement
// library.
func Suite() suites.Suite {
	ops := operations()
	return suites.Suite{
		Name:    string(lib),
		Modules: []string{Module},
		Entries: append(suitekit.Entries(lib, gnarkLacks, vocab.Why{}, gnarkImpls()), preparedEntry()),
		Ops:     append(ops, suites.ConversionAliases(ops)...),
		Agree:   []suites.AgreeLib{agreeLib()},
	}
}

// gnarkLacks says why gnark-crypto has no such representation, or
// nothing.
func gnarkLacks(k suitekit.Key) vocab.Why {
	if k.Repr == vocab.Projective {
		return vocab.Because(vocab.NotOffered, "gnark-crypto has no exported homogeneous projective point type: G1Jac/G2Jac are Jacobian; g1JacExtended and g2Proj are unexported")
	}
	return vocab.Why{}
}

// gnarkImpls returns the constructor of every combination gnark offers.
func gnarkImpls() map[suitekit.Key]suitekit.Impl {
	m := map[suitekit.Key]suitekit.Impl{}
	suitekit.Fill[fr.Element]{
		How:     "set by SetBytesCanonical of a 32-byte big-endian key from the IETF KeyGen (gnark-crypto has no KeyGen)",
		Prepare: suitekit.Prepare(SecretKeyBytes),
		Set:     func(dst *fr.Element, i int) bool { return dst.SetBytesCanonical(SecretKeyBytes()[i]) == nil },
	}.Add(m, suitekit.Key{Type: vocab.SecretKey, Repr: vocab.Scalar})
	g1 := group[bls12381.G1Affine, bls12381.G1Jac, [bls12381.SizeOfG1AffineCompressed]byte, [bls12381.SizeOfG1AffineUncompressed]byte](
		PublicKeysG1, SignaturesG1, HashedG1Affine, suitekit.Batch(
			"bls12381.BatchJacobianToAffineG1 of n Jacobian hash-to-curve points (the library allocates the []bls12381.G1Affine)",
			suitekit.Prepare(HashedG1), func(i int) bls12381.G1Jac { return HashedG1()[i] }, bls12381.BatchJacobianToAffineG1))
	// gnark-crypto has no batch conversion to affine in G2.
	g2 := group[bls12381.G2Affine, bls12381.G2Jac, [bls12381.SizeOfG2AffineCompressed]byte, [bls12381.SizeOfG2AffineUncompressed]byte](
		PublicKeysG2, SignaturesG2, HashedG2Affine, suitekit.Impl{})
	suitekit.AddPoints(m, g1, g2)
	return m
}

// affinePoint and jacobianPoint are the methods gnark's point types of one
// group share: G1Affine and G1Jac in G1, G2Affine and G2Jac in G2; C and U
// are the group's compressed and uncompressed encodings.
type affinePoint[A, C, U any] interface {
	*A
	Bytes() C
	RawBytes() U
}

type jacobianPoint[J, A any] interface {
	*J
	FromAffine(a *A) *J
}

// group describes gnark's points of one group: A and J its affine and
// Jacobian types, C and U its encodings; publicKeys and signatures the
// values of those types in this group, hashed the raw points; batch, if
// its Case is set, makes the raw type's affine slice.
func group[A, J, C, U any, PA affinePoint[A, C, U], PJ jacobianPoint[J, A]](publicKeys, signatures, hashed func() []A, batch suitekit.Impl) suitekit.PointGroup[A, J, C, U] {
	return suitekit.PointGroup[A, J, C, U]{
		Values: func(typ vocab.Type) func() []A { return suitekit.ValuesOf(typ, publicKeys, signatures, hashed) },
		Decode: suitekit.Decoding[A]{
			Call:    "a reused Decoder (NoSubgroupChecks) decoding",
			Note:    "SetBytes keeps the same object but always checks the subgroup",
			Prepare: warmDecoder,
			Set:     func(dst *A, enc []byte) bool { return decode(dst, enc) },
		},
		FromAffine: func(dst *J, a *A) { PJ(dst).FromAffine(a) },
		Compressed: suitekit.Encoding[A, C]{
			Method: "Bytes", Kept: "returned by value, moved to the heap",
			New: func(a *A) *C { b := PA(a).Bytes(); return &b },
			Set: func(dst *C, a *A) { *dst = PA(a).Bytes() },
		},
		Uncompressed: suitekit.Encoding[A, U]{
			Method: "RawBytes", Kept: "returned by value, moved to the heap",
			New: func(a *A) *U { b := PA(a).RawBytes(); return &b },
			Set: func(dst *U, a *A) { *dst = PA(a).RawBytes() },
		},
		RawAffineSlice: batch,
	}
}

// Decoder.Decode asserts its argument to io.ReaderFrom. The runtime
// caches the answer per call site, but builds that cache on a random
// ~1/1024 of the misses, allocating it on the heap inside Decode: left to
// chance it would be charged once to the instances of the measured pass.
// warmDecoder makes enough misses before measuring (from Prepare) that
// the cache holds both point types (the chance it does not is below
// 1e-9). The assertion comes before Decode reads anything, so a decode of
// no bytes makes the same miss at a fraction of a point's cost (it stops
// at the end of its input).
var warmDecoder = sync.OnceFunc(func() {
	var p1 bls12381.G1Affine
	var p2 bls12381.G2Affine
	for range warmDecodes {
		decode(&p1, nil)
		decode(&p2, nil)
	}
})

// warmDecodes is how many misses of each point type warmDecoder makes.
const warmDecodes = 40_000

// pointDecoder is one gnark Decoder without subgroup checks, reused for
// every point as a program reading a stream of points would: decode
// points its reader at the next encoding. Cases run one at a time
// (instances are made sequentially), so sharing it is safe.
var pointDecoder = sync.OnceValues(func() (*bytes.Reader, *bls12381.Decoder) {
	r := bytes.NewReader(nil)
	return r, bls12381.NewDecoder(r, bls12381.NoSubgroupChecks())
})

// decode sets dst, a *G1Affine or *G2Affine, from an encoding with the
// shared Decoder, reporting whether it succeeded.
func decode[A any](dst *A, enc []byte) bool {
	r, dec := pointDecoder()
	r.Reset(enc)
	return dec.Decode(dst) == nil
}
