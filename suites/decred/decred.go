// Package decred registers the secp256k1 cases of
// github.com/decred/dcrd/dcrec/secp256k1/v4 and its ecdsa package, pure
// Go: *secp256k1.PrivateKey, *secp256k1.PublicKey (affine coordinates as
// two field elements held by value) and *ecdsa.Signature (R and S as two
// scalars by value). Decred has no Keccak and no Ethereum address: the
// harness hashes with golang.org/x/crypto/sha3's legacy Keccak-256. Its
// 65-byte compact signature is V‖R‖S with V = 27 + recovery id (+4 for a
// compressed key); the harness converts it to and from Ethereum's R‖S‖V
// (secpkit.RSVFromCompact, secpkit.CompactFromRSV), as go-ethereum's
// build without cgo does. The package also gives the family's agreement
// check (suites/agree/secp256k1), since decred runs in every build.
package decred

import (
	"errors"
	"sync"
	"unsafe"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	agree "github.com/memprof/memprof/suites/agree/secp256k1"
	"github.com/memprof/memprof/suites/internal/secpkit"
	"github.com/memprof/memprof/vocab"
)

// lib is the library name in the registry.
const lib = vocab.Decred

// Module is decred's secp256k1 module path, whose version results record.
const Module = "github.com/decred/dcrd/dcrec/secp256k1/v4"

// senderForms are decred's forms of the SenderCache scenario.
var senderForms = []vocab.Repr{vocab.MapAddress, vocab.MapPointer}

// Suite returns decred's secp256k1 entries, operations, agreement
// library and the family's agreement check.
func Suite() suites.Suite {
	keys := append(secpkit.ObjectKeys(lib), secpkit.SenderCacheKeys(lib, senderForms...)...)
	return suites.Suite{
		Name:        string(lib),
		Modules:     []string{Module},
		Entries:     secpkit.Entries(keys, func(results.Key) vocab.Why { return vocab.Why{} }, vocab.Why{}, entryImpls()),
		Ops:         secpkit.Ops(secpkit.LibOps{Lib: lib, Impls: opImpls()}),
		FamilyAgree: []suites.FamilyAgreeLib{{Family: vocab.Secp256k1, Lib: lib, Impl: agreeLib()}},
		Checks:      []suites.FamilyCheck{agree.Check},
	}
}

// rsv converts decred's compact signature to R‖S‖V.
func rsv(compact []byte) ([65]byte, error) {
	var out [65]byte
	return out, secpkit.RSVFromCompact(&out, compact)
}

// values are decred's Distinct values: keys from PrivKeyFromBytes, public
// keys from PubKey, signatures from ecdsa.SignCompact (converted to
// R‖S‖V) and ecdsa.Sign's DER.
var values = secpkit.ValuesOf(string(lib), func(sk *[32]byte, hash *[32]byte) (c [33]byte, u [65]byte, sig [65]byte, der []byte, err error) {
	k := secp256k1.PrivKeyFromBytes(sk[:])
	p := k.PubKey()
	if sig, err = rsv(ecdsa.SignCompact(k, hash[:], false)); err != nil {
		return c, u, sig, nil, err
	}
	return [33]byte(p.SerializeCompressed()), [65]byte(p.SerializeUncompressed()), sig, ecdsa.Sign(k, hash[:]).Serialize(), nil
})

// objects are the values decoded into decred's types, once.
var objects = sync.OnceValue(func() (o struct {
	pubs []*secp256k1.PublicKey
	sigs []*ecdsa.Signature
}) {
	v := values()
	for i := range secpkit.Distinct {
		p, err := secp256k1.ParsePubKey(v.Uncompressed[i][:])
		if err != nil {
			panic("decred: " + err.Error())
		}
		s, err := ecdsa.ParseDERSignature(v.DER[i])
		if err != nil {
			panic("decred: " + err.Error())
		}
		o.pubs, o.sigs = append(o.pubs, p), append(o.sigs, s)
	}
	return o
})

// entryImpls returns the constructor of every entry.
func entryImpls() map[results.Key]secpkit.Impl {
	key := func(t vocab.Type, r vocab.Repr) results.Key {
		return results.Key{Type: t, Lib: lib, Repr: r, Layout: measure.Pointer}
	}
	m := map[results.Key]secpkit.Impl{
		key(vocab.Secp256k1SecretKey, vocab.ByteForm): made("(secp256k1.PrivateKey).Serialize, its 32-byte slice's array kept ((*[32]byte)(b), no copy)",
			func(v *secpkit.Values, i int) *[32]byte {
				return (*[32]byte)(secp256k1.PrivKeyFromBytes(v.SecretKeys[i][:]).Serialize())
			}),
		key(vocab.Secp256k1SecretKey, vocab.Decoded): made("secp256k1.PrivKeyFromBytes of 32 bytes: *secp256k1.PrivateKey (the scalar by value)",
			func(v *secpkit.Values, i int) *secp256k1.PrivateKey {
				return secp256k1.PrivKeyFromBytes(v.SecretKeys[i][:])
			}),
		key(vocab.Secp256k1PublicKey, vocab.Compressed): made("(*secp256k1.PublicKey).SerializeCompressed, its 33-byte slice's array kept",
			func(_ *secpkit.Values, i int) *[33]byte { return (*[33]byte)(objects().pubs[i].SerializeCompressed()) }),
		key(vocab.Secp256k1PublicKey, vocab.Uncompressed): made("(*secp256k1.PublicKey).SerializeUncompressed, its 65-byte slice's array kept",
			func(_ *secpkit.Values, i int) *[65]byte {
				return (*[65]byte)(objects().pubs[i].SerializeUncompressed())
			}),
		key(vocab.Secp256k1PublicKey, vocab.Decoded): made("secp256k1.ParsePubKey of 65 bytes: *secp256k1.PublicKey (x, y as field elements by value), the key ecdsa.RecoverCompact returns",
			func(v *secpkit.Values, i int) *secp256k1.PublicKey {
				p, err := secp256k1.ParsePubKey(v.Uncompressed[i][:])
				if err != nil {
					panic("decred: " + err.Error())
				}
				return p
			}),
		key(vocab.Secp256k1PublicKey, vocab.Address): made("new([20]byte) set to the address of SerializeUncompressed (decred has no Keccak: golang.org/x/crypto/sha3's)",
			func(_ *secpkit.Values, i int) *[20]byte {
				a := new([20]byte)
				*a = secpkit.Address(objects().pubs[i].SerializeUncompressed())
				return a
			}),
		key(vocab.Secp256k1Signature, vocab.RSV): made("new([65]byte) holding ecdsa.SignCompact's V‖R‖S converted to R‖S‖V (SignCompact allocates the same 65-byte pointer-free object: a signature per instance is too slow for N of them)",
			func(v *secpkit.Values, i int) *[65]byte { s := new([65]byte); *s = v.RSV[i]; return s }),
		key(vocab.Secp256k1Signature, vocab.RS): made("new([64]byte) holding the R‖S of the signature",
			func(v *secpkit.Values, i int) *[64]byte { s := new([64]byte); *s = [64]byte(v.RSV[i][:64]); return s }),
		key(vocab.Secp256k1Signature, vocab.Decoded): made("ecdsa.NewSignature of R and S: *ecdsa.Signature (two scalars by value)",
			func(_ *secpkit.Values, i int) *ecdsa.Signature {
				s := objects().sigs[i]
				r, ss := s.R(), s.S()
				return ecdsa.NewSignature(&r, &ss)
			}),
	}
	m[key(vocab.Secp256k1Signature, vocab.DER)] = secpkit.Impl{
		Constructor: "(*ecdsa.Signature).Serialize: DER of at most 72 bytes (strict, low S), the slice's backing array kept (a []byte field holds its 24-byte header beside)",
		SizeHint:    secpkit.MaxDERBytes,
		Case: func() memprof.Case {
			c := secpkit.Pointer(values, func(_ *secpkit.Values, i int) *byte { return unsafe.SliceData(objects().sigs[i].Serialize()) })
			c.SizeOf = secpkit.MaxDERBytes
			return c
		},
	}
	for _, n := range secpkit.Populations {
		m[results.Key{Type: vocab.SenderCache, Lib: lib, Repr: vocab.MapAddress, Layout: measure.Collection, Param: secpkit.PopulationParam(n)}] = secpkit.Impl{
			Constructor: secpkit.SenderCacheConstructor("map[[32]byte][20]byte", "the sender's address, Keccak-256 of (*secp256k1.PublicKey).SerializeUncompressed", n),
			SizeHint:    unsafe.Sizeof([20]byte{}),
			Case: func() memprof.Case {
				return secpkit.SenderCase(unsafe.Sizeof([20]byte{}), func(s [][65]byte, n int) any {
					m := make(map[[32]byte][20]byte)
					for i := range n {
						p := parse(s[i][:])
						m[secpkit.TxHash(i)] = secpkit.Address(p.SerializeUncompressed())
					}
					return m
				})
			},
		}
		m[results.Key{Type: vocab.SenderCache, Lib: lib, Repr: vocab.MapPointer, Layout: measure.Collection, Param: secpkit.PopulationParam(n)}] = secpkit.Impl{
			Constructor: secpkit.SenderCacheConstructor("map[[32]byte]*secp256k1.PublicKey", "the sender's key as ecdsa.RecoverCompact returns it (secp256k1.ParsePubKey of the 65 bytes makes the same object)", n),
			SizeHint:    unsafe.Sizeof(secp256k1.PublicKey{}),
			Case: func() memprof.Case {
				return secpkit.SenderCase(unsafe.Sizeof(secp256k1.PublicKey{}), func(s [][65]byte, n int) any {
					m := make(map[[32]byte]*secp256k1.PublicKey)
					for i := range n {
						m[secpkit.TxHash(i)] = parse(s[i][:])
					}
					return m
				})
			},
		}
	}
	return m
}

// parse decodes a key of the scenario, which Senders made on the curve.
func parse(u []byte) *secp256k1.PublicKey {
	p, err := secp256k1.ParsePubKey(u)
	if err != nil {
		panic("decred: " + err.Error())
	}
	return p
}

// made is a pointer-layout entry whose instance i is what newInstance
// makes from value i%Distinct.
func made[T any](constructor string, newInstance func(v *secpkit.Values, i int) *T) secpkit.Impl {
	return secpkit.Impl{Constructor: constructor, SizeHint: unsafe.Sizeof(*new(T)),
		Case: func() memprof.Case {
			c := secpkit.Pointer(values, newInstance)
			prepare := c.Prepare
			c.Prepare = func(n int) error { objects(); return prepare(n) }
			return c
		}}
}

// errKey is what a decode of 32 bytes returns for 0 or a value >= N.
var errKey = errors.New("invalid secret key: zero or >= N")

// secretKey decodes 32 bytes into k, refusing 0 and values >= N (decred's
// PrivKeyFromBytes reduces modulo N without a word), as go-ethereum's
// build without cgo decodes a key before signing.
func secretKey(k *secp256k1.PrivateKey, b []byte) error {
	if overflow := k.Key.SetByteSlice(b); overflow || k.Key.IsZero() {
		return errKey
	}
	return nil
}

// errScalar is what a decode of R‖S returns for r or s >= N.
var errScalar = errors.New("invalid signature: r or s >= N")

// signature decodes R‖S, refusing r or s >= N.
func signature(rs []byte) (*ecdsa.Signature, error) {
	var r, s secp256k1.ModNScalar
	if r.SetByteSlice(rs[:32]) || s.SetByteSlice(rs[32:64]) {
		return nil, errScalar
	}
	return ecdsa.NewSignature(&r, &s), nil
}

// rsBytes is R‖S of a decoded signature.
func rsBytes(sig *ecdsa.Signature) []byte {
	out := make([]byte, 64)
	r, s := sig.R(), sig.S()
	r.PutBytesUnchecked(out[:32])
	s.PutBytesUnchecked(out[32:])
	return out
}

// rule is Ethereum's rule on a decoded signature, whose scalars are below
// N by construction: r and s not zero, s at most N/2.
func rule(sig *ecdsa.Signature) bool {
	r, s := sig.R(), sig.S()
	return !r.IsZero() && !s.IsZero() && !s.IsOverHalfOrder()
}

// recoverKey recovers the key of R‖S‖V through decred's compact form.
func recoverKey(hash, sig []byte) (*secp256k1.PublicKey, error) {
	var c [65]byte
	if err := secpkit.CompactFromRSV(&c, sig); err != nil {
		return nil, err
	}
	p, _, err := ecdsa.RecoverCompact(c[:], hash)
	return p, err
}
