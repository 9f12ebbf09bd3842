package render

import (
	"os/exec"
	"strings"
	"testing"
)

// TestRenderDoesNotImportTheEngine lists render's dependencies (go list
// -deps, without tests) and wants the engine (memprof) and the
// orchestration above it (workflow) among none of them: presentation
// reads results, and the sweep's fit comes from stats.
func TestRenderDoesNotImportTheEngine(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	out, err := exec.Command(gobin, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	const module = "github.com/memprof/memprof/"
	deps := strings.Fields(string(out))
	for _, p := range deps {
		switch rel, _ := strings.CutPrefix(p, module); rel {
		case "memprof", "workflow":
			t.Errorf("render imports %s, want presentation on results, not the engine", p)
		}
	}
	if len(deps) == 0 {
		t.Errorf("go list -deps listed nothing: got %q", out)
	}
}
