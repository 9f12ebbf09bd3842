// Package pqscenarios holds the post-quantum scenarios: a TLS client with
// its X25519MLKEM768 handshakes in flight (TLSHandshakes), the server's
// cost per handshake, and a cache of ML-DSA-65 public keys
// (MLDSAPubkeyCache), packed against each library's parsed form. Their
// bytes, GC scan bytes and GC mark time per entry come from the engine, as
// the PubkeyCache scenarios' do.
package pqscenarios

import (
	"bytes"
	"crypto/ecdh"
	"encoding/hex"
	"fmt"
	"reflect"
	"unsafe"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/circlpq"
	"github.com/memprof/memprof/suites/filippomldsa"
	"github.com/memprof/memprof/suites/internal/pqkit"
	"github.com/memprof/memprof/suites/stdmlkem"
	"github.com/memprof/memprof/vocab"
)

// The scales the scenarios are measured at by default: handshakes in
// flight of a busy TLS client, keys of a validator set or a certificate
// cache.
const (
	Handshakes = 10_000
	CacheKeys  = 100_000
)

// The X25519 test vector of RFC 7748, section 6.1: Alice's and Bob's
// private and public keys and their shared secret (the known answer of
// the hybrid's X25519 half).
var (
	alicePriv = unhex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")
	alicePub  = unhex("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
	bobPriv   = unhex("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb")
	bobPub    = unhex("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")
	x25519Key = unhex("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742")
)

func unhex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// Handshake is what a TLS client keeps per X25519MLKEM768 handshake in
// flight, as crypto/tls does: the ML-KEM-768 decapsulation key (K, in the
// form the entry names), the X25519 private key, and the 1,216-byte key
// share it sent (the encapsulation key, then the X25519 public key).
type Handshake[K any] struct {
	MLKEM K
	ECDHE *ecdh.PrivateKey
	Share []byte
}

// handshakeValues are the values the handshakes copy: Distinct ML-KEM
// keys, X25519 keys' bytes and key shares.
type handshakeValues[DK any] struct {
	dks            []*DK
	seeds, packed  [][]byte
	x25519, shares [][]byte
}

func tlsValues[DK, EK any](d pqkit.KEM[DK, EK]) (*handshakeValues[DK], error) {
	v := &handshakeValues[DK]{}
	for i := range pqkit.Distinct {
		seed := pqkit.Seed(i, d.SeedSize)
		dk, err := d.KeyGen.Do(seed)
		if err != nil {
			return nil, err
		}
		x := pqkit.Seed(pqkit.Distinct+i, 32)
		xk, err := ecdh.X25519().NewPrivateKey(x)
		if err != nil {
			return nil, err
		}
		share := append(d.PackEK.Do(d.EKOf(dk)), xk.PublicKey().Bytes()...)
		v.dks, v.seeds, v.x25519, v.shares = append(v.dks, dk), append(v.seeds, seed), append(v.x25519, x), append(v.shares, share)
		if d.PackDK.Lacks.IsZero() {
			v.packed = append(v.packed, d.PackDK.Do(dk))
		}
	}
	return v, nil
}

// tlsCase is the case of N TLS handshakes, the i-th holding the ML-KEM key
// in the form mk makes of value i%Distinct, a new X25519 key of that
// value's bytes (ecdh.X25519().NewPrivateKey, the key crypto/tls's
// ecdh.GenerateKey makes) and a copy of its key share, held by pointer in
// a slice sized up front (a connection table).
func tlsCase[DK, EK, K any](d pqkit.KEM[DK, EK], mk func(v *handshakeValues[DK], i int) K) memprof.Case {
	var v *handshakeValues[DK]
	return memprof.Case{
		SizeOf: unsafe.Sizeof(Handshake[K]{}),
		Prepare: func(int) (err error) {
			v, err = tlsValues(d)
			return err
		},
		NewAll: func(n int) any {
			hs := make([]*Handshake[K], n)
			for i := range hs {
				j := i % len(v.dks)
				xk, err := ecdh.X25519().NewPrivateKey(v.x25519[j])
				if err != nil {
					panic(err)
				}
				hs[i] = &Handshake[K]{MLKEM: mk(v, j), ECDHE: xk, Share: bytes.Clone(v.shares[j])}
			}
			return &hs
		},
	}
}

// tls is one library's TLS scenario: entries and operations.
func tls[DK, EK any](d pqkit.KEM[DK, EK]) ([]suites.Entry, []suites.Op) {
	key := func(r vocab.Repr) results.Key {
		return results.Key{Type: vocab.TLSHandshakes, Lib: d.Lib, Repr: r, Layout: measure.Collection, Param: d.Set.Param()}
	}
	held := "per handshake, held by pointer in a slice of N: a new ecdh.PrivateKey (ecdh.X25519().NewPrivateKey), a copy of the 1,216-byte key share (encapsulation key ‖ X25519 public key) and "
	entries := []suites.Entry{
		{Key: key(vocab.Parsed), DefaultN: Handshakes, SizeHint: unsafe.Sizeof(Handshake[*DK]{}),
			Constructor: held + "the ML-KEM-768 key parsed as " + d.DKName + " (a pqkit.Clone of one of 16 made by " + d.KeyGen.API + "), as crypto/tls keeps it",
			Case: func() memprof.Case {
				return tlsCase(d, func(v *handshakeValues[DK], j int) *DK { return pqkit.Clone(v.dks[j]) })
			}},
		{Key: key(vocab.Seed), DefaultN: Handshakes, SizeHint: unsafe.Sizeof(Handshake[[64]byte]{}),
			Constructor: held + "the ML-KEM-768 seed d‖z by value, expanded again when the server's share arrives",
			Case: func() memprof.Case {
				return tlsCase(d, func(v *handshakeValues[DK], j int) [64]byte { return [64]byte(v.seeds[j]) })
			}},
		{Key: key(vocab.Packed)},
	}
	if d.PackDK.Lacks.IsZero() {
		entries[2].DefaultN, entries[2].SizeHint = Handshakes, unsafe.Sizeof(Handshake[[]byte]{})
		entries[2].Constructor = held + "the packed ML-KEM-768 decapsulation key of FIPS 203 in a new slice (" + d.PackDK.API + "), parsed again when the server's share arrives"
		entries[2].Case = func() memprof.Case {
			return tlsCase(d, func(v *handshakeValues[DK], j int) []byte { return bytes.Clone(v.packed[j]) })
		}
	} else {
		entries[2].Unavailable = d.PackDK.Lacks
	}
	for i := range entries {
		if entries[i].DefaultN != 0 {
			entries[i].NWhy = "the scenario's scale: the handshakes in flight of a busy TLS client"
		}
	}
	return entries, tlsOps(d)
}

// tlsOps are the handshake's two halves: the client's decapsulation of the
// server's share from every form it keeps its key in, and the server's
// work on the client's share.
func tlsOps[DK, EK any](d pqkit.KEM[DK, EK]) []suites.Op {
	return append(tlsClientOps(d), tlsServerOp(d))
}

// tlsOpKey is the key of the handshake's operation op from the form r.
func tlsOpKey[DK, EK any](d pqkit.KEM[DK, EK], r vocab.Repr, op vocab.Op) results.Key {
	return results.Key{Type: vocab.TLSHandshakes, Lib: d.Lib, Repr: r, Op: op, Batch: 1, Param: d.Set.Param()}
}

// tlsClientOps are the client's half, the decapsulation of the server's
// share and the X25519 secret, from every form the client keeps its
// ML-KEM key in.
func tlsClientOps[DK, EK any](d pqkit.KEM[DK, EK]) []suites.Op {
	vectors := func() (seed, c, k []byte, err error) {
		t, err := pqkit.DecapsVector(d.Set)
		return t.Seed, t.C, t.K, err
	}
	var out []suites.Op
	for _, from := range []struct {
		repr  vocab.Repr
		calls []string
		lacks vocab.Why
		load  func(seed []byte) (func() (*DK, error), error)
	}{
		{vocab.Parsed, nil, vocab.Why{}, func(seed []byte) (func() (*DK, error), error) {
			p, err := d.KeyGen.Do(seed)
			return func() (*DK, error) { return p, nil }, err
		}},
		{vocab.Seed, []string{d.KeyGen.API}, vocab.Why{}, func(seed []byte) (func() (*DK, error), error) {
			return func() (*DK, error) { return d.KeyGen.Do(seed) }, nil
		}},
		{vocab.Packed, []string{d.ParseDK.API}, d.PackDK.Lacks, func(seed []byte) (func() (*DK, error), error) {
			p, err := d.KeyGen.Do(seed)
			if err != nil {
				return nil, err
			}
			b := d.PackDK.Do(p)
			return func() (*DK, error) { return d.ParseDK.Do(b) }, nil
		}},
	} {
		o := suites.Op{Key: tlsOpKey(d, from.repr, vocab.Decapsulate)}
		if !from.lacks.IsZero() {
			o.Unavailable = from.lacks
			out = append(out, o)
			continue
		}
		o.Path = pqkit.Calls(append(from.calls, d.Decapsulate.API, "(*ecdh.PrivateKey).ECDH")...)
		o.Note = "the client's half on the server's share, from the ML-KEM key's " + string(from.repr) + " form: " + o.Path + "; ML-KEM's first valid Wycheproof test of the set and RFC 7748's X25519 vector (Alice's key, Bob's share); invalid input: the ciphertext one byte short"
		o.Prepare = func(in suites.OpInput) (suites.OpHarness, error) {
			seed, c, _, err := vectors()
			if err != nil {
				return suites.OpHarness{}, err
			}
			load, err := from.load(seed)
			if err != nil {
				return suites.OpHarness{}, err
			}
			if in.Invalid {
				c = c[:len(c)-1]
			}
			xk, err := ecdh.X25519().NewPrivateKey(alicePriv)
			if err != nil {
				return suites.OpHarness{}, err
			}
			peer, err := ecdh.X25519().NewPublicKey(bobPub)
			if err != nil {
				return suites.OpHarness{}, err
			}
			var out []byte
			return suites.OpHarness{
				Run: func() error {
					dk, err := load()
					if err != nil {
						return err
					}
					k, err := d.Decapsulate.Do(dk, c)
					if err != nil {
						return err
					}
					ss, err := xk.ECDH(peer)
					out = append(k, ss...)
					return err
				},
				Result: func() ([]byte, error) { return out, nil },
			}, nil
		}
		o.Want = func() ([]byte, error) {
			_, _, k, err := vectors()
			return append(bytes.Clone(k), x25519Key...), err
		}
		out = append(out, o)
	}
	return out
}

// tlsServerOp is the server's half: parse the client's share,
// encapsulate, make its X25519 key and the X25519 secret.
func tlsServerOp[DK, EK any](d pqkit.KEM[DK, EK]) suites.Op {
	server := suites.Op{Key: tlsOpKey(d, vocab.Packed, vocab.Encapsulate)}
	server.Path = pqkit.Calls(d.ParseEK.API, d.Encapsulate.API, "ecdh.X25519().NewPrivateKey", "(*ecdh.PrivateKey).ECDH")
	server.Note = "the server's work per handshake on the client's 1,216-byte share: " + server.Path + "; the first ACVP encapsulation vector of the set (its randomness m where crypto/tls draws one) and RFC 7748's X25519 vector (Bob's key where crypto/tls generates one, Alice's share); invalid input: an encapsulation key whose first coefficient is 4095"
	server.Prepare = func(in suites.OpInput) (suites.OpHarness, error) {
		t, err := pqkit.EncapsVector(d.Set)
		if err != nil {
			return suites.OpHarness{}, err
		}
		share := append(bytes.Clone(t.EK), alicePub...)
		if in.Invalid {
			share[0], share[1] = 0xff, share[1]|0x0f
		}
		n := len(t.EK)
		var out []byte
		return suites.OpHarness{
			Run: func() error {
				ek, err := d.ParseEK.Do(share[:n])
				if err != nil {
					return err
				}
				c, k, err := d.Encapsulate.Do(ek, t.M)
				if err != nil {
					return err
				}
				xk, err := ecdh.X25519().NewPrivateKey(bobPriv)
				if err != nil {
					return err
				}
				peer, err := ecdh.X25519().NewPublicKey(share[n:])
				if err != nil {
					return err
				}
				ss, err := xk.ECDH(peer)
				out = append(append(c, k...), ss...)
				return err
			},
			Result: func() ([]byte, error) { return out, nil },
		}, nil
	}
	server.Want = func() ([]byte, error) {
		t, err := pqkit.EncapsVector(d.Set)
		return append(append(bytes.Clone(t.C), t.K...), x25519Key...), err
	}
	return server
}

// cache is one library's public-key cache: packed, one contiguous slice of
// [PublicKeySize]byte (no pointers); parsed, a slice of pointers to the
// library's parsed keys.
func cache[SK, PK any](d pqkit.Sig[SK, PK]) ([]suites.Entry, []suites.Op) {
	key := func(r vocab.Repr) results.Key {
		return results.Key{Type: vocab.MLDSAPubkeyCache, Lib: d.Lib, Repr: r, Layout: measure.Collection, Param: d.Set.Param()}
	}
	entries := []suites.Entry{
		{Key: key(vocab.Packed), DefaultN: CacheKeys, SizeHint: uintptr(d.PKSize),
			Constructor: fmt.Sprintf("N public keys packed (%d bytes each) in one []([%d]byte) sized up front, copies of %d keys (%s)", d.PKSize, d.PKSize, pqkit.Distinct, d.PackPK.API),
			Case: func() memprof.Case {
				var pks [][]byte
				var typ reflect.Type
				return memprof.Case{
					SizeOf: uintptr(d.PKSize),
					Prepare: func(int) (err error) {
						pks, err = d.PackedPKs()
						typ = reflect.SliceOf(reflect.ArrayOf(d.PKSize, reflect.TypeFor[byte]()))
						return err
					},
					NewAll: func(n int) any {
						s := reflect.MakeSlice(typ, n, n)
						for i := range n {
							reflect.Copy(s.Index(i), reflect.ValueOf(pks[i%len(pks)]))
						}
						p := reflect.New(typ)
						p.Elem().Set(s)
						return p.Interface()
					},
				}
			}},
		{Key: key(vocab.Parsed), DefaultN: CacheKeys, SizeHint: unsafe.Sizeof(*new(PK)),
			Constructor: fmt.Sprintf("N keys parsed as %s (%s) in a []*%s sized up front, each a pqkit.Clone of one of %d keys parsed by %s", d.PKName, d.PKHolds, d.PKName[1:], pqkit.Distinct, d.ParsePK.API),
			Case: func() memprof.Case {
				var pks []*PK
				return memprof.Case{
					SizeOf: unsafe.Sizeof(*new(PK)),
					Prepare: func(int) (err error) {
						pks, err = d.ParsedPKs()
						return err
					},
					NewAll: func(n int) any {
						s := make([]*PK, n)
						for i := range s {
							s[i] = pqkit.Clone(pks[i%len(pks)])
						}
						return &s
					},
				}
			}},
	}
	// The cache's uses: a verification from each form, the operations of
	// MLDSAPublicKey repeated for the cache (AliasOf).
	var ops []suites.Op
	for _, o := range d.Ops(pqkit.DSATypes, false) {
		if o.Op == vocab.Verify {
			o.Type, o.AliasOf = vocab.MLDSAPubkeyCache, vocab.MLDSAPublicKey
			ops = append(ops, o)
		}
	}
	return entries, ops
}

// Suite returns the post-quantum scenarios.
func Suite() suites.Suite {
	s := suites.Suite{Name: "pqscenarios"}
	for _, part := range []func() ([]suites.Entry, []suites.Op){
		func() ([]suites.Entry, []suites.Op) { return tls(stdmlkem.KEM768()) },
		func() ([]suites.Entry, []suites.Op) { return tls(circlpq.KEM768()) },
		func() ([]suites.Entry, []suites.Op) { return cache(circlpq.DSA65()) },
		func() ([]suites.Entry, []suites.Op) { return cache(filippomldsa.DSA65()) },
	} {
		e, o := part()
		s.Entries, s.Ops = append(s.Entries, e...), append(s.Ops, o...)
	}
	return s
}
