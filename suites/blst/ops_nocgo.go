//go:build !cgo

package blst

import (
	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
)

// operations returns every blst operation, each saying that this build
// lacks cgo.
func operations() []suites.Op {
	var out []suites.Op
	for _, o := range opList {
		out = append(out, suites.Op{Key: model.Key{Type: o.typ, Lib: lib, Repr: o.repr, Op: o.op, Batch: o.batch}, Unavailable: cgoReason})
	}
	return out
}

// agreeLib is blst's part of the agreement check: absent without cgo.
func agreeLib() suites.AgreeLib { return suites.AgreeLib{Lib: lib, Unavailable: cgoReason} }
