//go:build cgo

package blst

import (
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
