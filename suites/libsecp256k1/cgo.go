//go:build cgo

package libsecp256k1

import (
	"bytes"
	"crypto/ecdsa"
	"maps"
	"math/big"
	"sync/atomic"
	"unsafe"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/crypto/secp256k1"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/secpkit"
	"github.com/memprof/memprof/vocab"
)

// haveCgo tells the tests which variant made the entries.
const haveCgo = true

// buildReason is zero: this build runs libsecp256k1.
var buildReason vocab.Why

// values are go-ethereum's Distinct values: keys from crypto.ToECDSA,
// public keys from crypto.CompressPubkey and crypto.FromECDSAPub,
// signatures from crypto.Sign.
var values = secpkit.ValuesOf(string(lib), func(sk *[32]byte, hash *[32]byte) (c [33]byte, u [65]byte, rsv [65]byte, der []byte, err error) {
	k, err := crypto.ToECDSA(sk[:])
	if err != nil {
		return c, u, rsv, nil, err
	}
	sig, err := crypto.Sign(hash[:], k)
	if err != nil {
		return c, u, rsv, nil, err
	}
	return [33]byte(crypto.CompressPubkey(&k.PublicKey)), [65]byte(crypto.FromECDSAPub(&k.PublicKey)), [65]byte(sig), nil, nil
})

// privateKey returns a new *ecdsa.PrivateKey holding sk and its public
// key u (uncompressed) as crypto.ToECDSA makes one: the struct, and three
// big.Ints set from 32 bytes each (crypto.ToECDSA's D by SetBytes, X and Y
// by SetBytes in secp256k1's ScalarMult). It leaves out ToECDSA's scalar
// multiplication and keeps alive the same objects, which
// TestPrivateKeyAsToECDSA checks.
func privateKey(sk *[32]byte, u *[65]byte) *ecdsa.PrivateKey {
	return &ecdsa.PrivateKey{
		PublicKey: ecdsa.PublicKey{Curve: crypto.S256(), X: new(big.Int).SetBytes(u[1:33]), Y: new(big.Int).SetBytes(u[33:])},
		D:         new(big.Int).SetBytes(sk[:]),
	}
}

// publicKey decodes u as crypto.SigToPub returns a key: crypto.UnmarshalPubkey.
func publicKey(u *[65]byte) *ecdsa.PublicKey {
	p, err := crypto.UnmarshalPubkey(u[:])
	if err != nil {
		panic("libsecp256k1: " + err.Error())
	}
	return p
}

// entryImpls returns the constructor of every entry go-ethereum offers.
func entryImpls() map[results.Key]secpkit.Impl {
	key := func(t vocab.Type, r vocab.Repr) results.Key {
		return results.Key{Type: t, Lib: libOf(t, r), Repr: r, Layout: measure.Pointer}
	}
	m := map[results.Key]secpkit.Impl{
		key(vocab.Secp256k1SecretKey, vocab.ByteForm): made("crypto.FromECDSA of the *ecdsa.PrivateKey, its 32-byte slice's array kept ((*[32]byte)(b), no copy)",
			func(v *secpkit.Values, i int) *[32]byte {
				return (*[32]byte)(crypto.FromECDSA(privateKey(&v.SecretKeys[i], &v.Uncompressed[i])))
			}),
		key(vocab.Secp256k1SecretKey, vocab.Decoded): made("*ecdsa.PrivateKey as crypto.ToECDSA makes it (the struct and D, X, Y as *big.Int from 32 bytes each), its public key copied rather than recomputed",
			func(v *secpkit.Values, i int) *ecdsa.PrivateKey {
				return privateKey(&v.SecretKeys[i], &v.Uncompressed[i])
			}),
		key(vocab.Secp256k1PublicKey, vocab.Compressed): made("crypto.CompressPubkey of the *ecdsa.PublicKey (libsecp256k1's secp256k1_ec_pubkey_serialize), its 33-byte slice's array kept",
			func(v *secpkit.Values, i int) *[33]byte {
				return (*[33]byte)(crypto.CompressPubkey(publicKey(&v.Uncompressed[i])))
			}),
		key(vocab.Secp256k1PublicKey, vocab.Uncompressed): made("crypto.FromECDSAPub of the *ecdsa.PublicKey, its 65-byte slice's array kept",
			func(v *secpkit.Values, i int) *[65]byte {
				return (*[65]byte)(crypto.FromECDSAPub(publicKey(&v.Uncompressed[i])))
			}),
		key(vocab.Secp256k1PublicKey, vocab.Decoded): made("crypto.UnmarshalPubkey of 65 bytes: *ecdsa.PublicKey with *big.Int X and Y, the key crypto.SigToPub returns",
			func(v *secpkit.Values, i int) *ecdsa.PublicKey { return publicKey(&v.Uncompressed[i]) }),
		key(vocab.Secp256k1PublicKey, vocab.Address): made("new(common.Address) set to crypto.PubkeyToAddress of the key",
			func(v *secpkit.Values, i int) *common.Address {
				a := new(common.Address)
				*a = crypto.PubkeyToAddress(*publicKey(&v.Uncompressed[i]))
				return a
			}),
		key(vocab.Secp256k1Signature, vocab.RSV): made("new([65]byte) holding crypto.Sign's R‖S‖V (crypto.Sign allocates the same 65-byte pointer-free object: a signature per instance is too slow for N of them)",
			func(v *secpkit.Values, i int) *[65]byte { s := new([65]byte); *s = v.RSV[i]; return s }),
		key(vocab.Secp256k1Signature, vocab.RS): made("new([64]byte) holding the R‖S of crypto.Sign's signature",
			func(v *secpkit.Values, i int) *[64]byte { s := new([64]byte); *s = [64]byte(v.RSV[i][:64]); return s }),
	}
	for _, f := range senderForms {
		for _, n := range secpkit.Populations {
			m[results.Key{Type: vocab.SenderCache, Lib: libOf(vocab.SenderCache, f), Repr: f, Layout: measure.Collection, Param: secpkit.PopulationParam(n)}] = senderImpl(f, n)
		}
	}
	return m
}

// made is a pointer-layout entry whose instance i is what newInstance
// makes from value i%Distinct.
func made[T any](constructor string, newInstance func(v *secpkit.Values, i int) *T) secpkit.Impl {
	return secpkit.Impl{Constructor: constructor, SizeHint: unsafe.Sizeof(*new(T)),
		Case: func() memprof.Case { return secpkit.Pointer(values, newInstance) }}
}

// sigCache is go-ethereum's core/types.sigCache field for field (the type
// is unexported; TestSigCacheLayout checks this one against it): the
// signer that recovered a transaction's sender, and the sender.
type sigCache struct {
	signer types.Signer
	from   common.Address
}

// pooledTx is a transaction as far as its sender is concerned: go-ethereum's
// types.Transaction holds the recovered sender in its field
// from atomic.Pointer[sigCache].
type pooledTx struct {
	from atomic.Pointer[sigCache]
}

// signer is the one signer every sigCache points to, as in go-ethereum's
// pool (a chain's latest signer).
var signer = types.LatestSignerForChainID(big.NewInt(1))

// senderImpl is go-ethereum's sender-cache form f of n transactions.
func senderImpl(f vocab.Repr, n int) secpkit.Impl {
	switch f {
	case vocab.MapAddress:
		return secpkit.Impl{
			Constructor: secpkit.SenderCacheConstructor("map[[32]byte]common.Address", "the sender's address, crypto.Keccak256 of the uncompressed key (as the ecRecover precompile derives it)", n),
			SizeHint:    unsafe.Sizeof(common.Address{}),
			Case: func() memprof.Case {
				return secpkit.SenderCase(unsafe.Sizeof(common.Address{}), func(s [][65]byte, n int) any {
					m := make(map[[32]byte]common.Address)
					for i := range n {
						m[secpkit.TxHash(i)] = common.BytesToAddress(crypto.Keccak256(s[i][1:])[12:])
					}
					return m
				})
			},
		}
	case vocab.MapPointer:
		return secpkit.Impl{
			Constructor: secpkit.SenderCacheConstructor("map[[32]byte]*ecdsa.PublicKey", "the sender's key as crypto.SigToPub returns it (crypto.UnmarshalPubkey of the recovered 65 bytes)", n),
			SizeHint:    unsafe.Sizeof(ecdsa.PublicKey{}),
			Case: func() memprof.Case {
				return secpkit.SenderCase(unsafe.Sizeof(ecdsa.PublicKey{}), func(s [][65]byte, n int) any {
					m := make(map[[32]byte]*ecdsa.PublicKey)
					for i := range n {
						m[secpkit.TxHash(i)] = publicKey(&s[i])
					}
					return m
				})
			},
		}
	case vocab.SigCache:
		return secpkit.Impl{
			Constructor: secpkit.SenderCacheConstructor("map[[32]byte]*tx, tx holding go-ethereum's Transaction.from atomic.Pointer[sigCache] and nothing else",
				"a sigCache{signer types.Signer (one shared signer), from common.Address} stored in it, as types.Sender caches a recovered sender", n),
			SizeHint: unsafe.Sizeof(sigCache{}),
			Case: func() memprof.Case {
				return secpkit.SenderCase(unsafe.Sizeof(sigCache{}), func(s [][65]byte, n int) any {
					m := make(map[[32]byte]*pooledTx)
					for i := range n {
						tx := new(pooledTx)
						tx.from.Store(&sigCache{signer: signer, from: common.BytesToAddress(crypto.Keccak256(s[i][1:])[12:])})
						m[secpkit.TxHash(i)] = tx
					}
					return m
				})
			},
		}
	}
	panic("libsecp256k1: unknown SenderCache form " + string(f))
}

// verify applies Ethereum's low-S rule, then libsecp256k1's verification
// of rs under pub (33 or 65 bytes).
func verify(pub, hash, rs []byte) (bool, error) {
	if !secpkit.EthereumRule(rs) {
		return false, secpkit.ErrRule
	}
	return crypto.VerifySignature(pub, hash, rs), nil
}

// recoverAddress is the ecRecover precompile's path from R‖S‖V: its check
// of r and s (crypto.ValidateSignatureValues without homestead: a high S
// allowed), crypto.Ecrecover, and the last 20 bytes of the Keccak-256 of
// the key.
func recoverAddress(hash, rsv []byte) (common.Address, error) {
	if !secpkit.PrecompileRule(rsv[:64]) {
		return common.Address{}, secpkit.ErrRule
	}
	pub, err := crypto.Ecrecover(hash, rsv)
	if err != nil {
		return common.Address{}, err
	}
	return common.BytesToAddress(crypto.Keccak256(pub[1:])[12:]), nil
}

// pubBytes is the Result of an operation that makes a key.
func pubBytes(p *ecdsa.PublicKey) []byte { return crypto.FromECDSAPub(p) }

func addressBytes(a common.Address) []byte { return a.Bytes() }

func sliceBytes(b []byte) []byte { return b }

// opImpls returns every row go-ethereum offers.
func opImpls() map[secpkit.Row]secpkit.OpImpl {
	ops := secretKeyOps()
	maps.Copy(ops, publicKeyOps())
	maps.Copy(ops, signatureOps())
	return ops
}

// decodedKey and decodedPub decode the input's key outside the timing.
func decodedKey(in *secpkit.Input) (*ecdsa.PrivateKey, error) { return crypto.ToECDSA(in.SecretKey[:]) }

func decodedPub(in *secpkit.Input) (*ecdsa.PublicKey, error) {
	return crypto.UnmarshalPubkey(in.Uncompressed[:])
}

// secretKeyOps returns the rows of the secret key: signing and its two conversions.
func secretKeyOps() map[secpkit.Row]secpkit.OpImpl {
	sk := vocab.Secp256k1SecretKey
	row, conv, impl := secpkit.RowOf, secpkit.ConvOf, secpkit.ImplOf
	return map[secpkit.Row]secpkit.OpImpl{
		row(sk, vocab.ByteForm, vocab.Sign): impl("secp256k1.Sign of the 32 bytes (libsecp256k1's secp256k1_ecdsa_sign_recoverable, RFC 6979)", []string{"secp256k1.Sign"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.Produce(func() ([]byte, error) { return secp256k1.Sign(in.Hash[:], in.SecretKey[:]) }, sliceBytes), nil
			}),
		row(sk, vocab.Decoded, vocab.Sign): impl("crypto.Sign of the *ecdsa.PrivateKey (D padded to 32 bytes, then secp256k1.Sign)", []string{"crypto.Sign"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				k, err := decodedKey(in)
				return secpkit.Produce(func() ([]byte, error) { return crypto.Sign(in.Hash[:], k) }, sliceBytes), err
			}),
		conv(sk, vocab.ByteForm, vocab.Decoded): impl("crypto.ToECDSA (checks 0 < d < N, computes the public key with libsecp256k1)", []string{"crypto.ToECDSA"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.Produce(func() (*ecdsa.PrivateKey, error) { return crypto.ToECDSA(in.SecretKey[:]) }, crypto.FromECDSA), nil
			}),
		conv(sk, vocab.Decoded, vocab.ByteForm): impl("crypto.FromECDSA", []string{"crypto.FromECDSA"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				k, err := decodedKey(in)
				return secpkit.Produce(func() ([]byte, error) { return crypto.FromECDSA(k), nil }, sliceBytes), err
			}),
	}
}

// publicKeyOps returns the rows of the public key: verification, re-encoding and the address.
func publicKeyOps() map[secpkit.Row]secpkit.OpImpl {
	pk := vocab.Secp256k1PublicKey
	row, impl := secpkit.RowOf, secpkit.ImplOf
	const rule = "low-S rule"
	return map[secpkit.Row]secpkit.OpImpl{
		row(pk, vocab.Compressed, vocab.Verify): impl("crypto.VerifySignature of the 33-byte key (libsecp256k1 parses it in the call)", []string{rule, "crypto.VerifySignature"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.Verified(func() (bool, error) { return verify(in.Compressed[:], in.Hash[:], in.RS()) }), nil
			}),
		row(pk, vocab.Uncompressed, vocab.Verify): impl("crypto.VerifySignature of the 65-byte key", []string{rule, "crypto.VerifySignature"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.Verified(func() (bool, error) { return verify(in.Uncompressed[:], in.Hash[:], in.RS()) }), nil
			}),
		row(pk, vocab.Decoded, vocab.Verify): impl("crypto.FromECDSAPub of the *ecdsa.PublicKey, then crypto.VerifySignature (libsecp256k1 takes bytes)", []string{rule, "crypto.FromECDSAPub", "crypto.VerifySignature"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				p, err := decodedPub(in)
				return secpkit.Verified(func() (bool, error) { return verify(crypto.FromECDSAPub(p), in.Hash[:], in.RS()) }), err
			}),
		row(pk, vocab.Address, vocab.Verify): impl("the low-S rule, crypto.Ecrecover, crypto.Keccak256 of the key, compared with the address", []string{rule, "crypto.Ecrecover", "crypto.Keccak256", "compare"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				want := common.Address(in.Address)
				return secpkit.FromAddress(in, recoverAddress, want), nil
			}),
		row(pk, vocab.Uncompressed, vocab.Compress): impl("crypto.UnmarshalPubkey (checks the point), then crypto.CompressPubkey", []string{"crypto.UnmarshalPubkey", "crypto.CompressPubkey"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.Reencode(in.Uncompressed[:], crypto.UnmarshalPubkey, crypto.CompressPubkey, sliceBytes), nil
			}),
		row(pk, vocab.Decoded, vocab.Compress): impl("crypto.CompressPubkey of the *ecdsa.PublicKey", []string{"crypto.CompressPubkey"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				p, err := decodedPub(in)
				return secpkit.Produce(func() ([]byte, error) { return crypto.CompressPubkey(p), nil }, sliceBytes), err
			}),
		row(pk, vocab.Compressed, vocab.Serialize): impl("crypto.DecompressPubkey (libsecp256k1 decompresses), then crypto.FromECDSAPub", []string{"crypto.DecompressPubkey", "crypto.FromECDSAPub"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.Reencode(in.Compressed[:], crypto.DecompressPubkey, crypto.FromECDSAPub, sliceBytes), nil
			}),
		row(pk, vocab.Decoded, vocab.Serialize): impl("crypto.FromECDSAPub of the *ecdsa.PublicKey", []string{"crypto.FromECDSAPub"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				p, err := decodedPub(in)
				return secpkit.Produce(func() ([]byte, error) { return crypto.FromECDSAPub(p), nil }, sliceBytes), err
			}),
		row(pk, vocab.Compressed, vocab.Decompress): impl("crypto.DecompressPubkey to *ecdsa.PublicKey", []string{"crypto.DecompressPubkey"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.Produce(func() (*ecdsa.PublicKey, error) { return crypto.DecompressPubkey(in.Compressed[:]) }, pubBytes), nil
			}),
		row(pk, vocab.Uncompressed, vocab.Decompress): impl("crypto.UnmarshalPubkey to *ecdsa.PublicKey (checks the point on the curve)", []string{"crypto.UnmarshalPubkey"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.Produce(func() (*ecdsa.PublicKey, error) { return crypto.UnmarshalPubkey(in.Uncompressed[:]) }, pubBytes), nil
			}),
		row(pk, vocab.Compressed, vocab.ToAddress): impl("crypto.DecompressPubkey, then crypto.PubkeyToAddress", []string{"crypto.DecompressPubkey", "crypto.PubkeyToAddress"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.Produce(func() (common.Address, error) {
					p, err := crypto.DecompressPubkey(in.Compressed[:])
					if err != nil {
						return common.Address{}, err
					}
					return crypto.PubkeyToAddress(*p), nil
				}, addressBytes), nil
			}),
		row(pk, vocab.Uncompressed, vocab.ToAddress): impl("crypto.Keccak256 of the 64 bytes after the 0x04 prefix, last 20 bytes (no check of the point)", []string{"crypto.Keccak256"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.Produce(func() (common.Address, error) {
					return common.BytesToAddress(crypto.Keccak256(in.Uncompressed[1:])[12:]), nil
				}, addressBytes), nil
			}),
		row(pk, vocab.Decoded, vocab.ToAddress): impl("crypto.PubkeyToAddress of the *ecdsa.PublicKey", []string{"crypto.PubkeyToAddress"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				p, err := decodedPub(in)
				return secpkit.Produce(func() (common.Address, error) { return crypto.PubkeyToAddress(*p), nil }, addressBytes), err
			}),
	}
}

// signatureOps returns the rows of the signature: verification and recovery.
func signatureOps() map[secpkit.Row]secpkit.OpImpl {
	sig := vocab.Secp256k1Signature
	row, impl := secpkit.RowOf, secpkit.ImplOf
	const rule = "low-S rule"
	return map[secpkit.Row]secpkit.OpImpl{
		row(sig, vocab.RSV, vocab.Verify): impl("crypto.VerifySignature of the first 64 bytes under the 65-byte key", []string{rule, "crypto.VerifySignature"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.Verified(func() (bool, error) { return verify(in.Uncompressed[:], in.Hash[:], in.RSV[:64]) }), nil
			}),
		row(sig, vocab.RS, vocab.Verify): impl("crypto.VerifySignature of R‖S under the 65-byte key", []string{rule, "crypto.VerifySignature"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				rs := bytes.Clone(in.RS())
				return secpkit.Verified(func() (bool, error) { return verify(in.Uncompressed[:], in.Hash[:], rs) }), nil
			}),
		row(sig, vocab.RSV, vocab.Recover): impl("crypto.SigToPub: libsecp256k1's recovery, then crypto.UnmarshalPubkey to *ecdsa.PublicKey", []string{"crypto.SigToPub"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.Produce(func() (*ecdsa.PublicKey, error) { return crypto.SigToPub(in.Hash[:], in.RSV[:]) }, pubBytes), nil
			}),
		row(sig, vocab.RSV, vocab.RecoverAddress): impl("the precompile's path: r, s in [1, N), crypto.Ecrecover, crypto.Keccak256 of the key", []string{"precompile rule", "crypto.Ecrecover", "crypto.Keccak256"},
			func(in *secpkit.Input) (secpkit.Call, error) {
				return secpkit.Produce(func() (common.Address, error) { return recoverAddress(in.Hash[:], in.RSV[:]) }, addressBytes), nil
			}),
	}
}

// agreeLibs are go-ethereum's parts of the agreement check: libsecp256k1
// on bytes, and go-ethereum's own objects (*ecdsa.PrivateKey,
// *ecdsa.PublicKey) on every path that has them.
func agreeLibs() []suites.FamilyAgreeLib {
	return []suites.FamilyAgreeLib{agreeLib(), objectsAgreeLib()}
}

// objectsAgreeLib is go-ethereum's objects' part of the agreement check:
// each answer goes through the *ecdsa.PrivateKey or *ecdsa.PublicKey the
// decoded rows keep.
func objectsAgreeLib() suites.FamilyAgreeLib {
	toKey := func(sk []byte) (*ecdsa.PrivateKey, error) { return crypto.ToECDSA(sk) }
	toPub := func(b []byte) (*ecdsa.PublicKey, error) {
		if len(b) == secpkit.CompressedBytes {
			return crypto.DecompressPubkey(b)
		}
		return crypto.UnmarshalPubkey(b)
	}
	return suites.FamilyAgreeLib{Family: vocab.Secp256k1, Lib: vocab.GoEthereum, Impl: &secpkit.AgreeLib{
		PublicKey: func(sk []byte) ([]byte, []byte, error) {
			k, err := toKey(sk)
			if err != nil {
				return nil, nil, err
			}
			return crypto.CompressPubkey(&k.PublicKey), crypto.FromECDSAPub(&k.PublicKey), nil
		},
		Address: func(sk []byte) ([]byte, error) {
			k, err := toKey(sk)
			if err != nil {
				return nil, err
			}
			return crypto.PubkeyToAddress(k.PublicKey).Bytes(), nil
		},
		Sign: func(sk, hash []byte) ([]byte, error) {
			k, err := toKey(sk)
			if err != nil {
				return nil, err
			}
			return crypto.Sign(hash, k)
		},
		Verify: func(pub, hash, rs []byte) (bool, error) {
			p, err := toPub(pub)
			if err != nil {
				return false, err
			}
			return crypto.VerifySignature(crypto.FromECDSAPub(p), hash, rs), nil
		},
		Recover: func(hash, rsv []byte) ([]byte, error) {
			p, err := crypto.SigToPub(hash, rsv)
			if err != nil {
				return nil, err
			}
			return crypto.FromECDSAPub(p), nil
		},
		Decompress: decompress,
		Compress:   compress,
	}}
}

// agreeLib is libsecp256k1's part of the agreement check.
func agreeLib() suites.FamilyAgreeLib {
	return suites.FamilyAgreeLib{Family: vocab.Secp256k1, Lib: lib, Impl: &secpkit.AgreeLib{
		PublicKey: func(sk []byte) ([]byte, []byte, error) {
			k, err := crypto.ToECDSA(sk)
			if err != nil {
				return nil, nil, err
			}
			return crypto.CompressPubkey(&k.PublicKey), crypto.FromECDSAPub(&k.PublicKey), nil
		},
		Address: func(sk []byte) ([]byte, error) {
			k, err := crypto.ToECDSA(sk)
			if err != nil {
				return nil, err
			}
			return crypto.PubkeyToAddress(k.PublicKey).Bytes(), nil
		},
		Sign: func(sk, hash []byte) ([]byte, error) { return secp256k1.Sign(hash, sk) },
		Verify: func(pub, hash, rs []byte) (bool, error) {
			return crypto.VerifySignature(pub, hash, rs), nil
		},
		Recover:    func(hash, rsv []byte) ([]byte, error) { return crypto.Ecrecover(hash, rsv) },
		Decompress: decompress,
		Compress:   compress,
	}}
}

// decompress and compress convert a public key between its compressed
// and uncompressed encodings through go-ethereum's crypto package, which
// both its and libsecp256k1's agreement parts use for them.
func decompress(c []byte) ([]byte, error) {
	p, err := crypto.DecompressPubkey(c)
	if err != nil {
		return nil, err
	}
	return crypto.FromECDSAPub(p), nil
}

func compress(u []byte) ([]byte, error) {
	p, err := crypto.UnmarshalPubkey(u)
	if err != nil {
		return nil, err
	}
	return crypto.CompressPubkey(p), nil
}
