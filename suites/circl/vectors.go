package circl

import (
	"bytes"

	bls12381 "github.com/cloudflare/circl/ecc/bls12381"
	"github.com/cloudflare/circl/sign/bls"

	"github.com/memprof/memprof/suites/internal/suitekit"
)

// The circl suite's inputs: Distinct real values of each kind, computed
// (or copied, where suitekit.Encoded keeps them) once per process on
// first use (cases call them from Prepare, with
// profiling off). Throughput operations may use them too. The secret keys
// come from circl's KeyGen with suitekit.KeyGenSalt, which makes the same
// keys as blst's KeyGen, so all three suites hold the same keys, public
// keys and signatures.

// Distinct is the number of distinct values of each kind.
const Distinct = suitekit.Distinct

// DSTMinPk and DSTMinSig are the signature DSTs of the min-pk (Ethereum)
// and min-sig schemes; circl's sign/bls uses the same ones internally.
var (
	DSTMinPk  = suitekit.DSTMinPk
	DSTMinSig = suitekit.DSTMinSig
)

// MinPk and MinSig are circl's names of the two schemes.
type (
	MinPk  = bls.KeyG1SigG2
	MinSig = bls.KeyG2SigG1
)

// keyGen returns key i of scheme K: bls.KeyGen(suitekit.IKM(i),
// suitekit.KeyGenSalt, nil).
func keyGen[K bls.KeyGroup](i int) *bls.PrivateKey[K] {
	sk, err := bls.KeyGen[K](suitekit.IKM(i), suitekit.KeyGenSalt, nil)
	if err != nil {
		panic("circl suite: KeyGen: " + err.Error())
	}
	return sk
}

// SecretKeysMinPk and SecretKeysMinSig return the keys
// bls.KeyGen(suitekit.IKM(i), suitekit.KeyGenSalt, nil) of each scheme
// (the same scalars).
var (
	SecretKeysMinPk  = suitekit.Vector(keyGen[MinPk])
	SecretKeysMinSig = suitekit.Vector(keyGen[MinSig])
)

// SecretKeyBytes returns the 32-byte big-endian encodings of the keys.
var SecretKeyBytes = suitekit.Vector(func(i int) []byte { return must(SecretKeysMinPk()[i].MarshalBinary()) })

// PublicKeysMinPk returns the min-pk public keys (in G1), and
// PublicKeysMinSig the min-sig ones (in G2).
var (
	PublicKeysMinPk  = suitekit.Vector(func(i int) bls.PublicKey[MinPk] { return *SecretKeysMinPk()[i].PublicKey() })
	PublicKeysMinSig = suitekit.Vector(func(i int) bls.PublicKey[MinSig] { return *SecretKeysMinSig()[i].PublicKey() })
)

// SignaturesMinPk returns the min-pk signatures of suitekit.Message(i) by
// key i (compressed G2 points, as bls.Sign returns them), and
// SignaturesMinSig the min-sig ones (compressed G1 points): copies of
// suitekit.Encoded's, which TestEncodedValues checks against bls.Sign.
var (
	SignaturesMinPk  = suitekit.Vector(func(i int) bls.Signature { return bytes.Clone(suitekit.Encoded(suitekit.SignatureG2Compressed, i)) })
	SignaturesMinSig = suitekit.Vector(func(i int) bls.Signature { return bytes.Clone(suitekit.Encoded(suitekit.SignatureG1Compressed, i)) })
)

// SignaturePointsG2 returns SignaturesMinPk decoded by
// (*bls12381.G2).SetBytes, and SignaturePointsG1 SignaturesMinSig decoded
// by (*bls12381.G1).SetBytes.
var (
	SignaturePointsG2 = suitekit.Vector(func(i int) bls12381.G2 { return decoded[bls12381.G2](SignaturesMinPk()[i], nil) })
	SignaturePointsG1 = suitekit.Vector(func(i int) bls12381.G1 { return decoded[bls12381.G1](SignaturesMinSig()[i], nil) })
)

// HashedG1 returns the raw G1 elements: (*bls12381.G1).Hash(Message(i),
// DSTMinSig), the same points as blst's HashedG1; HashedG2 the raw G2
// elements hashed with DSTMinPk.
var (
	HashedG1 = suitekit.Vector(func(i int) (p bls12381.G1) { p.Hash(suitekit.Message(i), DSTMinSig); return })
	HashedG2 = suitekit.Vector(func(i int) (p bls12381.G2) { p.Hash(suitekit.Message(i), DSTMinPk); return })
)

// PublicKeyPointsG1 returns the min-pk public keys as bls12381.G1
// points, decoded by SetBytes from their MarshalBinary encoding (circl
// keeps the point of a bls.PublicKey unexported); PublicKeyPointsG2 the
// min-sig ones as G2 points.
var (
	PublicKeyPointsG1 = suitekit.Vector(func(i int) bls12381.G1 { return decoded[bls12381.G1](PublicKeysMinPk()[i].MarshalBinary()) })
	PublicKeyPointsG2 = suitekit.Vector(func(i int) bls12381.G2 { return decoded[bls12381.G2](PublicKeysMinSig()[i].MarshalBinary()) })
)

// decoded returns the point SetBytes decodes from enc; it panics on an
// error, of the encoding or of SetBytes: the suite's own values decode.
func decoded[P any, PP interface {
	*P
	SetBytes(b []byte) error
}](enc []byte, err error) (p P) {
	if err == nil {
		err = PP(&p).SetBytes(enc)
	}
	if err != nil {
		panic("circl suite: decoding a point: " + err.Error())
	}
	return p
}

// must returns b, or panics with err: encoding the suite's own keys does
// not fail.
func must(b []byte, err error) []byte {
	if err != nil {
		panic("circl suite: " + err.Error())
	}
	return b
}
