//go:build cgo

package scenarios

import (
	"fmt"

	blst "github.com/supranational/blst/bindings/go"
)

func init() {
	register("blst", "blst.P1Affine", "blst.P2Affine", blstValues, "")
}

// blstDST is the min-pk signature DST (signatures in G2).
var blstDST = []byte("BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_")

func blstValues() (*values[blst.P1Affine, blst.P2Affine], error) {
	v := &values[blst.P1Affine, blst.P2Affine]{
		clonePK:  func(p *blst.P1Affine) blst.P1Affine { return *p },
		cloneSig: func(s *blst.P2Affine) blst.P2Affine { return *s },
	}
	for i := range distinct {
		sk := blst.KeyGen(ikm(i))
		if sk == nil {
			return nil, fmt.Errorf("blst KeyGen returned nil")
		}
		pk := new(blst.P1Affine).From(sk)
		sig := new(blst.P2Affine).Sign(sk, []byte(fmt.Sprintf("memprof attestation %d", i)), blstDST)
		var c [48]byte
		var s [96]byte
		copy(c[:], pk.Compress())
		copy(s[:], sig.Compress())
		v.pks = append(v.pks, *pk)
		v.compressed = append(v.compressed, c)
		v.sigs = append(v.sigs, *sig)
		v.sigBytes = append(v.sigBytes, s)
	}
	return v, nil
}
