package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/memprof/memprof/internal/childtest"
	"github.com/memprof/memprof/internal/peakrss"
	"github.com/memprof/memprof/internal/testresults"
	"github.com/memprof/memprof/results"
)

var rssScale = flag.Float64("rss-scale", 0.05, "size of TestResultsRSS's files, as a fraction of the row limit (1: files at the limit, for .ci/run)")

// rssTarget is the bound on what a command reading a results file
// at the row limit may cost: under 300 MB of resident memory.
const rssTarget = 300e6

// rssBaseline is what the bound allows at any scale for the binary
// itself (its code and the runtime's own memory): the bound at scale s is
// rssBaseline + (rssTarget - rssBaseline) × s.
const rssBaseline = 60e6

// rssChildEnv, when set, makes the test binary run the memprof command
// it holds (JSON arguments) and print its peak resident set (see
// TestMain).
const rssChildEnv = "MEMPROF_TEST_RSS_ARGS"

// TestResultsRSS runs every command that reads results files, on files of
// every shape (testresults.Shapes) at -rss-scale of the row limit, each
// in a child process whose peak resident set (VmHWM, which a new process
// starts afresh) must stay under the bound: at scale 1 (.ci/run), 300 MB.
// compare reads two files of the shape, report --from two sharing the
// limit.
func TestResultsRSS(t *testing.T) {
	// Each peak is a child process's own resident set (VmHWM), which what
	// runs beside it cannot raise; the children run one after another.
	t.Parallel()
	if testing.Short() {
		t.Skip("writes results files of tens of thousands of rows")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads VmHWM from /proc")
	}
	scale := min(max(*rssScale, 0.01), 1)
	rows := int(float64(results.DefaultMaxRows) * scale)
	bound := int64(rssBaseline + (rssTarget-rssBaseline)*scale)
	shapes := testresults.Shapes
	if scale < 0.5 {
		shapes = shapes[:1] // go test ./...: the realistic shape only, scaled down
	}
	for _, shape := range shapes {
		dir := t.TempDir()
		rs, err := testresults.MakeShape(rows, shape)
		if err != nil {
			t.Fatal(err)
		}
		results := filepath.Join(dir, "results.json")
		half := filepath.Join(dir, "half.json")
		writeJSONFile(t, results, rs)
		h := *rs
		// Two halves share the row limit: at most half of it each, and an
		// instance row in each (a review needs one).
		h.Instances, h.Throughput = rs.Instances[:max(len(rs.Instances)/2, 1)], rs.Throughput[:len(rs.Throughput)/2]
		writeJSONFile(t, half, &h)
		// The budgets of the registry's cases the realistic rows copy: the
		// other shapes lack them, which check reports (exit 1) after
		// reading the whole file.
		budgets := filepath.Join(dir, "budgets.yaml")
		real, err := testresults.Make(200, 4)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(budgets, testresults.Budgets(real), 0o644); err != nil {
			t.Fatal(err)
		}
		f := resultsFiles{dir: dir, results: results, budgets: budgets}
		cases := map[string][]string{"report --from two": {"report", "--from", half, "--from", half, "--out", filepath.Join(dir, "review2")}}
		for _, c := range resultsCommands {
			cases[c.name] = c.args(f)
		}
		for name, args := range cases {
			t.Run(string(shape)+"/"+name, func(t *testing.T) {
				rss, out := runRSSChild(t, args)
				t.Logf("%s, %d rows, %s: peak RSS %d MB (bound %d MB)", shape, rows, name, rss/1e6, bound/1e6)
				if rss > bound {
					t.Errorf("peak RSS %d bytes, want under %d; the command said:\n%s", rss, bound, out)
				}
			})
		}
	}
}

func writeJSONFile(t *testing.T, path string, rs *results.File) {
	t.Helper()
	var buf bytes.Buffer
	if err := rs.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// runRSSChild runs the memprof command args in a child (this test binary)
// and returns its peak resident set and what it printed on stderr. The
// command must succeed (exit 0 or 1).
func runRSSChild(t *testing.T, args []string) (int64, string) {
	t.Helper()
	spec, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr := childtest.Run(t, []string{rssChildEnv + "=" + string(spec)}, "GOMEMLIMIT", "GOGC")
	line := strings.TrimSpace(stdout)
	rss, err := strconv.ParseInt(strings.TrimPrefix(line, "peak RSS "), 10, 64)
	if err != nil {
		t.Fatalf("child printed %q, want its peak RSS", line)
	}
	return rss, clip(stderr)
}

// rssChild runs the command of rssChildEnv and prints its peak resident
// set; a usage error or a refused input fails the child.
func rssChild(spec string) int {
	var args []string
	if err := json.Unmarshal([]byte(spec), &args); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if code := run(context.Background(), args, io.Discard, os.Stderr); code > exitFailure {
		return code
	}
	rss, err := peakrss.Self()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Printf("peak RSS %d\n", rss)
	return 0
}
