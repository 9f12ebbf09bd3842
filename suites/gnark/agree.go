package gnark

import (
	"crypto/hkdf"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/big"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/memprof/memprof/model"
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
		RoundTrips: agreeRoundTrips,
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

func agreeRoundTrips(typ model.Type, enc []byte) ([]suites.AgreeRoundTrip, error) {
	switch typ {
	case "PublicKey":
		var a bls12381.G1Affine
		if _, err := a.SetBytes(enc); err != nil {
			return nil, fmt.Errorf("gnark: public key: %w", err)
		}
		var j bls12381.G1Jac
		j.FromAffine(&a)
		var ja bls12381.G1Affine
		ja.FromJacobian(&j)
		c, r := a.Bytes(), a.RawBytes()
		var fromC, fromR bls12381.G1Affine
		if _, err := fromC.SetBytes(c[:]); err != nil {
			return nil, err
		}
		if _, err := fromR.SetBytes(r[:]); err != nil {
			return nil, err
		}
		return []suites.AgreeRoundTrip{
			g1Trip("affine", &a),
			g1Trip("jacobian", &ja),
			g1Trip("compressed", &fromC),
			g1Trip("uncompressed", &fromR),
		}, nil
	case "Signature":
		var a bls12381.G2Affine
		if _, err := a.SetBytes(enc); err != nil {
			return nil, fmt.Errorf("gnark: signature: %w", err)
		}
		var j bls12381.G2Jac
		j.FromAffine(&a)
		var ja bls12381.G2Affine
		ja.FromJacobian(&j)
		c, r := a.Bytes(), a.RawBytes()
		var fromC, fromR bls12381.G2Affine
		if _, err := fromC.SetBytes(c[:]); err != nil {
			return nil, err
		}
		if _, err := fromR.SetBytes(r[:]); err != nil {
			return nil, err
		}
		return []suites.AgreeRoundTrip{
			g2Trip("affine", &a),
			g2Trip("jacobian", &ja),
			g2Trip("compressed", &fromC),
			g2Trip("uncompressed", &fromR),
		}, nil
	}
	return nil, fmt.Errorf("gnark: no round trip for type %q", typ)
}

func g1Trip(repr model.Repr, p *bls12381.G1Affine) suites.AgreeRoundTrip {
	c, u := p.Bytes(), p.RawBytes()
	return suites.AgreeRoundTrip{Repr: repr, Compressed: c[:], Uncompressed: u[:]}
}

func g2Trip(repr model.Repr, p *bls12381.G2Affine) suites.AgreeRoundTrip {
	c, u := p.Bytes(), p.RawBytes()
	return suites.AgreeRoundTrip{Repr: repr, Compressed: c[:], Uncompressed: u[:]}
}
