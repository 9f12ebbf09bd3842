//go:build cgo

package blst

import (
	"fmt"
	"path/filepath"
	"testing"

	blst "github.com/supranational/blst/bindings/go"

	"github.com/memprof/memprof/internal/goldenfile"
	"github.com/memprof/memprof/suites/internal/suitekit"
)

// TestEncodedValues computes the public keys and signatures the suites
// decode from suitekit's encoded.bin with blst (KeyGen, sk·g, Sign) and
// checks the file holds them, byte for byte; with -update it writes the
// file.
func TestEncodedValues(t *testing.T) {
	got := suitekit.EncodeValues(computed)
	goldenfile.Check(t, filepath.Join("..", "internal", "suitekit", "encoded.bin"), got, *opUpdate)
	// What the suite measures is what it decodes: the computed values.
	for i := range Distinct {
		if !PublicKeysG1()[i].Equals(new(blst.P1Affine).From(SecretKeys()[i])) || !SignaturesG2()[i].Equals(new(blst.P2Affine).Sign(SecretKeys()[i], suitekit.Message(i), DSTMinPk)) {
			t.Fatalf("value %d: decoded and computed differ", i)
		}
	}
}

// computed returns value i of kind k as blst computes it from
// SecretKeys()[i] and suitekit.Message(i), encoded.
func computed(k suitekit.EncodedKind, i int) []byte {
	sk, msg := SecretKeys()[i], suitekit.Message(i)
	switch k {
	case suitekit.PublicKeyG1:
		return new(blst.P1Affine).From(sk).Serialize()
	case suitekit.PublicKeyG2:
		return new(blst.P2Affine).From(sk).Serialize()
	case suitekit.SignatureG2:
		return new(blst.P2Affine).Sign(sk, msg, DSTMinPk).Serialize()
	case suitekit.SignatureG1:
		return new(blst.P1Affine).Sign(sk, msg, DSTMinSig).Serialize()
	case suitekit.SignatureG2Compressed:
		return new(blst.P2Affine).Sign(sk, msg, DSTMinPk).Compress()
	case suitekit.SignatureG1Compressed:
		return new(blst.P1Affine).Sign(sk, msg, DSTMinSig).Compress()
	}
	panic(fmt.Sprintf("blst: no encoded kind %d", k))
}
