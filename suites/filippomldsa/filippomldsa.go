// Package filippomldsa is the suite of filippo.io/mldsa (pure Go, FIPS
// 204): ML-DSA-44, -65 and -87. Its private key is the 32-byte seed ξ as
// far as its API goes (Bytes returns it; it has no packed private key) and,
// parsed, one struct of the same size for every set, sized for ML-DSA-87,
// with the matrix A and the NTT-domain vectors expanded; its public key
// keeps t1 in the NTT domain and tr, not the matrix.
package filippomldsa

import (
	"filippo.io/mldsa"

	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/pqkit"
	"github.com/memprof/memprof/vocab"
)

const lib = vocab.FilippoMLDSA

// noPacked is why filippo.io/mldsa has no packed private key.
const noPacked = "filippo.io/mldsa has no packed private key of FIPS 204: Bytes returns the 32-byte seed ξ, and NewPrivateKey takes only that"

// dsaOf describes filippo.io/mldsa at params.
func dsaOf(params mldsa.Parameters, sigSize int) pqkit.Sig[mldsa.PrivateKey, mldsa.PublicKey] {
	return pqkit.Sig[mldsa.PrivateKey, mldsa.PublicKey]{
		Lib: lib, Set: pqkit.Set(params.String()),
		SeedSize: mldsa.PrivateKeySize, PKSize: params.PublicKeySize(), SigSize: sigSize,
		SKName: "*mldsa.PrivateKey", SKHolds: "the seed ξ, K, the public key, the matrix A and t1, s1, s2, t0 in the NTT domain, in one struct sized for ML-DSA-87 whatever the set",
		PKName: "*mldsa.PublicKey", PKHolds: "its encoding in an array sized for ML-DSA-87, the set and tr, the key's hash; nothing expanded: the matrix A is made again at each verification",
		KeyGen:  pqkit.Offers("mldsa.NewPrivateKey", func(seed []byte) (*mldsa.PrivateKey, error) { return mldsa.NewPrivateKey(params, seed) }),
		ParseSK: pqkit.Lacks[func([]byte) (*mldsa.PrivateKey, error)](lib, noPacked),
		PackSK:  pqkit.Lacks[func(*mldsa.PrivateKey) []byte](lib, noPacked),
		ToSeed:  pqkit.Offers("(*mldsa.PrivateKey).Bytes", (*mldsa.PrivateKey).Bytes),
		PKOf:    (*mldsa.PrivateKey).PublicKey,
		ParsePK: pqkit.Offers("mldsa.NewPublicKey", func(b []byte) (*mldsa.PublicKey, error) { return mldsa.NewPublicKey(params, b) }),
		PackPK:  pqkit.Offers("(*mldsa.PublicKey).Bytes", (*mldsa.PublicKey).Bytes),
		Sign: pqkit.Offers("(*mldsa.PrivateKey).SignDeterministic", func(sk *mldsa.PrivateKey, msg, ctx []byte) ([]byte, error) {
			return sk.SignDeterministic(msg, &mldsa.Options{Context: string(ctx)})
		}),
		Verify: pqkit.Offers("mldsa.Verify", func(pk *mldsa.PublicKey, msg, ctx, sig []byte) bool {
			return mldsa.Verify(pk, msg, sig, &mldsa.Options{Context: string(ctx)}) == nil
		}),
		Vectors: pqkit.DSAVectors,
	}
}

var sets = []pqkit.Sig[mldsa.PrivateKey, mldsa.PublicKey]{
	dsaOf(mldsa.MLDSA44(), mldsa.MLDSA44SignatureSize),
	dsaOf(mldsa.MLDSA65(), mldsa.MLDSA65SignatureSize),
	dsaOf(mldsa.MLDSA87(), mldsa.MLDSA87SignatureSize),
}

// Agree returns filippo.io/mldsa's part in the ML-DSA agreement check.
func Agree() suites.FamilyAgreeLib {
	var as []pqkit.SigAgree
	for _, d := range sets {
		if a, ok := d.Agree(); ok {
			as = append(as, a)
		}
	}
	return suites.FamilyAgreeLib{Family: vocab.MLDSA, Lib: lib, Impl: pqkit.SigLib{Lib: lib, Sets: as}}
}

// Suite returns filippo.io/mldsa's suite, with the ML-DSA agreement check.
func Suite() suites.Suite {
	s := suites.Suite{
		Name:        "filippomldsa",
		Modules:     []string{"filippo.io/mldsa"},
		FamilyAgree: []suites.FamilyAgreeLib{Agree()},
		Checks:      []suites.FamilyCheck{{Family: vocab.MLDSA, Run: pqkit.CheckDSA, Checks: pqkit.DSAChecks}},
		Families:    []suites.Family{{Family: vocab.MLDSA, Subject: "ML-DSA"}},
	}
	for _, d := range sets {
		s.Entries = append(s.Entries, d.Entries(pqkit.DSATypes)...)
		s.Ops = append(s.Ops, d.Ops(pqkit.DSATypes, false)...)
	}
	return s
}

// DSA65 returns filippo.io/mldsa's ML-DSA-65 description
// (suites/pqscenarios).
func DSA65() pqkit.Sig[mldsa.PrivateKey, mldsa.PublicKey] { return sets[1] }
