package workflow

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNoFixturesImport: the workflow orchestrates; the vectors an
// operation is checked against come through the suites (suites.Vectors),
// so no non-test file of the package imports fixtures.
func TestNoFixturesImport(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range af.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "github.com/memprof/memprof/fixtures" || strings.HasPrefix(p, "github.com/memprof/memprof/fixtures/") {
				t.Errorf("%s imports %s: vectors come through suites", f, p)
			}
		}
	}
	if checked == 0 {
		t.Error("no non-test file checked")
	}
}
