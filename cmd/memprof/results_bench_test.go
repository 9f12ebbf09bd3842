package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/memprof/memprof/internal/testresults"
)

// resultsFiles is a results file of some rows and a budgets file of a
// budget per case of them, for the commands that read them.
type resultsFiles struct {
	dir, results, budgets string
}

// writeResultsFiles writes testresults.Make(rows) and its budgets into
// dir: one per case (the cases of the fixture, each budget selecting the
// case in every copy: the budgets are the registry's, the rows grow).
func writeResultsFiles(tb testing.TB, dir string, rows int) resultsFiles {
	tb.Helper()
	rs, err := testresults.Make(rows, 8)
	if err != nil {
		tb.Fatal(err)
	}
	f := resultsFiles{dir: dir, results: filepath.Join(dir, "results.json"), budgets: filepath.Join(dir, "budgets.yaml")}
	var buf bytes.Buffer
	if err := rs.WriteJSON(&buf); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(f.results, buf.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(f.budgets, testresults.Budgets(rs), 0o644); err != nil {
		tb.Fatal(err)
	}
	return f
}

// resultsCommands are the commands that only read results files, as the
// benchmark and the memory test run them on f.
var resultsCommands = []struct {
	name string
	args func(f resultsFiles) []string
}{
	{"check", func(f resultsFiles) []string {
		return []string{"check", "--results", f.results, "--budgets", f.budgets}
	}},
	{"check-update", func(f resultsFiles) []string {
		return []string{"check", "--update", "--results", f.results, "--budgets", f.budgets}
	}},
	{"compare", func(f resultsFiles) []string { return []string{"compare", f.results, f.results} }},
	{"compare-markdown", func(f resultsFiles) []string {
		return []string{"compare", "--format", "markdown", f.results, f.results}
	}},
	{"export-gab", func(f resultsFiles) []string { return []string{"export", "--to", "github-action-benchmark", f.results} }},
	{"export-benchfmt", func(f resultsFiles) []string { return []string{"export", "--to", "benchfmt", f.results} }},
	{"export-bencher", func(f resultsFiles) []string { return []string{"export", "--to", "bencher", f.results} }},
	{"show", func(f resultsFiles) []string { return []string{"show", f.results} }},
	{"show-json", func(f resultsFiles) []string { return []string{"show", "--format", "json", f.results} }},
	{"report", func(f resultsFiles) []string {
		return []string{"report", "--from", f.results, "--out", filepath.Join(f.dir, "review"), "--force"}
	}},
}

// BenchmarkResultsCommand times each command that reads results files at
// two sizes: the time per row must not grow with the rows (linear time).
// The budgets are one per case of the registry the rows copy, so each
// budget selects more rows as they grow (gate's BenchmarkCheckUpdate
// grows the budgets instead).
func BenchmarkResultsCommand(b *testing.B) {
	for _, rows := range []int{2500, 10000} {
		f := writeResultsFiles(b, b.TempDir(), rows)
		for _, c := range resultsCommands {
			b.Run("cmd="+c.name+"/rows="+strconv.Itoa(rows), func(b *testing.B) {
				args := c.args(f)
				cpu0 := cpuTime()
				for b.Loop() {
					if code := run(context.Background(), args, io.Discard, io.Discard); code > exitFailure {
						b.Fatalf("memprof %v: exit %d", args, code)
					}
				}
				// CPU time as well as wall time: on a shared machine the
				// wall time per row moves with the load, the CPU time
				// with the work.
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rows), "ns/row")
				b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/float64(rows), "cpu-ns/row")
			})
		}
	}
}
