package decred

import (
	"bytes"
	"maps"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"

	"github.com/memprof/memprof/suites/internal/secpkit"
	"github.com/memprof/memprof/vocab"
)

// The Results of the operations.
func pubBytes(p *secp256k1.PublicKey) []byte  { return p.SerializeUncompressed() }
func addrBytes(a [20]byte) []byte             { return a[:] }
func plain(b []byte) []byte                   { return b }
func rsvBytes(s [65]byte) []byte              { return s[:] }
func keyBytes(k *secp256k1.PrivateKey) []byte { return k.Serialize() }

// sign signs hash with k in decred's compact form and converts it to
// R‖S‖V.
func sign(k *secp256k1.PrivateKey, hash []byte) ([65]byte, error) {
	return rsv(ecdsa.SignCompact(k, hash, false))
}

// verifyRS applies Ethereum's low-S rule to R‖S, decodes it and verifies
// it under p.
func verifyRS(p *secp256k1.PublicKey, hash, rs []byte) (bool, error) {
	if !secpkit.EthereumRule(rs) {
		return false, secpkit.ErrRule
	}
	sig, err := signature(rs)
	if err != nil {
		return false, err
	}
	return sig.Verify(hash, p), nil
}

// verifySig applies the rule to a decoded signature and verifies it.
func verifySig(p *secp256k1.PublicKey, hash []byte, sig *ecdsa.Signature) (bool, error) {
	if !rule(sig) {
		return false, secpkit.ErrRule
	}
	return sig.Verify(hash, p), nil
}

// recoverAddress is the ecRecover precompile's path from R‖S‖V: r and s
// in [1, N) (a high S allowed), the compact form, RecoverCompact, and the
// Keccak-256 of the key.
func recoverAddress(hash, sig []byte) ([20]byte, error) {
	if !secpkit.PrecompileRule(sig[:64]) {
		return [20]byte{}, secpkit.ErrRule
	}
	p, err := recoverKey(hash, sig)
	if err != nil {
		return [20]byte{}, err
	}
	return secpkit.Address(p.SerializeUncompressed()), nil
}

// opImpls returns every row decred does.
func opImpls() map[secpkit.Row]secpkit.OpImpl {
	ops := secretKeyOps()
	maps.Copy(ops, publicKeyOps())
	maps.Copy(ops, signatureOps())
	return ops
}

// The library objects of the input, decoded outside the timing.
func decodedKey(in *secpkit.Input) (*secp256k1.PrivateKey, error) {
	var k secp256k1.PrivateKey
	return &k, secretKey(&k, in.SecretKey[:])
}

func decodedPub(in *secpkit.Input) (*secp256k1.PublicKey, error) {
	return secp256k1.ParsePubKey(in.Uncompressed[:])
}

func decodedSig(in *secpkit.Input) (*ecdsa.Signature, error) { return signature(in.RS()) }

// withPub is a verification of the input's signature (decoded before the
// timing) under the key that key makes from the row's form.
func withPub(key func(in *secpkit.Input) func() (*secp256k1.PublicKey, error)) secpkit.Maker {
	return func(in *secpkit.Input) (secpkit.Call, error) {
		load := key(in)
		s, err := signature(in.RS())
		return secpkit.Verified(func() (bool, error) {
			p, err := load()
			if err != nil {
				return false, err
			}
			return verifySig(p, in.Hash[:], s)
		}), err
	}
}

// secretKeyOps returns the rows of the secret key: signing and its two conversions.
func secretKeyOps() map[secpkit.Row]secpkit.OpImpl {
	sk := vocab.Secp256k1SecretKey
	row, conv, impl := secpkit.RowOf, secpkit.ConvOf, secpkit.ImplOf
	const toRSV = "to R‖S‖V"
	return map[secpkit.Row]secpkit.OpImpl{
		row(sk, vocab.ByteForm, vocab.Sign): impl("the 32 bytes decoded (refusing 0 and >= N, as go-ethereum without cgo does), ecdsa.SignCompact (RFC 6979), converted to R‖S‖V", []string{"ModNScalar.SetByteSlice", "ecdsa.SignCompact", toRSV},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.Produce(func() ([65]byte, error) {
					var k secp256k1.PrivateKey
					if err := secretKey(&k, in.SecretKey[:]); err != nil {
						return [65]byte{}, err
					}
					return sign(&k, in.Hash[:])
				}, rsvBytes), nil
			}),
		row(sk, vocab.Decoded, vocab.Sign): impl("ecdsa.SignCompact of the *secp256k1.PrivateKey (RFC 6979), converted to R‖S‖V", []string{"ecdsa.SignCompact", toRSV},
			func(in *secpkit.Input) (secpkit.Call, error) {
				k, err := decodedKey(in)
				return secpkit.Produce(func() ([65]byte, error) { return sign(k, in.Hash[:]) }, rsvBytes), err
			}),
		conv(sk, vocab.ByteForm, vocab.Decoded): impl("ModNScalar.SetByteSlice (refusing 0 and >= N), secp256k1.NewPrivateKey", []string{"ModNScalar.SetByteSlice", "secp256k1.NewPrivateKey"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.Produce(func() (*secp256k1.PrivateKey, error) {
					var s secp256k1.ModNScalar
					if overflow := s.SetByteSlice(in.SecretKey[:]); overflow || s.IsZero() {
						return nil, errKey
					}
					return secp256k1.NewPrivateKey(&s), nil
				}, keyBytes), nil
			}),
		conv(sk, vocab.Decoded, vocab.ByteForm): impl("(secp256k1.PrivateKey).Serialize", []string{"PrivateKey.Serialize"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				k, err := decodedKey(in)
				return secpkit.Produce(func() ([]byte, error) { return k.Serialize(), nil }, plain), err
			}),
	}
}

// publicKeyOps returns the rows of the public key: verification, re-encoding and the address.
func publicKeyOps() map[secpkit.Row]secpkit.OpImpl {
	pk := vocab.Secp256k1PublicKey
	row, impl := secpkit.RowOf, secpkit.ImplOf
	const rule = "low-S rule"
	return map[secpkit.Row]secpkit.OpImpl{
		row(pk, vocab.Compressed, vocab.Verify): impl("secp256k1.ParsePubKey of the 33 bytes (a square root), then (*ecdsa.Signature).Verify", []string{"secp256k1.ParsePubKey", rule, "Signature.Verify"},
			withPub(func(in *secpkit.Input) func() (*secp256k1.PublicKey, error) {
				return func() (*secp256k1.PublicKey, error) { return secp256k1.ParsePubKey(in.Compressed[:]) }
			})),
		row(pk, vocab.Uncompressed, vocab.Verify): impl("secp256k1.ParsePubKey of the 65 bytes (checks the point), then (*ecdsa.Signature).Verify", []string{"secp256k1.ParsePubKey", rule, "Signature.Verify"},
			withPub(func(in *secpkit.Input) func() (*secp256k1.PublicKey, error) {
				return func() (*secp256k1.PublicKey, error) { return secp256k1.ParsePubKey(in.Uncompressed[:]) }
			})),
		row(pk, vocab.Decoded, vocab.Verify): impl("(*ecdsa.Signature).Verify under the *secp256k1.PublicKey", []string{rule, "Signature.Verify"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				p, err := decodedPub(in)
				if err != nil {
					return secpkit.Call{}, err
				}
				return withPub(func(*secpkit.Input) func() (*secp256k1.PublicKey, error) {
					return func() (*secp256k1.PublicKey, error) { return p, nil }
				})(in)
			}),
		row(pk, vocab.Address, vocab.Verify): impl("the low-S rule, the compact form, ecdsa.RecoverCompact, Keccak-256 of SerializeUncompressed, compared with the address", []string{rule, "ecdsa.RecoverCompact", "SerializeUncompressed", "Keccak256", "compare"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.FromAddress(in, recoverAddress, in.Address), nil
			}),
		row(pk, vocab.Uncompressed, vocab.Compress): impl("secp256k1.ParsePubKey (checks the point), then SerializeCompressed", []string{"secp256k1.ParsePubKey", "SerializeCompressed"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.Reencode(in.Uncompressed[:], secp256k1.ParsePubKey, (*secp256k1.PublicKey).SerializeCompressed, plain), nil
			}),
		row(pk, vocab.Decoded, vocab.Compress): impl("(*secp256k1.PublicKey).SerializeCompressed", []string{"SerializeCompressed"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				p, err := decodedPub(in)
				return secpkit.Produce(func() ([]byte, error) { return p.SerializeCompressed(), nil }, plain), err
			}),
		row(pk, vocab.Compressed, vocab.Serialize): impl("secp256k1.ParsePubKey of the 33 bytes (a square root), then SerializeUncompressed", []string{"secp256k1.ParsePubKey", "SerializeUncompressed"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.Reencode(in.Compressed[:], secp256k1.ParsePubKey, (*secp256k1.PublicKey).SerializeUncompressed, plain), nil
			}),
		row(pk, vocab.Decoded, vocab.Serialize): impl("(*secp256k1.PublicKey).SerializeUncompressed", []string{"SerializeUncompressed"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				p, err := decodedPub(in)
				return secpkit.Produce(func() ([]byte, error) { return p.SerializeUncompressed(), nil }, plain), err
			}),
		row(pk, vocab.Compressed, vocab.Decompress): impl("secp256k1.ParsePubKey of the 33 bytes to *secp256k1.PublicKey", []string{"secp256k1.ParsePubKey"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.Produce(func() (*secp256k1.PublicKey, error) { return secp256k1.ParsePubKey(in.Compressed[:]) }, pubBytes), nil
			}),
		row(pk, vocab.Uncompressed, vocab.Decompress): impl("secp256k1.ParsePubKey of the 65 bytes to *secp256k1.PublicKey (checks the point on the curve)", []string{"secp256k1.ParsePubKey"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.Produce(func() (*secp256k1.PublicKey, error) { return secp256k1.ParsePubKey(in.Uncompressed[:]) }, pubBytes), nil
			}),
		row(pk, vocab.Compressed, vocab.ToAddress): impl("secp256k1.ParsePubKey, SerializeUncompressed, Keccak-256 (golang.org/x/crypto/sha3)", []string{"secp256k1.ParsePubKey", "SerializeUncompressed", "Keccak256"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.Produce(func() ([20]byte, error) {
					p, err := secp256k1.ParsePubKey(in.Compressed[:])
					if err != nil {
						return [20]byte{}, err
					}
					return secpkit.Address(p.SerializeUncompressed()), nil
				}, addrBytes), nil
			}),
		row(pk, vocab.Uncompressed, vocab.ToAddress): impl("Keccak-256 (golang.org/x/crypto/sha3) of the 64 bytes after the 0x04 prefix, last 20 bytes (no check of the point; decred takes no part)", []string{"Keccak256"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.Produce(func() ([20]byte, error) { return secpkit.Address(in.Uncompressed[:]), nil }, addrBytes), nil
			}),
		row(pk, vocab.Decoded, vocab.ToAddress): impl("SerializeUncompressed of the *secp256k1.PublicKey, Keccak-256 (golang.org/x/crypto/sha3)", []string{"SerializeUncompressed", "Keccak256"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				p, err := decodedPub(in)
				return secpkit.Produce(func() ([20]byte, error) { return secpkit.Address(p.SerializeUncompressed()), nil }, addrBytes), err
			}),
	}
}

// signatureOps returns the rows of the signature: verification, recovery and the conversions between its forms.
func signatureOps() map[secpkit.Row]secpkit.OpImpl {
	sg := vocab.Secp256k1Signature
	row, conv, impl := secpkit.RowOf, secpkit.ConvOf, secpkit.ImplOf
	const rule = "low-S rule"
	return map[secpkit.Row]secpkit.OpImpl{
		row(sg, vocab.RSV, vocab.Verify): impl("the first 64 bytes decoded to *ecdsa.Signature, then Verify under the *secp256k1.PublicKey", []string{rule, "ModNScalar.SetByteSlice", "Signature.Verify"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				p, err := decodedPub(in)
				return secpkit.Verified(func() (bool, error) { return verifyRS(p, in.Hash[:], in.RSV[:64]) }), err
			}),
		row(sg, vocab.RS, vocab.Verify): impl("R‖S decoded to *ecdsa.Signature, then Verify under the *secp256k1.PublicKey", []string{rule, "ModNScalar.SetByteSlice", "Signature.Verify"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				p, err := decodedPub(in)
				rs := bytes.Clone(in.RS())
				return secpkit.Verified(func() (bool, error) { return verifyRS(p, in.Hash[:], rs) }), err
			}),
		row(sg, vocab.DER, vocab.Verify): impl("ecdsa.ParseDERSignature (strict DER), then Verify under the *secp256k1.PublicKey", []string{"ecdsa.ParseDERSignature", rule, "Signature.Verify"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				p, err := decodedPub(in)
				return secpkit.Verified(func() (bool, error) {
					s, err := ecdsa.ParseDERSignature(in.DER)
					if err != nil {
						return false, err
					}
					return verifySig(p, in.Hash[:], s)
				}), err
			}),
		row(sg, vocab.Decoded, vocab.Verify): impl("(*ecdsa.Signature).Verify under the *secp256k1.PublicKey", []string{rule, "Signature.Verify"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				p, err := decodedPub(in)
				if err != nil {
					return secpkit.Call{}, err
				}
				s, err := decodedSig(in)
				return secpkit.Verified(func() (bool, error) { return verifySig(p, in.Hash[:], s) }), err
			}),
		row(sg, vocab.RSV, vocab.Recover): impl("converted to the compact form V‖R‖S, ecdsa.RecoverCompact to *secp256k1.PublicKey (a high S accepted)", []string{"to V‖R‖S", "ecdsa.RecoverCompact"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.Produce(func() (*secp256k1.PublicKey, error) { return recoverKey(in.Hash[:], in.RSV[:]) }, pubBytes), nil
			}),
		row(sg, vocab.RSV, vocab.RecoverAddress): impl("the precompile's path: r, s in [1, N), the compact form, ecdsa.RecoverCompact, Keccak-256 of SerializeUncompressed", []string{"precompile rule", "to V‖R‖S", "ecdsa.RecoverCompact", "SerializeUncompressed", "Keccak256"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.Produce(func() ([20]byte, error) { return recoverAddress(in.Hash[:], in.RSV[:]) }, addrBytes), nil
			}),
		conv(sg, vocab.DER, vocab.RS): impl("ecdsa.ParseDERSignature, then R and S to 32 bytes each", []string{"ecdsa.ParseDERSignature", "ModNScalar.PutBytesUnchecked"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.Produce(func() ([]byte, error) {
					s, err := ecdsa.ParseDERSignature(in.DER)
					if err != nil {
						return nil, err
					}
					return rsBytes(s), nil
				}, plain), nil
			}),
		conv(sg, vocab.Decoded, vocab.RS): impl("R and S of the *ecdsa.Signature to 32 bytes each", []string{"ModNScalar.PutBytesUnchecked"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				s, err := decodedSig(in)
				return secpkit.Produce(func() ([]byte, error) { return rsBytes(s), nil }, plain), err
			}),
		conv(sg, vocab.RSV, vocab.DER): impl("the first 64 bytes decoded (refusing r or s >= N), then (*ecdsa.Signature).Serialize", []string{"ModNScalar.SetByteSlice", "Signature.Serialize"},
			derFrom(func(in *secpkit.Input) []byte { return in.RSV[:64] })),
		conv(sg, vocab.RS, vocab.DER): impl("R‖S decoded (refusing r or s >= N), then (*ecdsa.Signature).Serialize", []string{"ModNScalar.SetByteSlice", "Signature.Serialize"},
			derFrom(func(in *secpkit.Input) []byte { return bytes.Clone(in.RS()) })),
		conv(sg, vocab.Decoded, vocab.DER): impl("(*ecdsa.Signature).Serialize", []string{"Signature.Serialize"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				s, err := decodedSig(in)
				return secpkit.Produce(func() ([]byte, error) { return s.Serialize(), nil }, plain), err
			}),
		conv(sg, vocab.RSV, vocab.Decoded): impl("the first 64 bytes decoded (refusing r or s >= N) to *ecdsa.Signature", []string{"ModNScalar.SetByteSlice", "ecdsa.NewSignature"},
			decodedFrom(func(in *secpkit.Input) []byte { return in.RSV[:64] })),
		conv(sg, vocab.RS, vocab.Decoded): impl("R‖S decoded (refusing r or s >= N) to *ecdsa.Signature", []string{"ModNScalar.SetByteSlice", "ecdsa.NewSignature"},
			decodedFrom(func(in *secpkit.Input) []byte { return bytes.Clone(in.RS()) })),
		conv(sg, vocab.DER, vocab.Decoded): impl("ecdsa.ParseDERSignature (strict DER) to *ecdsa.Signature", []string{"ecdsa.ParseDERSignature"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.Produce(func() (*ecdsa.Signature, error) { return ecdsa.ParseDERSignature(in.DER) }, rsBytes), nil
			}),
	}
}

// derFrom is the conversion of an R‖S (what rs picks of the input) to DER.
func derFrom(rs func(*secpkit.Input) []byte) secpkit.Maker {
	return func(in *secpkit.Input) (secpkit.Call, error) {
		b := rs(in)
		return secpkit.Produce(func() ([]byte, error) {
			s, err := signature(b)
			if err != nil {
				return nil, err
			}
			return s.Serialize(), nil
		}, plain), nil
	}
}

// decodedFrom is the conversion of an R‖S to *ecdsa.Signature.
func decodedFrom(rs func(*secpkit.Input) []byte) secpkit.Maker {
	return func(in *secpkit.Input) (secpkit.Call, error) {
		b := rs(in)
		return secpkit.Produce(func() (*ecdsa.Signature, error) { return signature(b) }, rsBytes), nil
	}
}
