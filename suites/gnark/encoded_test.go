package gnark

import (
	"testing"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
)

// TestEncodedValues: the public keys and signatures the suite decodes
// from suitekit's encoded.bin are those gnark-crypto computes from the
// same keys and messages (suites/blst's test of the same name checks the
// file against blst's).
func TestEncodedValues(t *testing.T) {
	for i := range Distinct {
		pk1, pk2, sig2, sig1 := computedPublicKeyG1(i), computedPublicKeyG2(i), computedSignatureG2(i), computedSignatureG1(i)
		if !PublicKeysG1()[i].Equal(&pk1) || !PublicKeysG2()[i].Equal(&pk2) || !SignaturesG2()[i].Equal(&sig2) || !SignaturesG1()[i].Equal(&sig1) {
			t.Fatalf("value %d: decoded and computed differ", i)
		}
	}
}

// computedPublicKeyG1 and the others compute value i as gnark-crypto
// does, from SecretKeys()[i] and Message(i).
func computedPublicKeyG1(i int) (pk bls12381.G1Affine) {
	pk.ScalarMultiplicationBase(bigKey(i))
	return
}

func computedPublicKeyG2(i int) (pk bls12381.G2Affine) {
	pk.ScalarMultiplicationBase(bigKey(i))
	return
}

func computedSignatureG2(i int) (sig bls12381.G2Affine) {
	return *sig.ScalarMultiplication(&HashedG2Affine()[i], bigKey(i))
}

func computedSignatureG1(i int) (sig bls12381.G1Affine) {
	return *sig.ScalarMultiplication(&HashedG1Affine()[i], bigKey(i))
}
