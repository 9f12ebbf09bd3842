//go:build cgo

package blst

import (
	"fmt"

	blst "github.com/supranational/blst/bindings/go"

	"github.com/memprof/memprof/suites/internal/suitekit"
)

// The blst suite's inputs: Distinct real values of each kind, computed
// (or decoded, where suitekit.Encoded keeps them) once per process on
// first use (cases call them from Prepare, with
// profiling off). Throughput operations may use them too. The keys are
// those of suitekit.IKM, so gnark and circl compute the same values.

// Distinct is the number of distinct values of each kind.
const Distinct = suitekit.Distinct

// DSTMinPk and DSTMinSig are the signature DSTs of the min-pk (Ethereum)
// and min-sig schemes.
var (
	DSTMinPk  = suitekit.DSTMinPk
	DSTMinSig = suitekit.DSTMinSig
)

// SecretKeys returns the keys blst.KeyGen(suitekit.IKM(i)), and
// SecretKeyBytes their 32-byte big-endian encodings.
var (
	SecretKeys     = suitekit.Vector(func(i int) *blst.SecretKey { return blst.KeyGen(suitekit.IKM(i)) })
	SecretKeyBytes = suitekit.Vector(func(i int) []byte { return SecretKeys()[i].Serialize() })
)

// PublicKeysG1 returns the min-pk public keys sk·g1, PublicKeysG2 the
// min-sig ones sk·g2, SignaturesG2 the min-pk signatures of
// suitekit.Message(i) by key i (DSTMinPk), and SignaturesG1 the min-sig
// ones (DSTMinSig): decoded from suitekit.Encoded, which TestEncodedValues
// checks against what blst computes.
var (
	PublicKeysG1 = suitekit.Vector(func(i int) blst.P1Affine { return decodeG1(suitekit.PublicKeyG1, i) })
	PublicKeysG2 = suitekit.Vector(func(i int) blst.P2Affine { return decodeG2(suitekit.PublicKeyG2, i) })
	SignaturesG2 = suitekit.Vector(func(i int) blst.P2Affine { return decodeG2(suitekit.SignatureG2, i) })
	SignaturesG1 = suitekit.Vector(func(i int) blst.P1Affine { return decodeG1(suitekit.SignatureG1, i) })
)

// decodeG1 and decodeG2 decode value i of kind k; a value that is not a
// point of the curve panics (the embedded file is the program's own).
func decodeG1(k suitekit.EncodedKind, i int) (p blst.P1Affine) {
	if p.Deserialize(suitekit.Encoded(k, i)) == nil {
		panic(fmt.Sprintf("blst: encoded value %d of kind %d is not a G1 point", i, k))
	}
	return p
}

func decodeG2(k suitekit.EncodedKind, i int) (p blst.P2Affine) {
	if p.Deserialize(suitekit.Encoded(k, i)) == nil {
		panic(fmt.Sprintf("blst: encoded value %d of kind %d is not a G2 point", i, k))
	}
	return p
}

// HashedG1 returns the raw G1 elements blst.HashToG1(Message(i),
// DSTMinSig), and HashedG2 the raw G2 elements blst.HashToG2(Message(i),
// DSTMinPk), in Jacobian coordinates as blst returns them; HashedG1Affine
// and HashedG2Affine are the same points in affine coordinates.
var (
	HashedG1       = suitekit.Vector(func(i int) blst.P1 { return *blst.HashToG1(suitekit.Message(i), DSTMinSig) })
	HashedG2       = suitekit.Vector(func(i int) blst.P2 { return *blst.HashToG2(suitekit.Message(i), DSTMinPk) })
	HashedG1Affine = suitekit.Vector(func(i int) blst.P1Affine { return *HashedG1()[i].ToAffine() })
	HashedG2Affine = suitekit.Vector(func(i int) blst.P2Affine { return *HashedG2()[i].ToAffine() })
)
