package ciflow

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/ci.md's included blocks from their files")

const ciDoc = moduleRoot + "/docs/ci.md"

// include is a line that names the file whose copy the fenced block after
// it is.
var include = regexp.MustCompile(`^<!-- include: (\S+) -->$`)

// TestDocIncludes: every block of docs/ci.md after an include line is the
// named file byte for byte (the workflow, the recorded run and its
// comments); -update rewrites them.
func TestDocIncludes(t *testing.T) {
	b, err := os.ReadFile(ciDoc)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	var out strings.Builder
	seen := map[string]bool{}
	for i := 0; i < len(lines); i++ {
		out.WriteString(lines[i])
		m := include.FindStringSubmatch(strings.TrimRight(lines[i], "\n"))
		if m == nil {
			continue
		}
		seen[m[1]] = true
		if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "```") {
			t.Fatalf("%s:%d: include of %s without a fenced block on the next line", ciDoc, i+1, m[1])
		}
		fence := strings.TrimRight(lines[i+1], "\n")
		fence = fence[:strings.LastIndex(fence, "`")+1]
		end := i + 2
		for end < len(lines) && strings.TrimRight(lines[end], "\n") != fence {
			end++
		}
		if end >= len(lines) {
			t.Fatalf("%s:%d: the block of %s does not end", ciDoc, i+2, m[1])
		}
		want, err := os.ReadFile(filepath.Join(moduleRoot, m[1]))
		if err != nil {
			t.Fatalf("%s:%d: %v", ciDoc, i+1, err)
		}
		if strings.Contains(string(want), fence+"\n") {
			t.Fatalf("%s:%d: %s holds the block's fence %s: use a longer one", ciDoc, i+2, m[1], fence)
		}
		got := strings.Join(lines[i+2:end], "")
		if got != string(want) && !*update {
			t.Errorf("%s:%d: the block is not %s (go test ./internal/ciflow -update rewrites it)", ciDoc, i+2, m[1])
		}
		fmt.Fprintf(&out, "%s%s", lines[i+1], want)
		i = end - 1
	}
	for _, f := range []string{".github/workflows/memprof.yml", "fixtures/ci/run.txt", "fixtures/ci/comment-regression.md"} {
		if !seen[f] {
			t.Errorf("%s includes no %s", ciDoc, f)
		}
	}
	if *update && out.String() != string(b) {
		if err := os.WriteFile(ciDoc, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
