package deptest

import (
	"slices"
	"testing"
)

// TestModuleDeps: the package's own dependencies on the module are none
// but itself, and a package of the module that imports others lists them.
func TestModuleDeps(t *testing.T) {
	if got := ModuleDeps(t, "."); !slices.Equal(got, []string{"internal/deptest"}) {
		t.Errorf("deptest: got %q, want only internal/deptest", got)
	}
	got := ModuleDeps(t, "../../results")
	for _, want := range []string{"results", "measure"} {
		if !slices.Contains(got, want) {
			t.Errorf("results: got %q, want %s among them", got, want)
		}
	}
}
