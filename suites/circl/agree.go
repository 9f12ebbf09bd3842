package circl

import (
	"fmt"

	GG "github.com/cloudflare/circl/ecc/bls12381"
	"github.com/cloudflare/circl/sign/bls"

	"github.com/memprof/memprof/suites"
)

// agreeLib is circl's part of the agreement check.
func agreeLib() suites.AgreeLib {
	return suites.AgreeLib{
		Lib: lib,
		KeyGen: func(ikm []byte) ([]byte, error) {
			sk, err := bls.KeyGen[bls.KeyG1SigG2](ikm, agreeSalt, nil)
			if err != nil {
				return nil, fmt.Errorf("circl KeyGen: %w", err)
			}
			return sk.MarshalBinary()
		},
		PublicKey: func(skb []byte) ([]byte, error) {
			sk, err := agreePrivateKey(skb)
			if err != nil {
				return nil, err
			}
			return sk.PublicKey().MarshalBinary()
		},
		Sign: func(skb, msg []byte) ([]byte, error) {
			sk, err := agreePrivateKey(skb)
			if err != nil {
				return nil, err
			}
			return bls.Sign(sk, msg), nil
		},
		Verify: func(pkb, msg, sigb []byte) (bool, error) {
			var pk bls.PublicKey[bls.KeyG1SigG2]
			if err := pk.UnmarshalBinary(pkb); err != nil {
				return false, fmt.Errorf("circl: public key: %w", err)
			}
			var sig GG.G2
			if err := sig.SetBytes(sigb); err != nil {
				return false, fmt.Errorf("circl: signature: %w", err)
			}
			return bls.Verify(&pk, msg, sigb), nil
		},
		RoundTrips: suites.GroupRoundTrips(lib, pkGroup().RoundTrips, sigGroup().RoundTrips),
		EIP2537:    eip2537(),
	}
}

func agreePrivateKey(b []byte) (*bls.PrivateKey[bls.KeyG1SigG2], error) {
	var sk bls.PrivateKey[bls.KeyG1SigG2]
	if err := sk.UnmarshalBinary(b); err != nil {
		return nil, fmt.Errorf("circl: secret key %x: %w", b, err)
	}
	return &sk, nil
}
