package gnark

import (
	"crypto/hkdf"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/big"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/memprof/memprof/suites"
)

// agreeLib is gnark's part of the agreement check.
func agreeLib() suites.AgreeLib {
	return suites.AgreeLib{
		Lib:    lib,
		KeyGen: agreeKeyGen,
		PublicKey: func(skb []byte) ([]byte, error) {
			sk, err := agreeScalar(skb)
			if err != nil {
				return nil, err
			}
			var pk bls12381.G1Affine
			pk.ScalarMultiplicationBase(sk)
			b := pk.Bytes()
			return b[:], nil
		},
		Sign: func(skb, msg []byte) ([]byte, error) {
			sk, err := agreeScalar(skb)
			if err != nil {
				return nil, err
			}
			sig, err := opSign(sk, msg)
			if err != nil {
				return nil, err
			}
			b := sig.Bytes()
			return b[:], nil
		},
		Verify: func(pkb, msg, sigb []byte) (bool, error) {
			var pk bls12381.G1Affine
			if _, err := pk.SetBytes(pkb); err != nil {
				return false, fmt.Errorf("gnark: public key: %w", err)
			}
			if pk.IsInfinity() {
				return false, errors.New("gnark: public key is the point at infinity")
			}
			var sig bls12381.G2Affine
			if _, err := sig.SetBytes(sigb); err != nil {
				return false, fmt.Errorf("gnark: signature: %w", err)
			}
			return opVerify(&pk, msg, &sig)
		},
		RoundTrips: suites.GroupRoundTrips(lib, pkGroup().RoundTrips, sigGroup().RoundTrips),
		EIP2537:    eip2537(),
	}
}

// agreeKeyGen is KeyGen of the IETF BLS signature draft (versions 4 and
// later), which gnark-crypto does not offer: salt = SHA-256 of the previous
// salt (starting from "BLS-SIG-KEYGEN-SALT-"), PRK = HKDF-Extract(salt,
// IKM || 0x00), OKM = HKDF-Expand(PRK, "" || I2OSP(48, 2), 48), SK = OKM
// mod r, repeated while SK is zero.
func agreeKeyGen(ikm []byte) ([]byte, error) {
	if len(ikm) < 32 {
		return nil, fmt.Errorf("gnark KeyGen: IKM of %d bytes, want at least 32", len(ikm))
	}
	salt := []byte("BLS-SIG-KEYGEN-SALT-")
	ikm0 := append(append([]byte{}, ikm...), 0)
	info := string([]byte{0, 48})
	for range 256 {
		h := sha256.Sum256(salt)
		salt = h[:]
		prk, err := hkdf.Extract(sha256.New, ikm0, salt)
		if err != nil {
			return nil, err
		}
		okm, err := hkdf.Expand(sha256.New, prk, info, 48)
		if err != nil {
			return nil, err
		}
		sk := new(big.Int).SetBytes(okm)
		sk.Mod(sk, fr.Modulus())
		if sk.Sign() != 0 {
			return sk.FillBytes(make([]byte, 32)), nil
		}
	}
	return nil, errors.New("gnark KeyGen: no non-zero key after 256 tries")
}
