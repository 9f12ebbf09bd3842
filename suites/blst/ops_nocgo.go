//go:build !cgo

package blst

import "github.com/memprof/memprof/suites"

// opNoCgo is why every blst operation is missing from a build without cgo.
const opNoCgo = "blst needs cgo; this build has CGO_ENABLED=0"

func init() {
	for _, o := range opList {
		suites.RegisterOp(suites.Op{Type: o.typ, Lib: "blst", Repr: o.repr, Op: o.op, Batch: o.batch, Unavailable: opNoCgo})
	}
	suites.RegisterAgreeLib(suites.AgreeLib{Lib: "blst", Unavailable: opNoCgo})
}
