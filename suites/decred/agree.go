package decred

import (
	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"

	"github.com/memprof/memprof/suites/internal/secpkit"
)

// agreeLib is decred's part of the agreement check.
func agreeLib() *secpkit.AgreeLib {
	parse := func(sk []byte) (*secp256k1.PrivateKey, error) {
		var k secp256k1.PrivateKey
		return &k, secretKey(&k, sk)
	}
	return &secpkit.AgreeLib{
		PublicKey: func(sk []byte) ([]byte, []byte, error) {
			k, err := parse(sk)
			if err != nil {
				return nil, nil, err
			}
			p := k.PubKey()
			return p.SerializeCompressed(), p.SerializeUncompressed(), nil
		},
		Address: func(sk []byte) ([]byte, error) {
			k, err := parse(sk)
			if err != nil {
				return nil, err
			}
			a := secpkit.Address(k.PubKey().SerializeUncompressed())
			return a[:], nil
		},
		Sign: func(sk, hash []byte) ([]byte, error) {
			k, err := parse(sk)
			if err != nil {
				return nil, err
			}
			s, err := sign(k, hash)
			return s[:], err
		},
		Verify: func(pub, hash, rs []byte) (bool, error) {
			p, err := secp256k1.ParsePubKey(pub)
			if err != nil {
				return false, err
			}
			s, err := signature(rs)
			if err != nil {
				return false, err
			}
			return s.Verify(hash, p), nil
		},
		VerifiesHighS: true,
		Recover: func(hash, rsv []byte) ([]byte, error) {
			p, err := recoverKey(hash, rsv)
			if err != nil {
				return nil, err
			}
			return p.SerializeUncompressed(), nil
		},
		Decompress: func(c []byte) ([]byte, error) {
			p, err := secp256k1.ParsePubKey(c)
			if err != nil {
				return nil, err
			}
			return p.SerializeUncompressed(), nil
		},
		Compress: func(u []byte) ([]byte, error) {
			p, err := secp256k1.ParsePubKey(u)
			if err != nil {
				return nil, err
			}
			return p.SerializeCompressed(), nil
		},
		ParseDER: func(der []byte) ([]byte, error) {
			s, err := ecdsa.ParseDERSignature(der)
			if err != nil {
				return nil, err
			}
			return rsBytes(s), nil
		},
		EncodeDER: func(rs []byte) ([]byte, error) {
			s, err := signature(rs)
			if err != nil {
				return nil, err
			}
			return s.Serialize(), nil
		},
	}
}
