// Package circlpq is the suite of circl's post-quantum schemes
// (github.com/cloudflare/circl, pure Go): ML-KEM (kem/mlkem/mlkem512,
// 768, 1024), ML-DSA (sign/mldsa/mldsa44, 65, 87) and SLH-DSA
// (sign/slhdsa, the SHA2 and SHAKE sets at 128s and 128f). Its keys have
// the packed encodings of the standards (Pack/Unpack, Bytes,
// MarshalBinary); what its parsed keys expand differs by scheme: an ML-KEM
// key keeps the matrix Aᵀ and NTT-domain vectors but not the seed d; an
// ML-DSA private key keeps the matrix A, the NTT-domain vectors and its
// seed ξ; a public key keeps A behind a pointer; SLH-DSA keys keep their
// bytes only. The BLS12-381 part of circl is suites/circl; both are the
// library circl, told apart by the family of the type.
package circlpq

import (
	"github.com/cloudflare/circl/kem/mlkem/mlkem768"
	"github.com/cloudflare/circl/sign/mldsa/mldsa65"

	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/pqkit"
	"github.com/memprof/memprof/vocab"
)

const lib = vocab.Circl

// entries, operations and agreement sets of every scheme and set.
func parts() (entries []suites.Entry, ops []suites.Op, kems []pqkit.KEMAgree, dsas, slhs []pqkit.SigAgree) {
	for _, k := range []interface {
		Entries() []suites.Entry
		Ops() []suites.Op
		Agree() (pqkit.KEMAgree, bool)
	}{kem512, kem768, kem1024} {
		entries, ops = append(entries, k.Entries()...), append(ops, k.Ops()...)
		if a, ok := k.Agree(); ok {
			kems = append(kems, a)
		}
	}
	type sig interface {
		Entries(pqkit.SigTypes) []suites.Entry
		Ops(pqkit.SigTypes, bool) []suites.Op
		Agree() (pqkit.SigAgree, bool)
	}
	for _, d := range []sig{dsa44, dsa65, dsa87} {
		entries, ops = append(entries, d.Entries(pqkit.DSATypes)...), append(ops, d.Ops(pqkit.DSATypes, false)...)
		if a, ok := d.Agree(); ok {
			dsas = append(dsas, a)
		}
	}
	for _, id := range slhSets {
		d := slhOf(id)
		entries, ops = append(entries, d.Entries(pqkit.SLHTypes)...), append(ops, d.Ops(pqkit.SLHTypes, true)...)
		if a, ok := d.Agree(); ok {
			slhs = append(slhs, a)
		}
	}
	return
}

// Suite returns circl's post-quantum suite, with the SLH-DSA agreement
// check (circl is its only library).
func Suite() suites.Suite {
	entries, ops, kems, dsas, slhs := parts()
	return suites.Suite{
		Name:    "circlpq",
		Modules: []string{"github.com/cloudflare/circl"},
		Entries: entries,
		Ops:     ops,
		FamilyAgree: []suites.FamilyAgreeLib{
			{Family: vocab.MLKEM, Lib: lib, Impl: pqkit.KEMLib{Lib: lib, Sets: kems}},
			{Family: vocab.MLDSA, Lib: lib, Impl: pqkit.SigLib{Lib: lib, Sets: dsas}},
			{Family: vocab.SLHDSA, Lib: lib, Impl: pqkit.SigLib{Lib: lib, Sets: slhs}},
		},
		Checks:   []suites.FamilyCheck{{Family: vocab.SLHDSA, Run: pqkit.CheckSLH, Checks: pqkit.SLHChecks}},
		Families: []suites.Family{{Family: vocab.SLHDSA, Subject: "SLH-DSA"}},
	}
}

// KEM768 returns circl's ML-KEM-768 description (suites/pqscenarios).
func KEM768() pqkit.KEM[mlkem768.PrivateKey, mlkem768.PublicKey] { return kem768 }

// DSA65 returns circl's ML-DSA-65 description (suites/pqscenarios).
func DSA65() pqkit.Sig[mldsa65.PrivateKey, mldsa65.PublicKey] { return dsa65 }
