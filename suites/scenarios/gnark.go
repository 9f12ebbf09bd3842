package scenarios

import (
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"

	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/gnark"
)

// gnarkEntries returns the scenarios held in gnark values.
func gnarkEntries() []suites.Entry {
	return entries(model.Gnark, "bls12381.G1Affine", "bls12381.G2Affine", gnarkValues, model.Why{})
}

// gnarkValues takes the gnark suite's min-pk keys and signatures (the same
// values, byte for byte, as blst's and circl's).
func gnarkValues() (*values[bls12381.G1Affine, bls12381.G2Affine], error) {
	v := &values[bls12381.G1Affine, bls12381.G2Affine]{
		pks:      gnark.PublicKeysG1(),
		sigs:     gnark.SignaturesG2(),
		clonePK:  func(p *bls12381.G1Affine) bls12381.G1Affine { return *p },
		cloneSig: func(s *bls12381.G2Affine) bls12381.G2Affine { return *s },
	}
	for i := range v.pks {
		v.compressed = append(v.compressed, v.pks[i].Bytes())
		v.sigBytes = append(v.sigBytes, v.sigs[i].Bytes())
	}
	return v, nil
}
