// Package stdmlkem is the suite of the standard library's ML-KEM
// (crypto/mlkem, FIPS 203): ML-KEM-768 and ML-KEM-1024 (it has no
// ML-KEM-512). Its decapsulation key is kept parsed and expanded (the
// matrix Â in the NTT domain, the NTT-domain vectors t and s, H(ek), ρ,
// d and z) and gives back its 64-byte seed d‖z (Bytes); it has no packed
// decapsulation key. Its encapsulation key keeps Â too. Encapsulation is
// made deterministic for the known answers with crypto/mlkem/mlkemtest.
package stdmlkem

import (
	"crypto/mlkem"
	"crypto/mlkem/mlkemtest"
	"slices"

	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/pqkit"
	"github.com/memprof/memprof/vocab"
)

const lib = vocab.Stdlib

// noPacked is why crypto/mlkem has no packed decapsulation key.
const noPacked = "crypto/mlkem has no packed (expanded) decapsulation key: Bytes returns the 64-byte seed d‖z, and NewDecapsulationKey768 takes only that"

// kem768 and kem1024 describe crypto/mlkem at its two sets.
var (
	kem768 = pqkit.KEM[mlkem.DecapsulationKey768, mlkem.EncapsulationKey768]{
		Lib: lib, Set: "ML-KEM-768",
		SeedSize: mlkem.SeedSize, EKSize: mlkem.EncapsulationKeySize768, CiphertextSize: mlkem.CiphertextSize768,
		DKName: "*mlkem.DecapsulationKey768", DKHolds: dkHolds, EKName: "*mlkem.EncapsulationKey768", EKHolds: ekHolds,
		KeyGen:      pqkit.Offers("mlkem.NewDecapsulationKey768", mlkem.NewDecapsulationKey768),
		ParseDK:     pqkit.Lacks[func([]byte) (*mlkem.DecapsulationKey768, error)](lib, noPacked),
		PackDK:      pqkit.Lacks[func(*mlkem.DecapsulationKey768) []byte](lib, noPacked),
		ToSeed:      pqkit.Offers("(*mlkem.DecapsulationKey768).Bytes", (*mlkem.DecapsulationKey768).Bytes),
		EKOf:        (*mlkem.DecapsulationKey768).EncapsulationKey,
		ParseEK:     pqkit.Offers("mlkem.NewEncapsulationKey768", mlkem.NewEncapsulationKey768),
		PackEK:      pqkit.Offers("(*mlkem.EncapsulationKey768).Bytes", (*mlkem.EncapsulationKey768).Bytes),
		Encapsulate: pqkit.Offers("mlkemtest.Encapsulate768", swap(mlkemtest.Encapsulate768)),
		Decapsulate: pqkit.Offers("(*mlkem.DecapsulationKey768).Decapsulate", (*mlkem.DecapsulationKey768).Decapsulate),
	}
	kem1024 = pqkit.KEM[mlkem.DecapsulationKey1024, mlkem.EncapsulationKey1024]{
		Lib: lib, Set: "ML-KEM-1024",
		SeedSize: mlkem.SeedSize, EKSize: mlkem.EncapsulationKeySize1024, CiphertextSize: mlkem.CiphertextSize1024,
		DKName: "*mlkem.DecapsulationKey1024", DKHolds: dkHolds, EKName: "*mlkem.EncapsulationKey1024", EKHolds: ekHolds,
		KeyGen:      pqkit.Offers("mlkem.NewDecapsulationKey1024", mlkem.NewDecapsulationKey1024),
		ParseDK:     pqkit.Lacks[func([]byte) (*mlkem.DecapsulationKey1024, error)](lib, noPacked),
		PackDK:      pqkit.Lacks[func(*mlkem.DecapsulationKey1024) []byte](lib, noPacked),
		ToSeed:      pqkit.Offers("(*mlkem.DecapsulationKey1024).Bytes", (*mlkem.DecapsulationKey1024).Bytes),
		EKOf:        (*mlkem.DecapsulationKey1024).EncapsulationKey,
		ParseEK:     pqkit.Offers("mlkem.NewEncapsulationKey1024", mlkem.NewEncapsulationKey1024),
		PackEK:      pqkit.Offers("(*mlkem.EncapsulationKey1024).Bytes", (*mlkem.EncapsulationKey1024).Bytes),
		Encapsulate: pqkit.Offers("mlkemtest.Encapsulate1024", swap(mlkemtest.Encapsulate1024)),
		Decapsulate: pqkit.Offers("(*mlkem.DecapsulationKey1024).Decapsulate", (*mlkem.DecapsulationKey1024).Decapsulate),
	}
	// kem512 is the set crypto/mlkem does not have.
	kem512 = pqkit.KEM[struct{}, struct{}]{Lib: lib, Set: "ML-KEM-512", Lacks: suites.NotOffered(lib, "crypto/mlkem has ML-KEM-768 and ML-KEM-1024 only")}
)

// What the parsed keys keep (crypto/internal/fips140/mlkem, behind one
// pointer of the exported type).
const (
	dkHolds = "a pointer to the expanded key: d, z, ρ, H(ek), the matrix Â and the vectors t and s, all in the NTT domain"
	ekHolds = "a pointer to ρ, H(ek), the matrix Â and the vector t in the NTT domain"
)

// swap turns mlkemtest's (sharedKey, ciphertext) into (ciphertext,
// sharedKey).
func swap[EK any](f func(*EK, []byte) ([]byte, []byte, error)) func(*EK, []byte) ([]byte, []byte, error) {
	return func(ek *EK, m []byte) ([]byte, []byte, error) {
		k, c, err := f(ek, m)
		return c, k, err
	}
}

// Agree returns crypto/mlkem's part in the ML-KEM agreement check.
func Agree() suites.FamilyAgreeLib {
	var sets []pqkit.KEMAgree
	for _, a := range []func() (pqkit.KEMAgree, bool){kem768.Agree, kem1024.Agree} {
		if s, ok := a(); ok {
			sets = append(sets, s)
		}
	}
	return suites.FamilyAgreeLib{Family: vocab.MLKEM, Lib: lib, Impl: pqkit.KEMLib{Lib: lib, Sets: sets}}
}

// Suite returns the standard library's ML-KEM suite, with the family's
// agreement check.
func Suite() suites.Suite {
	return suites.Suite{
		Name:        "stdmlkem",
		Entries:     slices.Concat(kem512.Entries(), kem768.Entries(), kem1024.Entries()),
		Ops:         slices.Concat(kem512.Ops(), kem768.Ops(), kem1024.Ops()),
		FamilyAgree: []suites.FamilyAgreeLib{Agree()},
		Checks:      []suites.FamilyCheck{{Family: vocab.MLKEM, Run: pqkit.CheckKEM, Checks: pqkit.KEMChecks, Help: pqkit.Help}},
		Families:    []suites.Family{{Family: vocab.MLKEM, Subject: "ML-KEM"}},
	}
}

// KEM768 returns crypto/mlkem's ML-KEM-768 description, X25519MLKEM768's
// (suites/pqscenarios builds the TLS scenario on it).
func KEM768() pqkit.KEM[mlkem.DecapsulationKey768, mlkem.EncapsulationKey768] { return kem768 }
