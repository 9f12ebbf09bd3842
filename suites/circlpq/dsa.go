package circlpq

import (
	"crypto"

	"github.com/cloudflare/circl/sign/mldsa/mldsa44"
	"github.com/cloudflare/circl/sign/mldsa/mldsa65"
	"github.com/cloudflare/circl/sign/mldsa/mldsa87"

	"github.com/memprof/memprof/suites/internal/pqkit"
)

// dsaKey is what circl's ML-DSA keys have in common.
type dsaKey interface {
	UnmarshalBinary([]byte) error
	Bytes() []byte
}

// unmarshal is a new K decoded from b.
func unmarshal[K any, P interface {
	*K
	dsaKey
}](b []byte) (*K, error) {
	k := new(K)
	return k, P(k).UnmarshalBinary(b)
}

// dsaPackage is one of circl's ML-DSA packages.
type dsaPackage[SK, PK any] struct {
	name             string
	set              pqkit.Set
	seedSize, skSize int
	pkSize, sigSize  int
	newKeyFromSeed   func(seed []byte) (*PK, *SK)
	seed             func(*SK) []byte
	public           func(*SK) crypto.PublicKey
	signTo           func(sk *SK, msg, ctx []byte, randomized bool, sig []byte) error
	verify           func(pk *PK, msg, ctx, sig []byte) bool
}

// dsaOf describes circl's ML-DSA package p.
func dsaOf[SK, PK any, PSK interface {
	*SK
	dsaKey
}, PPK interface {
	*PK
	dsaKey
}](p dsaPackage[SK, PK]) pqkit.Sig[SK, PK] {
	skName, pkName := "*"+p.name+".PrivateKey", "*"+p.name+".PublicKey"
	return pqkit.Sig[SK, PK]{
		Lib: lib, Set: p.set,
		SeedSize: p.seedSize, PackedSKSize: p.skSize, PKSize: p.pkSize, SigSize: p.sigSize,
		SKName: skName, SKHolds: "ρ, K, tr, s1, s2, t0 and, expanded, the matrix A and NTT(s1), NTT(s2), NTT(t0), with the seed ξ, in one struct",
		PKName: pkName, PKHolds: "ρ, t1, its packed form and tr in the struct, and a pointer to the expanded matrix A",
		KeyGen:  pqkit.Offers(p.name+".NewKeyFromSeed", keyFromSeed(p.name, p.seedSize, p.newKeyFromSeed)),
		ParseSK: pqkit.Offers("("+skName+").UnmarshalBinary", unmarshal[SK, PSK]),
		PackSK:  pqkit.Offers("("+skName+").Bytes", func(sk *SK) []byte { return PSK(sk).Bytes() }),
		ToSeed:  pqkit.Offers("("+skName+").Seed", p.seed),
		PKOf:    func(sk *SK) *PK { return any(p.public(sk)).(*PK) },
		ParsePK: pqkit.Offers("("+pkName+").UnmarshalBinary", unmarshal[PK, PPK]),
		PackPK:  pqkit.Offers("("+pkName+").Bytes", func(pk *PK) []byte { return PPK(pk).Bytes() }),
		Sign: pqkit.Offers(p.name+".SignTo", func(sk *SK, msg, ctx []byte) ([]byte, error) {
			sig := make([]byte, p.sigSize)
			return sig, p.signTo(sk, msg, ctx, false, sig)
		}),
		Verify:  pqkit.Offers(p.name+".Verify", p.verify),
		Vectors: pqkit.DSAVectors,
	}
}

// seedArray adapts circl's NewKeyFromSeed, which takes an array.
func seedArray[PK, SK any](f func(*[32]byte) (*PK, *SK)) func([]byte) (*PK, *SK) {
	return func(b []byte) (*PK, *SK) { return f((*[32]byte)(b)) }
}

var (
	dsa44 = dsaOf[mldsa44.PrivateKey, mldsa44.PublicKey](dsaPackage[mldsa44.PrivateKey, mldsa44.PublicKey]{
		"mldsa44", "ML-DSA-44", mldsa44.SeedSize, mldsa44.PrivateKeySize, mldsa44.PublicKeySize, mldsa44.SignatureSize,
		seedArray(mldsa44.NewKeyFromSeed), (*mldsa44.PrivateKey).Seed, (*mldsa44.PrivateKey).Public, mldsa44.SignTo, mldsa44.Verify})
	dsa65 = dsaOf[mldsa65.PrivateKey, mldsa65.PublicKey](dsaPackage[mldsa65.PrivateKey, mldsa65.PublicKey]{
		"mldsa65", "ML-DSA-65", mldsa65.SeedSize, mldsa65.PrivateKeySize, mldsa65.PublicKeySize, mldsa65.SignatureSize,
		seedArray(mldsa65.NewKeyFromSeed), (*mldsa65.PrivateKey).Seed, (*mldsa65.PrivateKey).Public, mldsa65.SignTo, mldsa65.Verify})
	dsa87 = dsaOf[mldsa87.PrivateKey, mldsa87.PublicKey](dsaPackage[mldsa87.PrivateKey, mldsa87.PublicKey]{
		"mldsa87", "ML-DSA-87", mldsa87.SeedSize, mldsa87.PrivateKeySize, mldsa87.PublicKeySize, mldsa87.SignatureSize,
		seedArray(mldsa87.NewKeyFromSeed), (*mldsa87.PrivateKey).Seed, (*mldsa87.PrivateKey).Public, mldsa87.SignTo, mldsa87.Verify})
)
