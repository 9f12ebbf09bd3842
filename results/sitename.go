package results

import (
	"strconv"
	"strings"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/units"
)

// TopSite names the largest of sites (they come largest first) for a
// table: its function without the package path, its file and line, and
// what one call allocates there ("PairingCtx blst.go:345 3.1 KB"); "none"
// when there is none (the operation allocates nothing).
func TopSite(sites []measure.OpSite) string {
	if len(sites) == 0 {
		return "none"
	}
	s := sites[0]
	where := ShortFunction(s.Function)
	if s.File != "" {
		where += " " + s.File[strings.LastIndexByte(s.File, '/')+1:] + ":" + strconv.FormatInt(s.Line, 10)
	}
	return where + " " + units.Bytes.Format(s.BytesPerOp)
}

// GoFunction reports whether a site's name is a Go function's as the
// runtime spells it, not one of the names memprof gives a site: new(T),
// make([]T, n) and any(T) for the harness's own allocations,
// (unattributed).
func GoFunction(name string) bool {
	i := strings.IndexAny(name, "(.")
	return i > 0 && name[i] == '.'
}

// ShortFunction is a function's name without its package path:
// "(*P2Affine).Uncompress" for
// "github.com/supranational/blst/bindings/go.(*P2Affine).Uncompress".
func ShortFunction(fn string) string {
	if !GoFunction(fn) {
		return fn
	}
	base := fn[strings.LastIndexByte(fn, '/')+1:]
	if i := strings.IndexByte(base, '.'); i >= 0 {
		return base[i+1:]
	}
	return base
}
