package circl

import (
	"bytes"
	"testing"

	"github.com/cloudflare/circl/sign/bls"

	"github.com/memprof/memprof/suites/internal/suitekit"
)

// TestEncodedValues: the signatures the suite copies from suitekit's
// encoded.bin are those circl's bls.Sign makes with the same keys and
// messages (suites/blst's test of the same name checks the file against
// blst's).
func TestEncodedValues(t *testing.T) {
	for i := range Distinct {
		msg := suitekit.Message(i)
		if pk, want := SignaturesMinPk()[i], bls.Sign(SecretKeysMinPk()[i], msg); !bytes.Equal(pk, want) {
			t.Fatalf("min-pk signature %d: copied %x, bls.Sign %x", i, pk, want)
		}
		if sig, want := SignaturesMinSig()[i], bls.Sign(SecretKeysMinSig()[i], msg); !bytes.Equal(sig, want) {
			t.Fatalf("min-sig signature %d: copied %x, bls.Sign %x", i, sig, want)
		}
	}
}
