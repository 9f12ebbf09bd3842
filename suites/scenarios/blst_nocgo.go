//go:build !cgo

package scenarios

import (
	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
)

// blstEntries returns the scenarios held in blst values.
func blstEntries() []suites.Entry {
	return entries(source[struct{}, struct{}]{lib: model.Blst}, model.Because(model.NeedsCgo, "blst needs cgo; this build has CGO_ENABLED=0"))
}
