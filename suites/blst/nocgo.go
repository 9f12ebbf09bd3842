//go:build !cgo

package blst

import "github.com/memprof/memprof/suites"

// reason is what lists and tables show for every blst entry without cgo.
const reason = "blst needs cgo; this build has CGO_ENABLED=0"

func init() {
	suites.Register(suites.Entry{Type: "Signature", Lib: "blst", Repr: "affine", Layout: "pointer", Scheme: "min-pk", Unavailable: reason})
}
