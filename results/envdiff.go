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
// threads), the scan rule where both record one (ScanRuleDiff: scan
// bytes count differently under the two) and the measured libraries'
// versions. The machine's name, the
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
	if base.ScanRule != "" && head.ScanRule != "" {
		add(ScanRuleField, string(base.ScanRule), string(head.ScanRule))
	}
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

// ScanRuleField is the environment field of the scan rule
// (measure.Env.ScanRule).
const ScanRuleField = "scan_rule"

// ScanRuleWhy says why scan bytes taken under different scan rules do not
// compare.
const ScanRuleWhy = "GC scan bytes are counted by different rules (the dense rule charges a small pointer-bearing object's whole slot, the other up to its last pointer word: docs/gc.md)"

// ScanRuleUnknown says, for two results files of which one or both do
// not record their scan rule (files written before it was) while both
// hold scan bytes, that whether those compare cannot be told; "" when
// both record it, or when a side holds no scan bytes (nothing then
// depends on the rule).
func ScanRuleUnknown(base, head *File) string {
	if !HasScanBytes(base) || !HasScanBytes(head) {
		return ""
	}
	var which string
	switch {
	case base.Env.ScanRule == "" && head.Env.ScanRule == "":
		which = "neither base nor head records a scan_rule"
	case base.Env.ScanRule == "":
		which = "the base records no scan_rule"
	case head.Env.ScanRule == "":
		which = "the head records no scan_rule"
	default:
		return ""
	}
	return fmt.Sprintf("cannot tell whether base and head scanned under one rule: %s (a file written before it was), so their GC scan bytes may not compare", which)
}

// HasScanBytes reports whether some instances row of f holds a GC scan
// bytes figure (known: with its resolution).
func HasScanBytes(f *File) bool {
	scan := FigureNamed("scan_bytes_per_instance")
	for i := range f.Instances {
		if _, ok := scan.Value(&f.Instances[i]); ok {
			return true
		}
	}
	return false
}
