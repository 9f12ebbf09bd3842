package memprof

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/memprof/memprof/measure"
)

// denseScanArch is the architecture whose Green Tea collector has a
// dense scan path in Go 1.26 (internal/runtime/gc/scan: scan_amd64.go;
// scan_generic.go, for the others, has none).
const denseScanArch = "amd64"

// denseScanFeatures are the CPU features the dense path needs
// (internal/runtime/gc/scan's avx512ScanPackedReqsMet), by the names
// GODEBUG's cpu options give them.
var denseScanFeatures = []string{"avx512vl", "avx512bw", "gfni", "avx512bitalg", "avx512dq", "avx512vbmi"}

// scanRule says which rule the collector c counts small pointer-bearing
// objects' scan work by on goarch, where has tells whether the CPU has
// a feature of denseScanFeatures, and what decided it.
func scanRule(c measure.Collector, goarch string, has func(feature string) bool) (measure.ScanRule, string) {
	switch {
	case c != measure.GreenTeaGC:
		return measure.ScanToLastPointer, fmt.Sprintf("%s: no dense scan path", c)
	case goarch != denseScanArch:
		return measure.ScanToLastPointer, fmt.Sprintf("%s on %s: the dense scan path is %s's", c, goarch, denseScanArch)
	}
	var missing []string
	for _, f := range denseScanFeatures {
		if !has(f) {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		return measure.ScanToLastPointer, fmt.Sprintf("%s on %s, the CPU lacks %s", c, goarch, strings.Join(missing, ", "))
	}
	return measure.ScanDense, fmt.Sprintf("%s on %s, the CPU has %s", c, goarch, strings.Join(denseScanFeatures, ", "))
}

// currentScanRule is the rule this process's collector scans by.
func currentScanRule() (measure.ScanRule, string) {
	return scanRule(currentCollector(), runtime.GOARCH, cpuHas)
}
