package blst

import (
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/suitekit"
	"github.com/memprof/memprof/vocab"
)

// The blst table: which combinations of the matrix blst offers. Both build
// variants make their entries from it (blst.go with cgo, nocgo.go
// without), so the two lists cannot drift; with cgo, suitekit.Entries
// panics if a constructor is missing for an available combination.

// lib is the library name in the registry.
const lib = vocab.Blst

// Module is the blst binding's module path, whose version results record.
const Module = "github.com/supranational/blst"

// cgoReason is what every otherwise available blst entry and operation
// says in a build without cgo.
var cgoReason = vocab.Because(vocab.NeedsCgo, "blst needs cgo; this build has CGO_ENABLED=0")

// blstLacks says why blst has no such representation, or nothing.
func blstLacks(k suitekit.Key) vocab.Why {
	if k.Repr == vocab.Projective {
		return vocab.Because(vocab.NotOffered, "blst has no homogeneous projective point type: blst.P1/P2 hold Jacobian coordinates (x = X/Z², y = Y/Z³)")
	}
	return vocab.Why{}
}

// Suite returns blst's instance entries, operations and agreement library.
// In a build without cgo every one that blst would offer says so.
func Suite() suites.Suite {
	ops := operations()
	return suites.Suite{
		Name:    string(lib),
		Modules: []string{Module},
		Entries: entries(),
		Ops:     append(ops, suites.ConversionAliases(ops)...),
		Agree:   []suites.AgreeLib{agreeLib()},
	}
}
