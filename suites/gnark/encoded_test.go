package gnark

import "testing"

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
