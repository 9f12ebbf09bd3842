//go:build cgo

package blst

import (
	"errors"
	"fmt"

	blst "github.com/supranational/blst/bindings/go"

	"github.com/memprof/memprof/suites"
)

// agreeLib is blst's part of the agreement check.
func agreeLib() suites.AgreeLib {
	return suites.AgreeLib{
		Lib: lib,
		KeyGen: func(ikm []byte) ([]byte, error) {
			sk := blst.KeyGen(ikm)
			if sk == nil {
				return nil, errors.New("blst KeyGen returned nil (IKM shorter than 32 bytes)")
			}
			return sk.Serialize(), nil
		},
		PublicKey: func(skb []byte) ([]byte, error) {
			sk, err := agreeSecretKey(skb)
			if err != nil {
				return nil, err
			}
			return new(blst.P1Affine).From(sk).Compress(), nil
		},
		Sign: func(skb, msg []byte) ([]byte, error) {
			sk, err := agreeSecretKey(skb)
			if err != nil {
				return nil, err
			}
			return new(blst.P2Affine).Sign(sk, msg, suites.OpDST).Compress(), nil
		},
		Verify: func(pkb, msg, sigb []byte) (bool, error) {
			pk := new(blst.P1Affine).Uncompress(pkb)
			if pk == nil {
				return false, errors.New("blst: public key does not decompress")
			}
			sig := new(blst.P2Affine).Uncompress(sigb)
			if sig == nil {
				return false, errors.New("blst: signature does not decompress")
			}
			// Both checks on, as for bytes from another party.
			return sig.Verify(true, pk, true, msg, suites.OpDST), nil
		},
		RoundTrips: suites.GroupRoundTrips(lib, pkGroup().RoundTrips, sigGroup().RoundTrips),
		EIP2537:    eip2537(),
	}
}

// agreeSecretKey decodes a 32-byte big-endian secret key.
func agreeSecretKey(b []byte) (*blst.SecretKey, error) {
	sk := new(blst.SecretKey).Deserialize(b)
	if sk == nil {
		return nil, fmt.Errorf("blst: secret key %x does not deserialize", b)
	}
	return sk, nil
}
