package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/export"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
)

// TestExportCommand: memprof export writes what the export package
// writes for the file, to stdout or -o; it refuses a bad format, a
// missing or invalid file (2, as check does), and names the cases that
// failed to measure (1).
func TestExportCommand(t *testing.T) {
	fixture := "../../fixtures/results/results.json"
	withFailure := "../../fixtures/budgets/results.json" // Signature/gnark/affine failed
	dir := t.TempDir()
	invalid := filepath.Join(dir, "invalid.json")
	if err := os.WriteFile(invalid, []byte(`{"schema": "memprof.results/v1", "env": {}, "instances": [{"type": "Signature", "lib": "blst", "repr": "affine", "layout": "pointer", "n": 10, "bytes_per_instance": null, "allocs_per_instance": 1}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range export.Formats {
		t.Run(string(f), func(t *testing.T) {
			rs, err := results.ReadFile(fixture)
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			if err := export.Write(&want, rs, f); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := runCLI(t, "export", "--to", string(f), fixture)
			if code != exitOK || stdout != want.String() || stderr != "" {
				t.Errorf("got exit %d, stderr %q, stdout of %d bytes; want 0, nothing, the export's %d bytes", code, stderr, len(stdout), want.Len())
			}
			out := filepath.Join(dir, string(f))
			if got := runToFile(t, out, exitOK, "export", fixture, "--to", string(f), "-o", out); !bytes.Equal(got, want.Bytes()) {
				t.Errorf("-o wrote %d bytes, want the export's %d", len(got), want.Len())
			}
		})
	}
	tests := []cliCase{
		{name: "no format", args: []string{fixture}, code: exitUsage, wantErr: []string{"--to is required: the formats are github-action-benchmark, bencher, benchfmt"}},
		{name: "unknown format", args: []string{"--to", "csv", fixture}, code: exitUsage, wantErr: []string{`--to: unknown format "csv": valid formats are github-action-benchmark, bencher, benchfmt`}},
		{name: "no file", args: []string{"--to", "bencher"}, code: exitUsage, wantErr: []string{"want one results file, RESULTS.json, got 0 argument(s)"}},
		{name: "missing file", args: []string{"--to", "bencher", filepath.Join(dir, "none.json")}, code: exitUsage, wantErr: []string{"no such file or directory"}},
		{name: "invalid file", args: []string{"--to", "github-action-benchmark", invalid}, code: exitUsage,
			wantErr: []string{invalid + ": instances[0] (Signature/blst/affine/pointer): bytes_per_instance is null"}},
		{name: "too large", args: []string{"--to", "bencher", "--max-bytes", "16", fixture}, code: exitUsage, wantErr: []string{"larger than the limit", "--max-bytes"}},
		{name: "failed case", args: []string{"--to", "bencher", withFailure}, code: exitFailure,
			wantOut: []string{`"type=Signature/lib=blst/repr=affine/layout=pointer"`},
			wantErr: []string{"memprof export: Signature/gnark/affine/pointer failed to measure in " + withFailure + ": it has no figure to export"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, _ := runChecked(t, append([]string{"export"}, tt.args...), tt.code, tt.wantOut, tt.wantErr)
			if tt.code == exitUsage && stdout != "" {
				t.Errorf("stdout: got %q, want nothing for bad input", stdout)
			}
		})
	}
}

// TestVersion: memprof version and --version print memprof's version
// from the build info, Go's, and a line for every crypto library of the
// registry, with its version from the build info or "not in this build".
func TestVersion(t *testing.T) {
	var want []string
	for _, m := range registry().Modules() {
		want = append(want, m+" ")
	}
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, stdout, stderr := runCLI(t, args...)
		if code != exitOK || stderr != "" {
			t.Fatalf("%v: got exit %d, stderr %q; want 0 and nothing", args, code, stderr)
		}
		lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
		if !strings.HasPrefix(lines[0], "memprof ") || lines[0] == "memprof " {
			t.Errorf("%v: first line %q, want memprof and its version", args, lines[0])
		}
		checkContains(t, "stdout", stdout, append(want, "\ngo "+goVersion()+" "))
		versions := memprof.ModuleVersions(registry().Modules()...)
		for _, m := range registry().Modules() {
			want := m + " not in this build"
			if v, ok := versions[m]; ok {
				want = m + " " + v
			}
			if !slices.Contains(lines, want) {
				t.Errorf("%v: no line %q in %q", args, want, lines)
			}
		}
	}
}

func goVersion() string { return runtime.Version() }
