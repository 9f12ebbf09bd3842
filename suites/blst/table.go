package blst

import "github.com/memprof/memprof/suites/internal/suitekit"

// The blst table: which combinations of the matrix blst offers. Both build
// variants register their entries from it (blst.go with cgo, nocgo.go
// without), so the two lists cannot drift; with cgo, suitekit.Entries
// panics if a constructor is missing for an available combination.

// lib is the library name in the registry.
const lib = "blst"

// cgoReason is what every otherwise available blst entry says in a build
// without cgo.
const cgoReason = "blst needs cgo; this build has CGO_ENABLED=0"

// blstLacks says why blst has no such representation, or "".
func blstLacks(k suitekit.Key) string {
	if k.Repr == "projective" {
		return "blst has no homogeneous projective point type: blst.P1/P2 hold Jacobian coordinates (x = X/Z², y = Y/Z³)"
	}
	return ""
}
