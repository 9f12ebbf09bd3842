package scenarios

import (
	"bytes"

	"github.com/cloudflare/circl/sign/bls"

	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/circl"
	"github.com/memprof/memprof/vocab"
)

// circlEntries returns the scenarios held in circl values: the circl
// suite's min-pk keys and signatures (the same values, byte for byte, as
// blst's and gnark's). circl's Signature is a byte slice, compressed
// already: each attestation holds its own copy.
func circlEntries() []suites.Entry {
	return entries(source[bls.PublicKey[bls.KeyG1SigG2], bls.Signature]{
		lib: vocab.Circl, pkName: "bls.PublicKey[bls.KeyG1SigG2]", sigName: "bls.Signature ([]byte, compressed)",
		pks: circl.PublicKeysMinPk, sigs: circl.SignaturesMinPk,
		compressPK:  (*bls.PublicKey[bls.KeyG1SigG2]).MarshalBinary,
		compressSig: func(sig *bls.Signature) []byte { return *sig },
		cloneSig:    func(sig *bls.Signature) bls.Signature { return bytes.Clone(*sig) },
	}, vocab.Why{})
}
