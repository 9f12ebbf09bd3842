package memprof

import (
	"strings"
	"testing"

	"github.com/memprof/memprof/internal/deptest"
)

// engineLeaves are the only packages of the module the engine may
// import (directly or not): the leaves under it in the layout
// (ARCHITECTURE.md). It knows no family, no results file, no heapscan.
var engineLeaves = map[string]bool{
	"measure": true,
	"stats":   true,
	"units":   true,
}

// TestEngineImportsOnlyLeaves lists the engine's dependencies (go list
// -deps, without tests) and wants every package of the module among them
// to be a leaf: measure, stats, units or one under internal/.
func TestEngineImportsOnlyLeaves(t *testing.T) {
	others := 0
	for _, p := range deptest.ModuleDeps(t, ".") {
		if p == "memprof" {
			continue
		}
		others++
		if !engineLeaves[p] && !strings.HasPrefix(p, "internal/") {
			t.Errorf("the engine imports %s%s, want only measure, stats, units and internal/*", deptest.Module, p)
		}
	}
	if others == 0 {
		t.Error("go list -deps listed no package of the module but the engine: want its leaves")
	}
}
