//go:build !cgo

package ckzg

import (
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/kzgkit"
)

// haveCgo tells the tests which variant made the entries.
const haveCgo = false

// buildReason makes every entry that c-kzg would offer unavailable.
var buildReason = cgoReason

func entryImpls() map[results.Key]kzgkit.Impl { return nil }

func impls(l int) suites.KZGImpls {
	return suites.KZGImpls{Lib: lib, Param: kzgkit.PrecomputeParam(l), Isolate: isolate(l), CHeap: true, Unavailable: cgoReason}
}

func agreeLib() suites.KZGAgreeLib { return suites.KZGAgreeLib{Lib: lib, Unavailable: cgoReason} }
