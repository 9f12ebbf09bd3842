package scenarios

import (
	"bytes"
	"fmt"

	"github.com/cloudflare/circl/sign/bls"

	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/circl"
)

// circlEntries returns the scenarios held in circl values.
func circlEntries() []suites.Entry {
	return entries(model.Circl, "bls.PublicKey[bls.KeyG1SigG2]", "bls.Signature ([]byte, compressed)", circlValues, model.Why{})
}

// circlValues takes the circl suite's min-pk keys and signatures (the same
// values, byte for byte, as blst's and gnark's).
func circlValues() (*values[bls.PublicKey[bls.KeyG1SigG2], bls.Signature], error) {
	v := &values[bls.PublicKey[bls.KeyG1SigG2], bls.Signature]{
		pks:     circl.PublicKeysMinPk(),
		sigs:    circl.SignaturesMinPk(),
		clonePK: func(p *bls.PublicKey[bls.KeyG1SigG2]) bls.PublicKey[bls.KeyG1SigG2] { return *p },
		// circl's Signature is a byte slice: each attestation holds its own.
		cloneSig: func(s *bls.Signature) bls.Signature { return bytes.Clone(*s) },
	}
	for i := range v.pks {
		b, err := v.pks[i].MarshalBinary()
		if err != nil {
			return nil, fmt.Errorf("circl public key: %w", err)
		}
		var c [48]byte
		var s [96]byte
		copy(c[:], b)
		copy(s[:], v.sigs[i])
		v.compressed = append(v.compressed, c)
		v.sigBytes = append(v.sigBytes, s)
	}
	return v, nil
}
