package circl

import (
	"sync"

	bls12381 "github.com/cloudflare/circl/ecc/bls12381"
	"github.com/cloudflare/circl/sign/bls"

	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites/internal/suitekit"
)

// The circl suite's inputs: Distinct real values of each kind, computed
// once per process on first use (cases call them from Prepare, with
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

func keyGen[K bls.KeyGroup]() []*bls.PrivateKey[K] {
	out := make([]*bls.PrivateKey[K], Distinct)
	for i := range out {
		sk, err := bls.KeyGen[K](suitekit.IKM(i), suitekit.KeyGenSalt, nil)
		if err != nil {
			panic("circl suite: KeyGen: " + err.Error())
		}
		out[i] = sk
	}
	return out
}

// SecretKeysMinPk and SecretKeysMinSig return the keys
// bls.KeyGen(suitekit.IKM(i), suitekit.KeyGenSalt, nil) of each scheme
// (the same scalars).
var (
	SecretKeysMinPk  = sync.OnceValue(keyGen[MinPk])
	SecretKeysMinSig = sync.OnceValue(keyGen[MinSig])
)

// SecretKeyBytes returns the 32-byte big-endian encodings of the keys.
var SecretKeyBytes = sync.OnceValue(func() [][]byte {
	out := make([][]byte, Distinct)
	for i, sk := range SecretKeysMinPk() {
		b, err := sk.MarshalBinary()
		if err != nil {
			panic("circl suite: " + err.Error())
		}
		out[i] = b
	}
	return out
})

func publicKeys[K bls.KeyGroup](sks []*bls.PrivateKey[K]) []bls.PublicKey[K] {
	out := make([]bls.PublicKey[K], Distinct)
	for i, sk := range sks {
		out[i] = *sk.PublicKey()
	}
	return out
}

// PublicKeysMinPk returns the min-pk public keys (in G1), and
// PublicKeysMinSig the min-sig ones (in G2).
var (
	PublicKeysMinPk  = sync.OnceValue(func() []bls.PublicKey[MinPk] { return publicKeys(SecretKeysMinPk()) })
	PublicKeysMinSig = sync.OnceValue(func() []bls.PublicKey[MinSig] { return publicKeys(SecretKeysMinSig()) })
)

func sign[K bls.KeyGroup](sks []*bls.PrivateKey[K]) []bls.Signature {
	out := make([]bls.Signature, Distinct)
	for i, sk := range sks {
		out[i] = bls.Sign(sk, suitekit.Message(i))
	}
	return out
}

// SignaturesMinPk returns the min-pk signatures of suitekit.Message(i) by
// key i (compressed G2 points, as bls.Sign returns them), and
// SignaturesMinSig the min-sig ones (compressed G1 points).
var (
	SignaturesMinPk  = sync.OnceValue(func() []bls.Signature { return sign(SecretKeysMinPk()) })
	SignaturesMinSig = sync.OnceValue(func() []bls.Signature { return sign(SecretKeysMinSig()) })
)

// SignaturePointsG2 returns SignaturesMinPk decoded by (*bls12381.G2).SetBytes,
// and SignaturePointsG1 SignaturesMinSig decoded by (*bls12381.G1).SetBytes.
var (
	SignaturePointsG2 = sync.OnceValue(func() []bls12381.G2 {
		out := make([]bls12381.G2, Distinct)
		for i, s := range SignaturesMinPk() {
			if err := out[i].SetBytes(s); err != nil {
				panic("circl suite: decoding a signature: " + err.Error())
			}
		}
		return out
	})
	SignaturePointsG1 = sync.OnceValue(func() []bls12381.G1 {
		out := make([]bls12381.G1, Distinct)
		for i, s := range SignaturesMinSig() {
			if err := out[i].SetBytes(s); err != nil {
				panic("circl suite: decoding a signature: " + err.Error())
			}
		}
		return out
	})
)

// HashedG1 returns the raw G1 elements: (*bls12381.G1).Hash(Message(i),
// DSTMinSig), the same points as blst's HashedG1; HashedG2 the raw G2
// elements hashed with DSTMinPk.
var (
	HashedG1 = sync.OnceValue(func() []bls12381.G1 {
		out := make([]bls12381.G1, Distinct)
		for i := range out {
			out[i].Hash(suitekit.Message(i), DSTMinSig)
		}
		return out
	})
	HashedG2 = sync.OnceValue(func() []bls12381.G2 {
		out := make([]bls12381.G2, Distinct)
		for i := range out {
			out[i].Hash(suitekit.Message(i), DSTMinPk)
		}
		return out
	})
)

// PublicKeyPointsG1 returns the min-pk public keys as bls12381.G1
// points, decoded by SetBytes from their MarshalBinary encoding (circl
// keeps the point of a bls.PublicKey unexported); PublicKeyPointsG2 the
// min-sig ones as G2 points.
var (
	PublicKeyPointsG1 = sync.OnceValue(func() []bls12381.G1 {
		out := make([]bls12381.G1, Distinct)
		for i := range out {
			b, err := PublicKeysMinPk()[i].MarshalBinary()
			if err == nil {
				err = out[i].SetBytes(b)
			}
			if err != nil {
				panic("circl suite: decoding a public key: " + err.Error())
			}
		}
		return out
	})
	PublicKeyPointsG2 = sync.OnceValue(func() []bls12381.G2 {
		out := make([]bls12381.G2, Distinct)
		for i := range out {
			b, err := PublicKeysMinSig()[i].MarshalBinary()
			if err == nil {
				err = out[i].SetBytes(b)
			}
			if err != nil {
				panic("circl suite: decoding a public key: " + err.Error())
			}
		}
		return out
	})
)

// g1Points returns the G1 points of a point type: min-pk public keys,
// min-sig signatures or raw hashed points; g2Points the G2 ones.
func g1Points(typ model.Type) func() []bls12381.G1 {
	switch typ {
	case "PublicKey":
		return PublicKeyPointsG1
	case "Signature":
		return SignaturePointsG1
	}
	return HashedG1
}

func g2Points(typ model.Type) func() []bls12381.G2 {
	switch typ {
	case "PublicKey":
		return PublicKeyPointsG2
	case "Signature":
		return SignaturePointsG2
	}
	return HashedG2
}

// encoder is a circl point's pair of encoders.
type encoder interface {
	Bytes() []byte
	BytesCompressed() []byte
}

// encodings returns a function giving, computed once, the compressed
// (BytesCompressed) or uncompressed (Bytes) encodings of points.
func encodings[P encoder](points func() []P, compressed bool) func() [][]byte {
	return sync.OnceValue(func() [][]byte {
		out := make([][]byte, Distinct)
		for i, p := range points() {
			if compressed {
				out[i] = p.BytesCompressed()
			} else {
				out[i] = p.Bytes()
			}
		}
		return out
	})
}
