//go:build !cgo

package blst

import "github.com/memprof/memprof/suites"

// operations returns every blst operation, each saying that this build
// lacks cgo.
func operations() []suites.Op { return cgoLessOperations(cgoReason) }

// agreeLib is blst's part of the agreement check: absent without cgo.
func agreeLib() suites.AgreeLib { return suites.AgreeLib{Lib: lib, Unavailable: cgoReason} }
