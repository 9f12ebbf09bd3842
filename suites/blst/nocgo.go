//go:build !cgo

package blst

import (
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/suitekit"
)

func init() {
	suites.Register(suitekit.Entries(lib, blstLacks, cgoReason, nil)...)
}

// haveCgo tells the tests which variant registered the entries.
const haveCgo = false
