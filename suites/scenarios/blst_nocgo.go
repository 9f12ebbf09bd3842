//go:build !cgo

package scenarios

import (
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// blstEntries returns the scenarios held in blst values.
func blstEntries() []suites.Entry {
	return entries(source[struct{}, struct{}]{lib: vocab.Blst}, vocab.Because(vocab.NeedsCgo, "blst needs cgo; this build has CGO_ENABLED=0"))
}
