//go:build cgo

package scenarios

import (
	blst "github.com/supranational/blst/bindings/go"

	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
	blstsuite "github.com/memprof/memprof/suites/blst"
)

// blstEntries returns the scenarios held in blst values.
func blstEntries() []suites.Entry {
	return entries(model.Blst, "blst.P1Affine", "blst.P2Affine", blstValues, model.Why{})
}

// blstValues takes the blst suite's min-pk keys and signatures.
func blstValues() (*values[blst.P1Affine, blst.P2Affine], error) {
	v := &values[blst.P1Affine, blst.P2Affine]{
		pks:      blstsuite.PublicKeysG1(),
		sigs:     blstsuite.SignaturesG2(),
		clonePK:  func(p *blst.P1Affine) blst.P1Affine { return *p },
		cloneSig: func(s *blst.P2Affine) blst.P2Affine { return *s },
	}
	for i := range v.pks {
		var c [48]byte
		var s [96]byte
		copy(c[:], v.pks[i].Compress())
		copy(s[:], v.sigs[i].Compress())
		v.compressed = append(v.compressed, c)
		v.sigBytes = append(v.sigBytes, s)
	}
	return v, nil
}
