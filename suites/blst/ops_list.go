package blst

import (
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// The representations blst's operations start from, in both builds:
// affine points, keys and signatures; Jacobian points for the conversions
// (and for the Jacobian rows of each group).
const (
	opRepr     = vocab.Affine
	opFromRepr = vocab.Jacobian
)

// cgoLessOperations returns every blst operation, each unavailable for
// why: the rows of the same table as ops.go (suites.Group and
// suites.Scheme), without blst's types. A build without cgo lists them
// (ops_nocgo.go); a cgo test checks that they are the operations ops.go
// makes.
func cgoLessOperations(why vocab.Why) []suites.Op {
	type none = struct{}
	group := func(t vocab.Type) suites.Group[none, none, []byte, []byte] {
		return suites.Group[none, none, []byte, []byte]{
			Lib: lib, Type: t, Repr: opRepr, Unavailable: why,
			Jacobian: &suites.Jacobian[none, none, []byte, []byte]{},
			Convert:  suites.Conversions[none, none]{From: opFromRepr},
		}
	}
	scheme := suites.Scheme[none]{Lib: lib, Repr: opRepr, Unavailable: why}
	return suites.OpsWithPaths(group(vocab.PublicKey), group(vocab.Signature), scheme, cgoLessSpeedOps(why))
}
