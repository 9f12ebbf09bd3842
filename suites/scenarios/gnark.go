package scenarios

import (
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"

	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/gnark"
	"github.com/memprof/memprof/vocab"
)

// gnarkEntries returns the scenarios held in gnark values: the gnark
// suite's min-pk keys and signatures (the same values, byte for byte, as
// blst's and circl's).
func gnarkEntries() []suites.Entry {
	compress := func(pk *bls12381.G1Affine) ([]byte, error) { b := pk.Bytes(); return b[:], nil }
	return entries(source[bls12381.G1Affine, bls12381.G2Affine]{
		lib: vocab.Gnark, pks: gnark.PublicKeysG1, sigs: gnark.SignaturesG2, compressPK: compress,
		compressSig: func(sig *bls12381.G2Affine) []byte { b := sig.Bytes(); return b[:] },
	}, vocab.Why{})
}
