package circl

import (
	"errors"
	"fmt"

	GG "github.com/cloudflare/circl/ecc/bls12381"
	"github.com/cloudflare/circl/sign/bls"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/model"
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
		RoundTrips: func(typ model.Type, enc []byte) ([]suites.AgreeRoundTrip, error) {
			switch typ {
			case "PublicKey":
				var p, fromC, fromU GG.G1
				if err := p.SetBytes(enc); err != nil {
					return nil, fmt.Errorf("circl: public key: %w", err)
				}
				if err := fromC.SetBytes(p.BytesCompressed()); err != nil {
					return nil, err
				}
				if err := fromU.SetBytes(p.Bytes()); err != nil {
					return nil, err
				}
				return []suites.AgreeRoundTrip{
					{Repr: "projective", Compressed: p.BytesCompressed(), Uncompressed: p.Bytes()},
					{Repr: "compressed", Compressed: fromC.BytesCompressed(), Uncompressed: fromC.Bytes()},
					{Repr: "uncompressed", Compressed: fromU.BytesCompressed(), Uncompressed: fromU.Bytes()},
				}, nil
			case "Signature":
				var p, fromC, fromU GG.G2
				if err := p.SetBytes(enc); err != nil {
					return nil, fmt.Errorf("circl: signature: %w", err)
				}
				if err := fromC.SetBytes(p.BytesCompressed()); err != nil {
					return nil, err
				}
				if err := fromU.SetBytes(p.Bytes()); err != nil {
					return nil, err
				}
				return []suites.AgreeRoundTrip{
					{Repr: "projective", Compressed: p.BytesCompressed(), Uncompressed: p.Bytes()},
					{Repr: "compressed", Compressed: fromC.BytesCompressed(), Uncompressed: fromC.Bytes()},
					{Repr: "uncompressed", Compressed: fromU.BytesCompressed(), Uncompressed: fromU.Bytes()},
				}, nil
			}
			return nil, fmt.Errorf("circl: no round trip for type %q", typ)
		},
	}
}

func agreePrivateKey(b []byte) (*bls.PrivateKey[bls.KeyG1SigG2], error) {
	var sk bls.PrivateKey[bls.KeyG1SigG2]
	if err := sk.UnmarshalBinary(b); err != nil {
		return nil, fmt.Errorf("circl: secret key %x: %w", b, err)
	}
	return &sk, nil
}

// opFixtures returns the operation vectors (the invalid inputs come from
// there).
func opFixtures() (*fixtures.Ops, error) {
	f, err := fixtures.Load()
	if err != nil {
		return nil, err
	}
	if len(f.Ops.NotInSubgroupG1) == 0 {
		return nil, errors.New("fixtures/vectors.json has no invalid points")
	}
	return &f.Ops, nil
}
