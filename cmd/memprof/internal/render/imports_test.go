package render

import (
	"testing"

	"github.com/memprof/memprof/internal/deptest"
)

// TestRenderDoesNotImportTheEngine lists render's dependencies (go list
// -deps, without tests) and wants the engine (memprof) and the
// orchestration above it (workflow) among none of them: presentation
// reads results, and the sweep's fit comes from stats.
func TestRenderDoesNotImportTheEngine(t *testing.T) {
	for _, p := range deptest.ModuleDeps(t, ".") {
		switch p {
		case "memprof", "workflow":
			t.Errorf("render imports %s%s, want presentation on results, not the engine", deptest.Module, p)
		}
	}
}
