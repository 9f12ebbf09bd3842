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

// rssTinyRows is the size of the tiny input on which each command's own
// cost (the binary's code, the runtime's memory, its registry) is
// measured first, in the same child, before the file at -rss-scale.
const rssTinyRows = 20

// childGOGC is the collector's setting in the child, which runs without
// GOGC (runRSSChild drops it): Go's default, under which the heap grows
// to (1 + childGOGC/100) times what is live before the next collection.
const childGOGC = 100

// overshoot is how far past the collector's goal the heap may run while
// its mark workers wait for a CPU, as a part of the live heap: on a
// machine shared several times over, the commands allocate on while the
// cycle that should hold them waits (notes/2026-12-06-busy.md).
const overshoot = 1.0

// rssChildEnv, when set, makes the test binary run the memprof commands
// it holds (JSON: a list of argument lists) one after the other and print
// its peak resident set after each (see TestMain).
const rssChildEnv = "MEMPROF_TEST_RSS_ARGS"

// TestResultsRSS runs every command that reads results files, on files of
// every shape (testresults.Shapes) at -rss-scale of the row limit, each
// in a child process whose peak resident set (VmHWM, which a new process
// starts afresh) must stay under the bound: at scale 1 (.ci/run), 300 MB.
// compare reads two files of the shape, report --from two sharing the
// limit.
//
// Below scale 1 the bound is derived, not set: the child first runs the
// command on a tiny file of the shape, whose peak is the command's own
// cost on this machine at this load (the base); the rows it then reads
// may add their share of what the target leaves above the base (their
// fraction of the row limit), times what the collector lets the heap
// grow to over what is live (twice, at GOGC 100) and the overshoot of a
// collector waiting for a CPU. At the limit the commands' soft memory
// limit, cliflag.ReadingMemoryLimit, holds it instead, and the bound is
// the target itself.
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
	shapes := testresults.Shapes
	if scale < 0.5 {
		shapes = shapes[:1] // go test ./...: the realistic shape only, scaled down
	}
	for _, shape := range shapes {
		tiny, full := rssCases(t, rssTinyRows, shape), rssCases(t, rows, shape)
		for name, c := range full {
			t.Run(string(shape)+"/"+name, func(t *testing.T) {
				peaks, out := runRSSChild(t, tiny[name].args, c.args)
				base, rss := peaks[0], peaks[1]
				bound := int64(rssTarget)
				if scale < 1 {
					share := float64(c.rowsRead-tiny[name].rowsRead) / float64(results.DefaultMaxRows)
					bound = min(bound, base+int64((1+childGOGC/100.0+overshoot)*(rssTarget-float64(base))*share))
				}
				t.Logf("%s, %d rows, %s: peak RSS %d MB; %d MB on %d rows (bound %d MB)", shape, rows, name, rss/1e6, base/1e6, rssTinyRows, bound/1e6)
				if rss > bound {
					t.Errorf("peak RSS %d bytes, want under %d (%d on the tiny file, and the share of the target of the %d rows read beyond it); the command said:\n%s",
						rss, bound, base, c.rowsRead-tiny[name].rowsRead, out)
				}
			})
		}
	}
}

// rssCase is a command TestResultsRSS runs, and how many rows it reads.
type rssCase struct {
	args     []string
	rowsRead int
}

// rssCases writes results files of rows rows of shape in a directory of
// their own and returns the commands TestResultsRSS runs on them, by
// name.
func rssCases(t *testing.T, rows int, shape testresults.Shape) map[string]rssCase {
	t.Helper()
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
	all := map[string][]string{"report --from two": {"report", "--from", half, "--from", half, "--out", filepath.Join(dir, "review2")}}
	for _, c := range resultsCommands {
		all[c.name] = c.args(f)
	}
	rowsOf := map[string]int{results: len(rs.Instances) + len(rs.Throughput), half: len(h.Instances) + len(h.Throughput)}
	cases := map[string]rssCase{}
	for name, args := range all {
		c := rssCase{args: args}
		for _, a := range args {
			c.rowsRead += rowsOf[a]
		}
		cases[name] = c
	}
	return cases
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

// runRSSChild runs the memprof commands of each of args, one after the
// other, in a child (this test binary) and returns its peak resident set
// after each and what it printed on stderr. The commands must succeed
// (exit 0 or 1).
func runRSSChild(t *testing.T, args ...[]string) ([]int64, string) {
	t.Helper()
	spec, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr := childtest.Run(t, []string{rssChildEnv + "=" + string(spec)}, "GOMEMLIMIT", "GOGC")
	var peaks []int64
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		rss, err := strconv.ParseInt(strings.TrimPrefix(line, "peak RSS "), 10, 64)
		if err != nil {
			t.Fatalf("child printed %q, want its peak RSS after each command", stdout)
		}
		peaks = append(peaks, rss)
	}
	if len(peaks) != len(args) {
		t.Fatalf("child printed %q, want %d peaks", stdout, len(args))
	}
	return peaks, clip(stderr)
}

// rssChild runs the commands of rssChildEnv, one after the other, and
// prints its peak resident set after each; a usage error or a refused
// input fails the child.
func rssChild(spec string) int {
	var args [][]string
	if err := json.Unmarshal([]byte(spec), &args); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	for _, a := range args {
		if code := run(context.Background(), a, io.Discard, os.Stderr); code > exitFailure {
			return code
		}
		rss, err := peakrss.Self()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fmt.Printf("peak RSS %d\n", rss)
	}
	return 0
}
