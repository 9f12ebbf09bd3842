package main

import (
	"bytes"
	"os"
	"path/filepath"
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
	o := render.TableOptions{Width: 100}
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
