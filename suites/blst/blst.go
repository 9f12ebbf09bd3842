//go:build cgo

package blst

import (
	blst "github.com/supranational/blst/bindings/go"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/suitekit"
	"github.com/memprof/memprof/vocab"
)

// entries returns every blst entry of the matrix, with its constructor.
func entries() []suites.Entry {
	return append(suitekit.Entries(lib, blstLacks, vocab.Why{}, blstImpls()), batchEntry())
}

// haveCgo tells the tests which variant made the entries.
const haveCgo = true

// blstImpls returns the constructor of every combination blst offers.
func blstImpls() map[suitekit.Key]suitekit.Impl {
	ikm := suitekit.Vector(suitekit.IKM)
	m := map[suitekit.Key]suitekit.Impl{
		{Type: vocab.SecretKey, Repr: vocab.Scalar, Layout: measure.Pointer}: suitekit.Made(
			"blst.KeyGen of a 32-byte IKM (it attaches a finalizer that zeroes the key)",
			suitekit.Prepare(ikm), func(i int) *blst.SecretKey { return blst.KeyGen(ikm()[i]) }),
		{Type: vocab.SecretKey, Repr: vocab.Scalar, Layout: measure.Slice}: suitekit.Fill[blst.SecretKey]{
			Name: "blst.SecretKey", How: "set by (*blst.SecretKey).Deserialize of 32 big-endian bytes", Prepare: suitekit.Prepare(SecretKeyBytes),
			Set: func(dst *blst.SecretKey, i int) bool { return dst.Deserialize(SecretKeyBytes()[i]) != nil },
		}.Slice(),
	}
	g1 := group[blst.P1Affine, blst.P1, [blst.BLST_P1_COMPRESS_BYTES]byte, [blst.BLST_P1_SERIALIZE_BYTES]byte](
		PublicKeysG1, SignaturesG1, HashedG1, HashedG1Affine, "blst.P1s.ToAffine", func(in []blst.P1) []blst.P1Affine { return blst.P1s(in).ToAffine() })
	g2 := group[blst.P2Affine, blst.P2, [blst.BLST_P2_COMPRESS_BYTES]byte, [blst.BLST_P2_SERIALIZE_BYTES]byte](
		PublicKeysG2, SignaturesG2, HashedG2, HashedG2Affine, "blst.P2s.ToAffine", func(in []blst.P2) []blst.P2Affine { return blst.P2s(in).ToAffine() })
	suitekit.AddPoints(m, g1, g2)
	return m
}

// affinePoint and jacobianPoint are the methods blst's point types of
// one group share: P1Affine and P1 in G1, P2Affine and P2 in G2.
type affinePoint[A any] interface {
	*A
	Deserialize(in []byte) *A
	Compress() []byte
	Serialize() []byte
}

type jacobianPoint[J, A any] interface {
	*J
	FromAffine(pa *A)
	Add(pointIf any) *J
}

// group describes blst's points of one group: A and J its affine and
// Jacobian types, C and U its compressed and uncompressed encodings;
// publicKeys and signatures the values of those types in this group,
// hashed the raw points (Jacobian, as blst's hash-to-curve returns them)
// and hashedAffine the same in affine coordinates; toAffine is blst's
// batch conversion, named batch.
func group[A, J, C, U any, PA affinePoint[A], PJ jacobianPoint[J, A]](publicKeys, signatures func() []A, hashed func() []J, hashedAffine func() []A, batch string, toAffine func([]J) []A) suitekit.PointGroup[A, J, C, U] {
	return suitekit.PointGroup[A, J, C, U]{
		Values: func(typ vocab.Type) func() []A { return suitekit.ValuesOf(typ, publicKeys, signatures, hashedAffine) },
		Decode: suitekit.Decoding[A]{
			Call: "Deserialize of",
			Note: "Uncompress of the compressed encoding keeps the same object but also takes a square root",
			Set:  func(dst *A, enc []byte) bool { return PA(dst).Deserialize(enc) != nil },
		},
		FromAffine: func(dst *J, a *A) { PJ(dst).FromAffine(a) },
		Compressed: suitekit.Encoding[A, C]{
			Method: "Compress", Kept: "the library allocates the bytes",
			New: func(a *A) *C { return suitekit.ArrayOf[C](PA(a).Compress()) },
			Set: func(dst *C, a *A) { copy(suitekit.Bytes(dst), PA(a).Compress()) },
		},
		Uncompressed: suitekit.Encoding[A, U]{
			Method: "Serialize", Kept: "the library allocates the bytes",
			New: func(a *A) *U { return suitekit.ArrayOf[U](PA(a).Serialize()) },
			Set: func(dst *U, a *A) { copy(suitekit.Bytes(dst), PA(a).Serialize()) },
		},
		RawAffineSlice: suitekit.Batch(batch+" of n Jacobian hash-to-curve points (the library allocates the []"+suitekit.TypeName[A]()+")",
			suitekit.Prepare(hashed), func(i int) J { return hashed()[i] }, toAffine),
		RawJacobianPointer: suitekit.Made("(*"+suitekit.TypeName[J]()+").Add of two hash-to-curve points (the library allocates the sum)",
			suitekit.Prepare(hashedAffine), func(i int) *J { return PJ(&hashed()[i]).Add(&hashedAffine()[(i+1)%Distinct]) }),
	}
}
