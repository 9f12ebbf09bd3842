package results

import (
	"fmt"
	"maps"
	"slices"

	"github.com/memprof/memprof/measure"
)

// EnvDiff is one environment field that differs between base and head.
type EnvDiff struct {
	Field string `json:"field"`
	Base  string `json:"base"`
	Head  string `json:"head"`
}

// EnvDiffs lists the fields that make two environments incomparable: CPU
// model, GOOS, GOARCH, Go version, cgo (blst is measured only with it),
// GOMAXPROCS (it changes the times of operations that use several
// threads) and the measured libraries' versions. The machine's name, the
// commit and the time do not: a base and a head differ in them by
// design.
func EnvDiffs(base, head measure.Env) []EnvDiff {
	var d []EnvDiff
	add := func(field, a, b string) {
		if a != b {
			d = append(d, EnvDiff{field, a, b})
		}
	}
	add("cpu", base.CPU, head.CPU)
	add("goos", base.GOOS, head.GOOS)
	add("goarch", base.GOARCH, head.GOARCH)
	add("go_version", base.GoVersion, head.GoVersion)
	add("cgo", fmt.Sprint(base.Cgo), fmt.Sprint(head.Cgo))
	add("gomaxprocs", fmt.Sprint(base.GOMAXPROCS), fmt.Sprint(head.GOMAXPROCS))
	mods := map[string]bool{}
	for m := range base.Modules {
		mods[m] = true
	}
	for m := range head.Modules {
		mods[m] = true
	}
	for _, m := range slices.Sorted(maps.Keys(mods)) {
		add("modules["+m+"]", base.Modules[m], head.Modules[m])
	}
	return d
}
