//go:build !cgo

package libsecp256k1

import (
	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/secpkit"
)

// haveCgo tells the tests which variant made the entries.
const haveCgo = false

// buildReason makes every entry and operation go-ethereum would offer
// unavailable.
var buildReason = cgoReason

func entryImpls() map[model.Key]secpkit.Impl { return nil }

func opImpls() map[secpkit.Row]secpkit.OpImpl { return nil }

func agreeLib() suites.FamilyAgreeLib {
	return suites.FamilyAgreeLib{Family: model.Secp256k1, Lib: lib, Unavailable: cgoReason}
}
