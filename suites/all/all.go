// Package all assembles the registry of every built-in suite: the
// libraries (blst, gnark-crypto, circl), the scenarios, and the KZG
// libraries (c-kzg, go-eth-kzg). blst's and c-kzg's entries and operations
// say why they are absent in builds without cgo. A new family's suites are
// added to Suites, one line each (docs/suites.md, "Adding a family").
package all

import (
	"sync"

	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/blst"
	"github.com/memprof/memprof/suites/circl"
	"github.com/memprof/memprof/suites/ckzg"
	"github.com/memprof/memprof/suites/gnark"
	"github.com/memprof/memprof/suites/gokzg"
	"github.com/memprof/memprof/suites/scenarios"
)

// Suites returns every built-in suite, in the order of the libraries.
func Suites() []suites.Suite {
	return []suites.Suite{blst.Suite(), gnark.Suite(), circl.Suite(), scenarios.Suite(),
		// KZG (issue 14): c-kzg's rows say why they are absent without cgo.
		ckzg.Suite(), gokzg.Suite()}
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
