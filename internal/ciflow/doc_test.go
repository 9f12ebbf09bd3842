package ciflow

import (
	"os"
	"regexp"
	"testing"
)

const ciDoc = moduleRoot + "/docs/ci.md"

// TestDocIncludes: docs/ci.md includes the workflow, the recorded run and
// its comments. The copies are diffed byte for byte, and re-rendered with
// -update, by cmd/memprof's TestDocBlocks, which reads every block's
// marker; this test says which files must be there.
func TestDocIncludes(t *testing.T) {
	b, err := os.ReadFile(ciDoc)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^<!-- doc: include (\S+) -->$`).FindAllSubmatch(b, -1) {
		seen[string(m[1])] = true
	}
	for _, f := range []string{".github/workflows/memprof.yml", "fixtures/ci/run.txt", "fixtures/ci/comment-unchanged.md", "fixtures/ci/comment-regression.md"} {
		if !seen[f] {
			t.Errorf("%s includes no %s (a <!-- doc: include %s --> block)", ciDoc, f, f)
		}
	}
}
