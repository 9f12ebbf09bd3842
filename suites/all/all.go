// Package all assembles the registry of every built-in suite: the
// libraries (blst, gnark-crypto, circl), the scenarios, the KZG
// libraries (c-kzg, go-eth-kzg), the secp256k1 libraries (go-ethereum's
// libsecp256k1, decred), the BN254 libraries (gnark-crypto, go-ethereum's
// bn256 packages) and the post-quantum ones. blst's and c-kzg's entries and operations
// say why they are absent in builds without cgo. A new family's suites are
// added to builtIn, one line each with the family of their entries
// (docs/contributing.md, "A family").
package all

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/agree"
	"github.com/memprof/memprof/suites/agree/bn254"
	"github.com/memprof/memprof/suites/agree/kzg"
	"github.com/memprof/memprof/suites/agree/secp256k1"
	"github.com/memprof/memprof/suites/blst"
	"github.com/memprof/memprof/suites/bn256cloudflare"
	"github.com/memprof/memprof/suites/bn256gnark"
	"github.com/memprof/memprof/suites/bn256google"
	"github.com/memprof/memprof/suites/circl"
	"github.com/memprof/memprof/suites/circlpq"
	"github.com/memprof/memprof/suites/ckzg"
	"github.com/memprof/memprof/suites/decred"
	"github.com/memprof/memprof/suites/filippomldsa"
	"github.com/memprof/memprof/suites/gnark"
	"github.com/memprof/memprof/suites/gnarkbn254"
	"github.com/memprof/memprof/suites/gokzg"
	"github.com/memprof/memprof/suites/groth16"
	"github.com/memprof/memprof/suites/libsecp256k1"
	"github.com/memprof/memprof/suites/pqscenarios"
	"github.com/memprof/memprof/suites/scenarios"
	"github.com/memprof/memprof/suites/stdmlkem"
	"github.com/memprof/memprof/vocab"
)

// builtIn is every built-in suite's constructor, in the order of the
// libraries, with the families of its entries (none for a suite of
// agreement checks only): a child process that measures one case builds
// only the suites of its family (LookupCase). TestSuiteFamilies checks
// the families against the entries.
var builtIn = []struct {
	families []vocab.Family
	suite    func() suites.Suite
}{
	{bls, blst.Suite}, {bls, gnark.Suite}, {bls, circl.Suite}, {bls, scenarios.Suite}, {nil, agree.Suite},
	// KZG: c-kzg's rows say why they are absent without cgo.
	{kzgs, ckzg.Suite}, {kzgs, gokzg.Suite}, {nil, kzg.Suite},
	// secp256k1: libsecp256k1's rows say why they are absent without cgo.
	{secp, libsecp256k1.Suite}, {secp, decred.Suite}, {nil, secp256k1.Suite},
	// BN254: all pure Go.
	{bn, gnarkbn254.Suite}, {bn, bn256cloudflare.Suite}, {bn, bn256google.Suite}, {bn, bn256gnark.Suite}, {bn, groth16.Suite}, {nil, bn254.Suite},
	// Post-quantum: ML-KEM, ML-DSA, SLH-DSA.
	{mlkem, stdmlkem.Suite}, {pq, circlpq.Suite}, {mldsa, filippomldsa.Suite}, {pq, pqscenarios.Suite},
}

// The families of builtIn's suites.
var (
	bls   = []vocab.Family{vocab.BLS12381}
	kzgs  = []vocab.Family{vocab.KZG}
	secp  = []vocab.Family{vocab.Secp256k1}
	bn    = []vocab.Family{vocab.BN254}
	mlkem = []vocab.Family{vocab.MLKEM}
	mldsa = []vocab.Family{vocab.MLDSA}
	pq    = []vocab.Family{vocab.MLKEM, vocab.MLDSA, vocab.SLHDSA}
)

// entriesBuilt counts the entries of the suites this process has built
// (EntriesBuilt).
var entriesBuilt atomic.Int64

// build builds one suite and counts its entries.
func build(suite func() suites.Suite) suites.Suite {
	s := suite()
	entriesBuilt.Add(int64(len(s.Entries)))
	return s
}

// EntriesBuilt returns how many entries the suites this process has built
// hold: every entry of every suite once the registry is built, those of
// one family's suites in a child that measured one case (LookupCase).
func EntriesBuilt() int { return int(entriesBuilt.Load()) }

// Suites returns every built-in suite, in the order of the libraries.
func Suites() []suites.Suite {
	out := make([]suites.Suite, len(builtIn))
	for i, b := range builtIn {
		out[i] = build(b.suite)
	}
	return out
}

// LookupCase is Registry().LookupCase without the registry: it builds
// only the suites of the case's family and neither checks nor orders
// them, since the parent that asked for the case by name found it in the
// checked registry (and the tests check the registry). It is the lookup
// of the measuring child (memprof.ServeChild). A name whose type is no
// family's is looked for in every suite.
func LookupCase(name string) (memprof.Case, error) {
	e, err := lookup(name)
	if err != nil {
		return memprof.Case{}, err
	}
	return e.CaseNamed(name)
}

// lookup finds the entry called name (its key's BenchName) among the
// suites of its family.
func lookup(name string) (suites.Entry, error) {
	typ, _, _ := strings.Cut(strings.TrimPrefix(name, "type="), "/")
	family := vocab.Type(typ).Family()
	for _, b := range builtIn {
		if family != "" && !slices.Contains(b.families, family) {
			continue
		}
		for _, e := range build(b.suite).Entries {
			if e.Key.Normalize().BenchName() == name {
				return e, nil
			}
		}
	}
	return suites.Entry{}, fmt.Errorf("no case %q registered", name)
}

// Registry returns the registry of every built-in suite, assembled once.
// It panics if the suites are inconsistent (a duplicate or unknown name):
// a programming error that TestRegistry in this package reports first.
var Registry = sync.OnceValue(func() *suites.Registry {
	r, err := suites.NewRegistry(Suites()...)
	if err != nil {
		panic("suites/all: " + err.Error())
	}
	return r
})
