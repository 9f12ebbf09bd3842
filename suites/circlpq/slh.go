package circlpq

import (
	"bytes"

	"github.com/cloudflare/circl/sign/slhdsa"

	"github.com/memprof/memprof/suites/internal/pqkit"
)

// slhOf describes circl's SLH-DSA at the set id: keys are values holding
// slices (PrivateKey: the seed, the PRF key and the public key's seed and
// root; PublicKey: the seed and the root), so parsed instances are made by
// UnmarshalBinary of the packed key, which is cheap.
func slhOf(id slhdsa.ID) pqkit.Sig[slhdsa.PrivateKey, slhdsa.PublicKey] {
	sch := id.Scheme()
	n := sch.PublicKeySize() / 2
	return pqkit.Sig[slhdsa.PrivateKey, slhdsa.PublicKey]{
		Lib: lib, Set: pqkit.Set(id.String()),
		SeedSize: 3 * n, PackedSKSize: sch.PrivateKeySize(), PKSize: sch.PublicKeySize(), SigSize: sch.SignatureSize(),
		SKName: "*slhdsa.PrivateKey", SKHolds: "slices of SK.seed, SK.prf, PK.seed and PK.root in one buffer, and the set's id; nothing precomputed",
		PKName: "*slhdsa.PublicKey", PKHolds: "slices of PK.seed and PK.root in one buffer, and the set's id; nothing precomputed",
		MakeParsed: true,
		KeyGen: pqkit.Offers("slhdsa.GenerateKey", func(seed []byte) (*slhdsa.PrivateKey, error) {
			_, sk, err := slhdsa.GenerateKey(bytes.NewReader(seed), id)
			return &sk, err
		}),
		ParseSK: pqkit.Offers("(*slhdsa.PrivateKey).UnmarshalBinary", func(b []byte) (*slhdsa.PrivateKey, error) {
			sk := &slhdsa.PrivateKey{ID: id}
			return sk, sk.UnmarshalBinary(b)
		}),
		PackSK: pqkit.Offers("(slhdsa.PrivateKey).MarshalBinary", func(sk *slhdsa.PrivateKey) []byte { b, _ := sk.MarshalBinary(); return b }),
		ToSeed: pqkit.Lacks[func(*slhdsa.PrivateKey) []byte](lib, "slhdsa.PrivateKey has no call that returns the key-generation seed SK.seed‖SK.prf‖PK.seed"),
		PKOf:   func(sk *slhdsa.PrivateKey) *slhdsa.PublicKey { pk := sk.PublicKey(); return &pk },
		ParsePK: pqkit.Offers("(*slhdsa.PublicKey).UnmarshalBinary", func(b []byte) (*slhdsa.PublicKey, error) {
			pk := &slhdsa.PublicKey{ID: id}
			return pk, pk.UnmarshalBinary(b)
		}),
		PackPK: pqkit.Offers("(slhdsa.PublicKey).MarshalBinary", func(pk *slhdsa.PublicKey) []byte { b, _ := pk.MarshalBinary(); return b }),
		Sign: pqkit.Offers("slhdsa.SignDeterministic", func(sk *slhdsa.PrivateKey, msg, ctx []byte) ([]byte, error) {
			return slhdsa.SignDeterministic(sk, slhdsa.NewMessage(msg), ctx)
		}),
		SignRandomized: func(sk *slhdsa.PrivateKey, msg, ctx, random []byte) ([]byte, error) {
			return slhdsa.SignRandomized(sk, bytes.NewReader(random), slhdsa.NewMessage(msg), ctx)
		},
		Verify: pqkit.Offers("slhdsa.Verify", func(pk *slhdsa.PublicKey, msg, ctx, sig []byte) bool {
			return slhdsa.Verify(pk, slhdsa.NewMessage(msg), sig, ctx)
		}),
		Vectors: pqkit.SLHVectors,
		Values:  pqkit.SLHValues,
	}
}

var slhSets = []slhdsa.ID{slhdsa.SHA2_128s, slhdsa.SHAKE_128s, slhdsa.SHA2_128f, slhdsa.SHAKE_128f}
