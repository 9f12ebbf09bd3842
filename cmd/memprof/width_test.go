package main

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// TestListFitsColumns: list fits the width $COLUMNS gives when standard
// output is not a terminal, and 120 without it.
func TestListFitsColumns(t *testing.T) {
	for _, tt := range []struct {
		columns string
		width   int
	}{{"80", 80}, {"100", 100}, {"", 120}, {"junk", 120}} {
		t.Run(tt.columns, func(t *testing.T) {
			t.Setenv("COLUMNS", tt.columns)
			code, stdout, stderr := runCLI(t, "list")
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			widest := 0
			for _, line := range strings.Split(stdout, "\n") {
				widest = max(widest, twwidth.Width(line))
			}
			if widest > tt.width {
				t.Errorf("widest line is %d columns, want at most %d", widest, tt.width)
			}
			if widest < tt.width-20 {
				t.Errorf("widest line is %d columns: the table does not use the width %d", widest, tt.width)
			}
		})
	}
}

// TestTableFlags: --wide and --columns choose the table's columns, are
// refused together, with another format than the table, and with a
// column the table does not have.
func TestTableFlags(t *testing.T) {
	t.Parallel() // measures the tiny registry's cases in children; the width is standard output's own (runAt)
	sig := []string{"instances", "--type", "Signature", "--lib", "gnark", "--repr", "affine", "-n", "1000"}
	tests := []cliCase{
		{"wide and columns", []string{"--wide", "--columns", "type"}, exitUsage, nil, []string{"--wide and --columns both choose the columns: give one"}},
		{"columns with csv", []string{"--columns", "type", "--format", "csv"}, exitUsage, nil, []string{"--columns does nothing with --format csv: only the table chooses columns"}},
		{"wide with json", []string{"--wide", "--format", "json"}, exitUsage, nil, []string{"--wide does nothing with --format json"}},
		{"unknown column", []string{"--columns", "type,bogus"}, exitUsage, nil, []string{`--columns: unknown column "bogus"`}},
		{"column of operations", []string{"--columns", "time/op"}, exitUsage, nil, []string{`--columns: column "time/op" is not one of the instance table's: choose from`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.check(t, sig...) })
	}
	if testing.Short() {
		return
	}
	var wide []string
	for _, c := range results.InstanceColumns(results.InTable) {
		wide = append(wide, c.Header(results.InTable))
	}
	for _, tt := range []struct {
		name   string
		args   []string
		header []string
	}{
		// One row: every key is a column (none moves into the heading).
		{"default", nil, []string{"type", "lib", "repr", "layout", "scheme", "B/instance", "allocs/instance", "GC scan B", "GC CPU/cycle", "slot"}},
		{"columns", []string{"--columns", "lib,sizeof_bytes,B/instance"}, []string{"lib", "sizeof", "B/instance"}},
		{"wide", []string{"--wide"}, append(wide[:4:4], append([]string{"scheme"}, wide[4:]...)...)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runAt(tinyRegistry, 100, append(sig, tt.args...)...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			tables, _ := parseTables(stdout)
			if len(tables) == 0 {
				t.Fatalf("no table:\n%s", stdout)
			}
			var got []string
			for _, h := range tables[0].Header {
				for _, c := range tt.header {
					if h == c || h == shortHeader(c) {
						got = append(got, c)
					}
				}
			}
			if !slices.Equal(got, tt.header) {
				t.Errorf("header: got %q, want %q (or their short headers)\n%s", tables[0].Header, tt.header, stdout)
			}
		})
	}
}

// TestSignatureOnOneScreen is issue 22's acceptance: instances --type
// Signature prints its cases table with its footnotes in at most 25 lines
// and its whole output in at most 45, at 80 and at 120 columns, with every
// default figure column (by its label or its short header) at 80. go test
// checks the committed Signature results (fixtures/docs/signature.json,
// the README's table), shown as instances shows them (one renderer);
// TestSignatureOnOneScreenMeasured checks a new measurement of every case.
func TestSignatureOnOneScreen(t *testing.T) {
	t.Parallel() // renders a fixture; the width is standard output's own (runAt)
	checkOneScreen(t, "../../fixtures/docs/signature.json")
}

// TestSignatureOnOneScreenMeasured is TestSignatureOnOneScreen on every
// Signature case measured now, with -cli.real-suites (.ci/run).
func TestSignatureOnOneScreenMeasured(t *testing.T) {
	if !*realSuites {
		t.Skip("measures every Signature case with -cli.real-suites (.ci/run); TestSignatureOnOneScreen checks the committed results")
	}
	if buildLacksCgo() {
		t.Skip("without cgo the blst rows are n/a: one more footnote than the build the issue counts")
	}
	// Measured once; show prints it as instances does (one renderer).
	jsonPath := filepath.Join(t.TempDir(), "signature.json")
	if code, _, stderr := runCLI(t, "instances", "--type", "Signature", "--format", "json", "-o", jsonPath); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	checkOneScreen(t, jsonPath)
}

// checkOneScreen checks show's output of the Signature results in
// jsonPath at 80 and 120 columns (see TestSignatureOnOneScreen).
func checkOneScreen(t *testing.T, jsonPath string) {
	t.Helper()
	for _, width := range []int{80, 120} {
		t.Run(strconv.Itoa(width), func(t *testing.T) {
			code, stdout, stderr := runAt(registry, width, "show", jsonPath)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !strings.Contains(stdout, "Signature") {
				t.Fatalf("show printed no Signature case:\n%s", stdout)
			}
			cases, _, _ := strings.Cut(stdout, "\n\n")
			if n := strings.Count(cases, "\n") + 1; n > 25 {
				t.Errorf("the cases table and its footnotes take %d lines, want at most 25:\n%s", n, cases)
			}
			if n := strings.Count(stdout, "\n"); n > 45 {
				t.Errorf("the output takes %d lines, want at most 45:\n%s", n, stdout)
			}
			tables, _ := parseTables(stdout)
			for _, c := range results.InstanceColumns(results.InDefaultTable) {
				if slices.Contains(keyColumnNames, c.Name) {
					continue
				}
				if !slices.Contains(tables[0].Header, c.Header(results.InTable)) && !slices.Contains(tables[0].Header, c.ShortLabel()) {
					t.Errorf("no %s column at %d columns: %q", c.Header(results.InTable), width, tables[0].Header)
				}
			}
		})
	}
}

// keyColumnNames are the columns that name a case (the heading holds
// those with one value).
var keyColumnNames = []string{"type", "lib", "repr", "layout", "scheme", "param"}

// buildLacksCgo reports whether this build leaves out the cgo libraries
// (CGO_ENABLED=0): their cases are unavailable, for that reason.
func buildLacksCgo() bool {
	for _, e := range registry().Entries() {
		if e.Unavailable.Kind == vocab.NeedsCgo {
			return true
		}
	}
	return false
}
