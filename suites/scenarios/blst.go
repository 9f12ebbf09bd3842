//go:build cgo

package scenarios

import (
	blst "github.com/supranational/blst/bindings/go"

	"github.com/memprof/memprof/suites"
	blstsuite "github.com/memprof/memprof/suites/blst"
	"github.com/memprof/memprof/vocab"
)

// blstEntries returns the scenarios held in blst values: the blst suite's
// min-pk keys and signatures.
func blstEntries() []suites.Entry {
	return entries(source[blst.P1Affine, blst.P2Affine]{
		lib: vocab.Blst, pks: blstsuite.PublicKeysG1, sigs: blstsuite.SignaturesG2,
		compressPK:  func(pk *blst.P1Affine) ([]byte, error) { return pk.Compress(), nil },
		compressSig: (*blst.P2Affine).Compress,
	}, vocab.Why{})
}
