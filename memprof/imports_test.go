package memprof

import (
	"os/exec"
	"strings"
	"testing"
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
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	out, err := exec.Command(gobin, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	const module = "github.com/memprof/memprof/"
	var got []string
	for _, p := range strings.Fields(string(out)) {
		rel, ok := strings.CutPrefix(p, module)
		if !ok || rel == "memprof" {
			continue
		}
		got = append(got, rel)
		if !engineLeaves[rel] && !strings.HasPrefix(rel, "internal/") {
			t.Errorf("the engine imports %s, want only measure, stats, units and internal/*", p)
		}
	}
	if len(got) == 0 {
		t.Errorf("go list -deps listed no package of the module: got %q", out)
	}
}
