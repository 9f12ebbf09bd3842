// Package resultsfixture loads, for the renderers' tests, the results file
// of a real run (fixtures/results/results.json; its README says how it is
// made), so that every golden test renders the same measurements.
package resultsfixture

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/memprof/memprof/results"
)

// Path returns the fixture's path, found from this source file, so that a
// test of any package can read it.
func Path() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "..", "fixtures", "results", "results.json")
}

// Load reads the fixture through the results' validating reader and fails the
// test if it cannot, or if it has no instances. Each call returns a new
// value the test owns.
func Load(t testing.TB) *results.File {
	t.Helper()
	rs, err := results.ReadFile(Path())
	if err != nil {
		t.Fatal(err)
	}
	if len(rs.Instances) == 0 {
		t.Fatalf("%s: no instances", Path())
	}
	return rs
}
