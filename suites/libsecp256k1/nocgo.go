//go:build !cgo

package libsecp256k1

import (
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/secpkit"
	"github.com/memprof/memprof/vocab"
)

// haveCgo tells the tests which variant made the entries.
const haveCgo = false

// buildReason makes every entry and operation go-ethereum would offer
// unavailable.
var buildReason = cgoReason

func entryImpls() map[results.Key]secpkit.Impl { return nil }

func opImpls() map[secpkit.Row]secpkit.OpImpl { return nil }

func agreeLibs() []suites.FamilyAgreeLib {
	return []suites.FamilyAgreeLib{
		{Family: vocab.Secp256k1, Lib: lib, Unavailable: cgoReason},
		{Family: vocab.Secp256k1, Lib: vocab.GoEthereum, Unavailable: cgoReason},
	}
}
