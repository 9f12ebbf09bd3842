package scenarios

import (
	"fmt"
	"math/big"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

func init() {
	register("gnark", "bls12381.G1Affine", "bls12381.G2Affine", gnarkValues, "")
}

// gnarkDST is the min-pk signature DST (signatures in G2).
var gnarkDST = []byte("BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_")

func gnarkValues() (*values[bls12381.G1Affine, bls12381.G2Affine], error) {
	v := &values[bls12381.G1Affine, bls12381.G2Affine]{
		clonePK:  func(p *bls12381.G1Affine) bls12381.G1Affine { return *p },
		cloneSig: func(s *bls12381.G2Affine) bls12381.G2Affine { return *s },
	}
	for i := range distinct {
		var sk fr.Element
		sk.SetBytes(ikm(i)) // reduced mod r: a valid secret scalar
		var skInt big.Int
		sk.BigInt(&skInt)
		var pk bls12381.G1Affine
		pk.ScalarMultiplicationBase(&skInt)
		h, err := bls12381.HashToG2([]byte(fmt.Sprintf("memprof attestation %d", i)), gnarkDST)
		if err != nil {
			return nil, fmt.Errorf("gnark hash to G2: %w", err)
		}
		var sig bls12381.G2Affine
		sig.ScalarMultiplication(&h, &skInt)
		v.pks = append(v.pks, pk)
		v.compressed = append(v.compressed, pk.Bytes())
		v.sigs = append(v.sigs, sig)
		v.sigBytes = append(v.sigBytes, sig.Bytes())
	}
	return v, nil
}
