//go:build !cgo

package blst

import (
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/suitekit"
)

// entries returns every blst entry of the matrix: those that apply and
// that blst offers say that this build lacks cgo, the batch-decoded
// signatures' case (batchEntryKey) too.
func entries() []suites.Entry {
	return append(suitekit.Entries(lib, blstLacks, cgoReason, nil), suites.Entry{Key: batchEntryKey, Unavailable: cgoReason})
}

// haveCgo tells the tests which variant made the entries.
const haveCgo = false
