package scenarios

import (
	"bytes"
	"crypto/sha256"
	"fmt"

	"github.com/cloudflare/circl/sign/bls"
)

func init() {
	register("circl", "bls.PublicKey[bls.KeyG1SigG2]", "bls.Signature ([]byte, compressed)", circlValues, "")
}

func circlValues() (*values[bls.PublicKey[bls.KeyG1SigG2], bls.Signature], error) {
	v := &values[bls.PublicKey[bls.KeyG1SigG2], bls.Signature]{
		clonePK: func(p *bls.PublicKey[bls.KeyG1SigG2]) bls.PublicKey[bls.KeyG1SigG2] { return *p },
		// circl's Signature is a byte slice: each attestation holds its own.
		cloneSig: func(s *bls.Signature) bls.Signature { return bytes.Clone(*s) },
	}
	salt := sha256.Sum256([]byte("BLS-SIG-KEYGEN-SALT-"))
	for i := range distinct {
		sk, err := bls.KeyGen[bls.KeyG1SigG2](ikm(i), salt[:], nil)
		if err != nil {
			return nil, fmt.Errorf("circl KeyGen: %w", err)
		}
		pk := sk.PublicKey()
		b, err := pk.MarshalBinary()
		if err != nil {
			return nil, fmt.Errorf("circl public key: %w", err)
		}
		sig := bls.Sign(sk, []byte(fmt.Sprintf("memprof attestation %d", i)))
		var c [48]byte
		var s [96]byte
		copy(c[:], b)
		copy(s[:], sig)
		v.pks = append(v.pks, *pk)
		v.compressed = append(v.compressed, c)
		v.sigs = append(v.sigs, sig)
		v.sigBytes = append(v.sigBytes, s)
	}
	return v, nil
}
