package gnark

import (
	"bytes"
	"crypto/hkdf"
	"crypto/sha256"
	"fmt"
	"math/big"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/memprof/memprof/suites/internal/suitekit"
)

// The gnark suite's inputs: Distinct real values of each kind, computed
// (or decoded, where suitekit.Encoded keeps them) once per process on
// first use (cases call them from Prepare, with
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

// SecretKeys returns the keys KeyGen(suitekit.IKM(i)), and
// SecretKeyBytes their 32-byte big-endian encodings.
var (
	SecretKeys     = suitekit.Vector(func(i int) fr.Element { return KeyGen(suitekit.IKM(i)) })
	SecretKeyBytes = suitekit.Vector(func(i int) []byte { b := SecretKeys()[i].Bytes(); return b[:] })
)

func bigKey(i int) *big.Int { return SecretKeys()[i].BigInt(new(big.Int)) }

// PublicKeysG1 returns the min-pk public keys sk·g1, PublicKeysG2 the
// min-sig ones sk·g2, SignaturesG2 the min-pk signatures
// sk·HashToG2(Message(i), DSTMinPk) and SignaturesG1 the min-sig ones
// sk·HashToG1(Message(i), DSTMinSig): decoded from suitekit.Encoded, which
// TestEncodedValues checks against what gnark-crypto computes.
var (
	PublicKeysG1 = suitekit.Vector(func(i int) (p bls12381.G1Affine) { decodeEncoded(suitekit.PublicKeyG1, i, &p); return })
	PublicKeysG2 = suitekit.Vector(func(i int) (p bls12381.G2Affine) { decodeEncoded(suitekit.PublicKeyG2, i, &p); return })
	SignaturesG2 = suitekit.Vector(func(i int) (p bls12381.G2Affine) { decodeEncoded(suitekit.SignatureG2, i, &p); return })
	SignaturesG1 = suitekit.Vector(func(i int) (p bls12381.G1Affine) { decodeEncoded(suitekit.SignatureG1, i, &p); return })
)

// decodeEncoded decodes value i of kind k into p, without the subgroup check
// (the embedded file is the program's own and TestEncodedValues checks
// it); a value that is not a point of the curve panics.
func decodeEncoded(k suitekit.EncodedKind, i int, p any) {
	dec := bls12381.NewDecoder(bytes.NewReader(suitekit.Encoded(k, i)), bls12381.NoSubgroupChecks())
	if err := dec.Decode(p); err != nil {
		panic(fmt.Sprintf("gnark suite: encoded value %d of kind %d: %v", i, k, err))
	}
}

// HashedG1Affine returns the raw G1 elements HashToG1(Message(i),
// DSTMinSig), the same points as blst's HashedG1, and HashedG2Affine the
// raw G2 elements HashToG2(Message(i), DSTMinPk); HashedG1 and HashedG2
// are the same points in Jacobian coordinates.
var (
	HashedG1Affine = suitekit.Vector(func(i int) bls12381.G1Affine { return must(bls12381.HashToG1(suitekit.Message(i), DSTMinSig)) })
	HashedG2Affine = suitekit.Vector(func(i int) bls12381.G2Affine { return must(bls12381.HashToG2(suitekit.Message(i), DSTMinPk)) })
	HashedG1       = suitekit.Vector(func(i int) (p bls12381.G1Jac) { return *p.FromAffine(&HashedG1Affine()[i]) })
	HashedG2       = suitekit.Vector(func(i int) (p bls12381.G2Jac) { return *p.FromAffine(&HashedG2Affine()[i]) })
)

// must returns p, or panics with err: hashing to the curve fails only on
// a DST longer than 255 bytes.
func must[P any](p P, err error) P {
	if err != nil {
		panic("gnark suite: hash to curve: " + err.Error())
	}
	return p
}
