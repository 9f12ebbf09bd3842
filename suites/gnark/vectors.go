package gnark

import (
	"bytes"
	"crypto/hkdf"
	"crypto/sha256"
	"math/big"
	"sync"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites/internal/suitekit"
)

// The gnark suite's inputs: Distinct real values of each kind, computed
// once per process on first use (cases call them from Prepare, with
// profiling off). Throughput operations may use them too. The secret keys
// come from the IETF KeyGen of suitekit.IKM(i), as blst's KeyGen makes
// them, so all three suites hold the same keys, public keys and
// signatures.

// Distinct is the number of distinct values of each kind.
const Distinct = suitekit.Distinct

// DSTMinPk and DSTMinSig are the signature DSTs of the min-pk (Ethereum)
// and min-sig schemes.
var (
	DSTMinPk  = suitekit.DSTMinPk
	DSTMinSig = suitekit.DSTMinSig
)

// KeyGen is the IETF BLS KeyGen (draft 04 and later, the one blst.KeyGen
// implements) with an empty key_info: gnark-crypto has none. It returns
// the secret key as an fr.Element.
func KeyGen(ikm []byte) fr.Element {
	salt := []byte("BLS-SIG-KEYGEN-SALT-")
	secret := append(bytes.Clone(ikm), 0)
	const L = 48
	for {
		h := sha256.Sum256(salt)
		salt = h[:]
		okm, err := hkdf.Key(sha256.New, secret, salt, string([]byte{0, L}), L)
		if err != nil {
			panic("gnark suite: hkdf: " + err.Error()) // only for L too large
		}
		var sk fr.Element
		sk.SetBytes(okm) // reduces mod r
		if !sk.IsZero() {
			return sk
		}
	}
}

// SecretKeys returns the keys KeyGen(suitekit.IKM(i)).
var SecretKeys = sync.OnceValue(func() []fr.Element {
	out := make([]fr.Element, Distinct)
	for i := range out {
		out[i] = KeyGen(suitekit.IKM(i))
	}
	return out
})

// SecretKeyBytes returns the 32-byte big-endian encodings of SecretKeys.
var SecretKeyBytes = sync.OnceValue(func() [][]byte {
	out := make([][]byte, Distinct)
	for i := range SecretKeys() {
		b := SecretKeys()[i].Bytes()
		out[i] = b[:]
	}
	return out
})

func bigKey(i int) *big.Int { return SecretKeys()[i].BigInt(new(big.Int)) }

// PublicKeysG1 returns the min-pk public keys sk·g1.
var PublicKeysG1 = sync.OnceValue(func() []bls12381.G1Affine {
	out := make([]bls12381.G1Affine, Distinct)
	for i := range out {
		out[i].ScalarMultiplicationBase(bigKey(i))
	}
	return out
})

// PublicKeysG2 returns the min-sig public keys sk·g2.
var PublicKeysG2 = sync.OnceValue(func() []bls12381.G2Affine {
	out := make([]bls12381.G2Affine, Distinct)
	for i := range out {
		out[i].ScalarMultiplicationBase(bigKey(i))
	}
	return out
})

// SignaturesG2 returns the min-pk signatures sk·HashToG2(Message(i),
// DSTMinPk).
var SignaturesG2 = sync.OnceValue(func() []bls12381.G2Affine {
	out := make([]bls12381.G2Affine, Distinct)
	for i := range out {
		h := HashedG2Affine()[i]
		out[i].ScalarMultiplication(&h, bigKey(i))
	}
	return out
})

// SignaturesG1 returns the min-sig signatures sk·HashToG1(Message(i),
// DSTMinSig).
var SignaturesG1 = sync.OnceValue(func() []bls12381.G1Affine {
	out := make([]bls12381.G1Affine, Distinct)
	for i := range out {
		h := HashedG1Affine()[i]
		out[i].ScalarMultiplication(&h, bigKey(i))
	}
	return out
})

// HashedG1Affine returns the raw G1 elements HashToG1(Message(i),
// DSTMinSig), the same points as blst's HashedG1.
var HashedG1Affine = sync.OnceValue(func() []bls12381.G1Affine {
	out := make([]bls12381.G1Affine, Distinct)
	for i := range out {
		p, err := bls12381.HashToG1(suitekit.Message(i), DSTMinSig)
		if err != nil {
			panic("gnark suite: HashToG1: " + err.Error())
		}
		out[i] = p
	}
	return out
})

// HashedG2Affine returns the raw G2 elements HashToG2(Message(i),
// DSTMinPk).
var HashedG2Affine = sync.OnceValue(func() []bls12381.G2Affine {
	out := make([]bls12381.G2Affine, Distinct)
	for i := range out {
		p, err := bls12381.HashToG2(suitekit.Message(i), DSTMinPk)
		if err != nil {
			panic("gnark suite: HashToG2: " + err.Error())
		}
		out[i] = p
	}
	return out
})

// HashedG1 and HashedG2 are the raw elements in Jacobian coordinates.
var (
	HashedG1 = sync.OnceValue(func() []bls12381.G1Jac {
		out := make([]bls12381.G1Jac, Distinct)
		for i := range out {
			out[i].FromAffine(&HashedG1Affine()[i])
		}
		return out
	})
	HashedG2 = sync.OnceValue(func() []bls12381.G2Jac {
		out := make([]bls12381.G2Jac, Distinct)
		for i := range out {
			out[i].FromAffine(&HashedG2Affine()[i])
		}
		return out
	})
)

// g1Values returns the affine G1 values of a point type: min-pk public
// keys, min-sig signatures or the raw hashed points.
func g1Values(typ model.Type) func() []bls12381.G1Affine {
	switch typ {
	case "PublicKey":
		return PublicKeysG1
	case "Signature":
		return SignaturesG1
	}
	return HashedG1Affine
}

// g2Values is g1Values for G2.
func g2Values(typ model.Type) func() []bls12381.G2Affine {
	switch typ {
	case "PublicKey":
		return PublicKeysG2
	case "Signature":
		return SignaturesG2
	}
	return HashedG2Affine
}

// rawG1 returns a function giving the uncompressed encodings (RawBytes)
// of values, computed once.
func rawG1(values func() []bls12381.G1Affine) func() [][]byte {
	return sync.OnceValue(func() [][]byte {
		out := make([][]byte, Distinct)
		for i := range out {
			b := values()[i].RawBytes()
			out[i] = b[:]
		}
		return out
	})
}

func rawG2(values func() []bls12381.G2Affine) func() [][]byte {
	return sync.OnceValue(func() [][]byte {
		out := make([][]byte, Distinct)
		for i := range out {
			b := values()[i].RawBytes()
			out[i] = b[:]
		}
		return out
	})
}
