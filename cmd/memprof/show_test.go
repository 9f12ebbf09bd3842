package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/results"
)

// TestShow: show prints a saved results file as instances and throughput
// print theirs, its rows chosen by the selection flags, in every format;
// a file that is missing, invalid or too large, and a selection that
// matches no row, are refused (exit 2).
func TestShow(t *testing.T) {
	t.Setenv("COLUMNS", "120")
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"schema": "memprof.results/v1", "instances": [{"type": "Signature", "lib": "nope"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []cliCase{
		{"all", []string{resultsFixture}, exitOK, []string{"SecretKey ", "allocation sites", "agreement: ", "time/op"}, nil},
		{"one type", []string{resultsFixture, "--type", "G1", "--lib", "gnark"}, exitOK, []string{"G1 gnark "}, nil},
		{"operations only", []string{"--op", "verify", resultsFixture}, exitOK, []string{"verify"}, nil},
		{"markdown", []string{resultsFixture, "--type", "G2", "--format", "markdown"}, exitOK, []string{"### Bytes per instance", "| G2 "}, nil},
		{"csv", []string{resultsFixture, "--format", "csv", "--type", "G2"}, exitOK, []string{"kind,"}, nil},
		{"box", []string{resultsFixture, "--type", "G2", "--style", "box"}, exitOK, []string{"┌", "│ blst "}, nil},
		{"no such file", []string{"nope.json"}, exitUsage, nil, []string{"nope.json"}},
		{"invalid file", []string{bad}, exitUsage, nil, []string{"bad.json", "nope"}},
		{"too large", []string{resultsFixture, "--max-bytes", "1KiB"}, exitUsage, nil, []string{"--max-bytes"}},
		{"no row matches", []string{resultsFixture, "--type", "Blob"}, exitUsage, nil, []string{"no row of " + resultsFixture + " matches --type Blob; its types are SecretKey, PublicKey, Signature, G1, G2"}},
		{"two files", []string{resultsFixture, resultsFixture}, exitUsage, nil, []string{"want one results file"}},
		{"style with json", []string{resultsFixture, "--style", "box", "--format", "json"}, exitUsage, nil, []string{"--style does nothing with --format json"}},
	} {
		t.Run(tt.name, func(t *testing.T) { tt.check(t, "show") })
	}
}

// TestShowPrintsWhatInstancesPrints: show renders the file with the
// renderers instances and throughput use: its output is theirs, byte for
// byte.
func TestShowPrintsWhatInstancesPrints(t *testing.T) {
	t.Setenv("COLUMNS", "100")
	rs, err := results.ReadFile(resultsFixture)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	o := render.TableOptions{Width: 100, Checks: registry().CheckTexts()}
	if err := render.InstancesTableFit(&want, rs, o); err != nil {
		t.Fatal(err)
	}
	want.WriteString("\n")
	if err := render.ThroughputTableFit(&want, rs, o); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "show", resultsFixture)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stdout != want.String() {
		t.Errorf("show prints\n%s\nthe renderers\n%s", stdout, want.String())
	}
}

// TestShowDefaults: without --layout or --scheme, show keeps the rows a
// run measures by default (the default layouts, min-pk), as a budget
// without them selects, and counts on stderr what it left out; all widens.
func TestShowDefaults(t *testing.T) {
	file := budgetsDir + "schemes-layouts.json" // Signature/blst/affine pointer min-pk, pointer min-sig, slice min-pk
	tests := []struct {
		name     string
		flags    []string
		want     []string // the layout,scheme of each row shown
		stderrOK func(string) bool
	}{
		{"defaults", nil, []string{"pointer,min-pk"},
			func(s string) bool {
				return strings.Contains(s, "memprof show: 2 rows of other layouts or schemes than a run measures by default not shown: --layout all --scheme all shows them")
			}},
		{"all", []string{"--layout", "all", "--scheme", "all"}, []string{"pointer,min-pk", "pointer,min-sig", "slice,min-pk"},
			func(s string) bool { return s == "" }},
		// The slice row is of min-pk, which --scheme left out: no default did.
		{"min-sig", []string{"--scheme", "min-sig"}, []string{"pointer,min-sig"},
			func(s string) bool { return s == "" }},
		{"a layout, the default scheme", []string{"--layout", "pointer"}, []string{"pointer,min-pk"},
			func(s string) bool { return strings.Contains(s, "memprof show: 1 row of other layouts or schemes") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, append([]string{"show", file, "--type", "Signature", "--format", "csv"}, tt.flags...)...)
			if code != exitOK {
				t.Fatalf("exit %d, want 0\n%s", code, stderr)
			}
			var got []string
			for _, line := range strings.Split(strings.TrimSpace(stdout), "\n")[1:] {
				f := strings.Split(line, ",")
				got = append(got, f[4]+","+f[5])
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("rows: got %v, want %v", got, tt.want)
			}
			if !tt.stderrOK(stderr) {
				t.Errorf("stderr: got %q", stderr)
			}
		})
	}
}
