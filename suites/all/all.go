// Package all assembles the registry of every built-in suite: the
// libraries (blst, gnark-crypto, circl), the scenarios, the KZG
// libraries (c-kzg, go-eth-kzg), the secp256k1 libraries (go-ethereum's
// libsecp256k1, decred), the BN254 libraries (gnark-crypto, go-ethereum's
// bn256 packages) and the post-quantum ones. blst's and c-kzg's entries and operations
// say why they are absent in builds without cgo. A new family's suites are
// added to Suites, one line each (docs/contributing.md, "A family").
package all

import (
	"sync"

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
)

// Suites returns every built-in suite, in the order of the libraries.
func Suites() []suites.Suite {
	return []suites.Suite{blst.Suite(), gnark.Suite(), circl.Suite(), scenarios.Suite(), agree.Suite(),
		// KZG: c-kzg's rows say why they are absent without cgo.
		ckzg.Suite(), gokzg.Suite(), kzg.Suite(),
		// secp256k1: libsecp256k1's rows say why they are absent without cgo.
		libsecp256k1.Suite(), decred.Suite(), secp256k1.Suite(),
		// BN254: all pure Go.
		gnarkbn254.Suite(), bn256cloudflare.Suite(), bn256google.Suite(), bn256gnark.Suite(), groth16.Suite(), bn254.Suite(),
		// Post-quantum: ML-KEM, ML-DSA, SLH-DSA.
		stdmlkem.Suite(), circlpq.Suite(), filippomldsa.Suite(), pqscenarios.Suite()}
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
