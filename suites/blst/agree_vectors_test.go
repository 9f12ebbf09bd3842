//go:build cgo

package blst

import (
	"bytes"
	"testing"

	"github.com/memprof/memprof/suites/circl"
	"github.com/memprof/memprof/suites/gnark"
)

// TestSameValuesAsGnarkAndCircl checks that the three suites measure the
// same keys, public keys, signatures and hashed points: blst's KeyGen,
// the IETF KeyGen of the gnark suite and circl's KeyGen with the IETF
// salt agree, and so do the points made from them.
func TestSameValuesAsGnarkAndCircl(t *testing.T) {
	type row struct {
		name              string
		blst, gnark, circ []byte
	}
	var rows []row
	circlBytes := func(b []byte, err error) []byte {
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for i := range Distinct {
		g1, c1 := gnark.PublicKeysG1()[i].Bytes(), circlBytes(circl.PublicKeysMinPk()[i].MarshalBinary())
		g2, c2 := gnark.PublicKeysG2()[i].Bytes(), circlBytes(circl.PublicKeysMinSig()[i].MarshalBinary())
		gs2, gs1 := gnark.SignaturesG2()[i].Bytes(), gnark.SignaturesG1()[i].Bytes()
		gh1, gh2 := gnark.HashedG1Affine()[i].Bytes(), gnark.HashedG2Affine()[i].Bytes()
		ch1, ch2 := circl.HashedG1()[i].BytesCompressed(), circl.HashedG2()[i].BytesCompressed()
		rows = append(rows,
			row{"secret key", SecretKeyBytes()[i], gnark.SecretKeyBytes()[i], circl.SecretKeyBytes()[i]},
			row{"min-pk public key", PublicKeysG1()[i].Compress(), g1[:], c1},
			row{"min-sig public key", PublicKeysG2()[i].Compress(), g2[:], c2},
			row{"min-pk signature", SignaturesG2()[i].Compress(), gs2[:], circl.SignaturesMinPk()[i]},
			row{"min-sig signature", SignaturesG1()[i].Compress(), gs1[:], circl.SignaturesMinSig()[i]},
			row{"hashed G1 point", HashedG1Affine()[i].Compress(), gh1[:], ch1},
			row{"hashed G2 point", HashedG2Affine()[i].Compress(), gh2[:], ch2},
		)
	}
	for i, r := range rows {
		if !bytes.Equal(r.blst, r.gnark) || !bytes.Equal(r.blst, r.circ) {
			t.Errorf("value %d, %s: blst %x, gnark %x, circl %x; want all equal", i/7, r.name, r.blst, r.gnark, r.circ)
		}
	}
}
