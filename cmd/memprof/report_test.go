package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/cmd/memprof/internal/report"
	"github.com/memprof/memprof/internal/testfs"
	"github.com/memprof/memprof/results"
)

const resultsFixture = "../../fixtures/results/results.json"

func TestReportFrom(t *testing.T) {
	out := filepath.Join(t.TempDir(), "review")
	code, stdout, stderr := runCLI(t, "report", "--from", resultsFixture, "--out", out)
	if code != exitOK {
		t.Fatalf("exit code: got %d, want %d; stderr: %s", code, exitOK, stderr)
	}
	if stdout != "" || stderr != "" {
		t.Errorf("got stdout %q and stderr %q, want both empty (stderr is not a terminal)", stdout, stderr)
	}
	got := testfs.Names(t, out)
	for _, want := range []string{report.ReadmeFile, report.BytesChart, report.ResultsJSON, report.ResultsCSV, report.ResultsBench} {
		if !slices.Contains(got, want) {
			t.Errorf("review has no %s (it has %v)", want, got)
		}
	}
}

func TestReportBadInput(t *testing.T) {
	dir := t.TempDir()
	fixture, err := os.ReadFile(resultsFixture)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	truncated := write("truncated.json", fixture[:len(fixture)/2])
	otherSchema := write("other.json", []byte(`{"schema":"someone-else/v2","instances":[]}`))
	notJSON := write("notes.txt", []byte("hello\n"))
	full := filepath.Join(dir, "full")
	os.Mkdir(full, 0o755)
	mine := filepath.Join(full, "mine.txt")
	os.WriteFile(mine, []byte("keep me"), 0o644)

	tests := []struct {
		name string
		args []string
		out  string // the --out that must not be created (or changed)
		code int
		want []string // substrings of stderr
	}{
		{"truncated", []string{"--from", truncated}, "r1", exitUsage, []string{truncated, "truncated"}},
		{"other schema", []string{"--from", otherSchema}, "r2", exitUsage, []string{otherSchema, `"someone-else/v2"`, results.Schema}},
		{"not JSON", []string{"--from", notJSON}, "r3", exitUsage, []string{notJSON, "not a " + results.Schema + " file"}},
		{"missing", []string{"--from", filepath.Join(dir, "nope.json")}, "r4", exitUsage, []string{"nope.json", "no such file"}},
		{"out not empty", []string{"--from", resultsFixture}, "full", exitUsage, []string{full, "not empty", "--force"}},
		{"from with type", []string{"--from", resultsFixture, "--type", "Signature"}, "r5", exitUsage, []string{"--from", "--type"}},
		{"no out", []string{"--from", resultsFixture}, "", exitUsage, []string{"--out is required"}},
		{"no type", nil, "r6", exitUsage, []string{"--type is required"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"report"}, tt.args...)
			out := ""
			if tt.out != "" {
				out = filepath.Join(dir, tt.out)
				args = append(args, "--out", out)
			}
			before := testfs.Names(t, dir)
			stdout, _ := runChecked(t, args, tt.code, nil, tt.want)
			if stdout != "" {
				t.Errorf("stdout: got %q, want nothing", stdout)
			}
			if after := testfs.Names(t, dir); !slices.Equal(after, before) {
				t.Errorf("files beside --out: got %v, want %v (nothing written)", after, before)
			}
			if tt.out == "full" {
				if got := testfs.Names(t, full); !slices.Equal(got, []string{"mine.txt"}) {
					t.Errorf("refused --out: got %v, want only mine.txt", got)
				}
			}
		})
	}
}

// TestReportMeasures: report measures the tiny registry's Signature
// cases and times their operation in one run, after the (stub) agreement
// check, and writes the review: its results file, the trade-off file and
// a README naming both representations, nothing on stdout, no progress
// when stderr is not a terminal.
func TestReportMeasures(t *testing.T) {
	t.Parallel() // changes no environment, directory or package variable; measures, if at all, in children
	out := filepath.Join(t.TempDir(), "review")
	code, stdout, stderr := runTiny(t, "report", "--type", "Signature", "--lib", "gnark", "--repr", "affine,jacobian", "-n", "200",
		"--op", "aggregate", "--samples", "1", "--min-sample", "1ms", "--out", out)
	if code != exitOK {
		t.Fatalf("exit code: got %d, want %d; stderr: %s", code, exitOK, stderr)
	}
	if stdout != "" {
		t.Errorf("stdout: got %q, want nothing", stdout)
	}
	if strings.Contains(stderr, "\r") || strings.Contains(stderr, "case 1 of") {
		t.Errorf("stderr %q shows progress, but it is not a terminal", stderr)
	}
	rs, err := results.ReadFile(filepath.Join(out, report.ResultsJSON))
	if err != nil {
		t.Fatal(err)
	}
	if len(rs.Instances) != 2 {
		t.Fatalf("got %d instances, want 2", len(rs.Instances))
	}
	for _, r := range rs.Instances {
		if r.Error != "" || r.N != 200 || r.BytesPerInstance <= 0 {
			t.Errorf("%s: got error %q, N %d, %v B/instance; want a measurement at N = 200", r.Key, r.Error, r.N, r.BytesPerInstance)
		}
	}
	if len(rs.Throughput) != 2 {
		t.Fatalf("got %d throughput rows, want 2 (aggregate of gnark affine and jacobian)", len(rs.Throughput))
	}
	for _, r := range rs.Throughput {
		if r.Error != "" || r.Op != "aggregate" || r.NsPerOpMedian <= 0 {
			t.Errorf("%s/%s %s: got error %q, %v ns/op; want a timing", r.Lib, r.Repr, r.Op, r.Error, r.NsPerOpMedian)
		}
	}
	if rs.Agreement == nil || !rs.Agreement.OK {
		t.Errorf("agreement: got %+v, want a passed check", rs.Agreement)
	}
	names := testfs.Names(t, out)
	if !slices.Contains(names, report.TradeoffFile("Signature")) {
		t.Errorf("review has no %s (it has %v)", report.TradeoffFile("Signature"), names)
	}
	readme, err := os.ReadFile(filepath.Join(out, report.ReadmeFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(readme, []byte("gnark affine")) || !bytes.Contains(readme, []byte("gnark jacobian")) {
		t.Errorf("README.md does not name both representations")
	}
}

// TestReportWithoutThroughput: report --throughput=false measures the
// instance cases only (the tiny registry's one case here) and its README
// says so.
func TestReportWithoutThroughput(t *testing.T) {
	t.Parallel() // changes no environment, directory or package variable; measures in a child
	out := filepath.Join(t.TempDir(), "review")
	code, stdout, stderr := runTiny(t, "report", "--type", "Signature", "--lib", "gnark", "--repr", "affine", "-n", "200", "--throughput=false", "--out", out)
	if code != exitOK || stdout != "" || stderr != "" {
		t.Fatalf("got exit %d, stdout %q, stderr %q; want 0 and nothing printed", code, stdout, stderr)
	}
	rs, err := results.ReadFile(filepath.Join(out, report.ResultsJSON))
	if err != nil {
		t.Fatal(err)
	}
	if len(rs.Instances) != 1 || len(rs.Throughput) != 0 {
		t.Errorf("got %d instances and %d throughput rows, want 1 and 0", len(rs.Instances), len(rs.Throughput))
	}
	readme, _ := os.ReadFile(filepath.Join(out, report.ReadmeFile))
	if !bytes.Contains(readme, []byte("--throughput=false")) {
		t.Errorf("README.md does not say throughput was skipped")
	}
}

func TestInstancesFormats(t *testing.T) {
	t.Parallel() // changes no environment, directory or package variable; measures in children
	args := []string{"instances", "--type", "Signature", "--lib", "gnark", "--repr", "affine", "-n", "200", "--format"}
	t.Run("csv", func(t *testing.T) {
		code, stdout, stderr := runTiny(t, append(args, "csv")...)
		if code != exitOK {
			t.Fatalf("exit code: got %d; stderr: %s", code, stderr)
		}
		recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(recs[0], render.CSVHeader) {
			t.Errorf("header: got %v, want %v", recs[0], render.CSVHeader)
		}
		if len(recs) != 2 || recs[1][0] != render.CSVKindInstances {
			t.Errorf("got %d rows (%v), want the header and one instances row", len(recs), recs)
		}
	})
	t.Run("bench", func(t *testing.T) {
		code, stdout, stderr := runTiny(t, append(args, "bench")...)
		if code != exitOK {
			t.Fatalf("exit code: got %d; stderr: %s", code, stderr)
		}
		r := benchfmt.NewReader(strings.NewReader(stdout), "stdout")
		var names []string
		for r.Scan() {
			if res, ok := r.Result().(*benchfmt.Result); ok {
				names = append(names, res.Name.String())
			}
		}
		if want := []string{"Instances/type=Signature/lib=gnark/repr=affine/layout=pointer/" + string(tinyParam)}; !slices.Equal(names, want) {
			t.Errorf("got results %v, want %v", names, want)
		}
	})
	t.Run("markdown", func(t *testing.T) {
		code, stdout, stderr := runTiny(t, append(args, "markdown")...)
		if code != exitOK {
			t.Fatalf("exit code: got %d; stderr: %s", code, stderr)
		}
		if !strings.Contains(stdout, "| Signature | gnark | affine ") {
			t.Errorf("markdown has no Signature/gnark/affine row:\n%s", stdout)
		}
	})
	t.Run("unknown", func(t *testing.T) {
		code, _, stderr := runTiny(t, append(args, "yaml")...)
		if code != exitUsage || !strings.Contains(stderr, "markdown") {
			t.Errorf("got exit %d and stderr %q, want %d listing the formats", code, stderr, exitUsage)
		}
	})
}

// TestReportHelpListsFiles: report's help names every file a review can
// write, each of report.Files, and a review writes no file it does not
// name.
func TestReportHelpListsFiles(t *testing.T) {
	_, stdout, _ := runCLI(t, "report", "-h")
	for _, f := range report.Files() {
		if !strings.Contains(stdout, "\t"+f.Name+" ") {
			t.Errorf("report -h does not list %s", f.Name)
		}
	}
	out := filepath.Join(t.TempDir(), "review")
	if code, _, stderr := runCLI(t, "report", "--from", "../../fixtures/results/results.json", "--out", out); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		listed := false
		for _, f := range report.Files() {
			prefix, _, pattern := strings.Cut(f.Name, "<")
			listed = listed || f.Name == e.Name() || pattern && strings.HasPrefix(e.Name(), prefix)
		}
		if !listed {
			t.Errorf("the review writes %s, which report -h does not list", e.Name())
		}
	}
}
