package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memprof/memprof/results"
)

// TestReportSeveralMachines: report --from a.json --from b.json writes one
// review of both (each machine's environment, the cases that differ, the
// other machine's results file); a bad second file is refused (2) and
// nothing is written; an empty --from is a usage error.
func TestReportSeveralMachines(t *testing.T) {
	dir := t.TempDir()
	fixture := "../../fixtures/results/results.json"
	a, err := results.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, rs *results.File) string {
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err == nil {
			err = errors.Join(rs.WriteJSON(f), f.Close())
		}
		if err != nil {
			t.Fatal(err)
		}
		return path
	}
	a.Env.Machine = "amd64-runner"
	pathA := write("amd64.json", a)
	b, _ := results.ReadFile(fixture)
	b.Env.Machine, b.Env.GOARCH = "arm64-runner", "arm64"
	b.Instances[0].BytesPerInstance += 16
	pathB := write("arm64.json", b)
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"schema": "memprof.results/v1", "instances": [{"type": "G1"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}

	out := filepath.Join(dir, "review")
	runChecked(t, []string{"report", "--from", pathA, "--from", pathB, "--out", out}, exitOK, nil, nil)
	readme, err := os.ReadFile(filepath.Join(out, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	first := b.Instances[0].Key.String()
	for _, w := range []string{"## Machines", "### Differs across machines", "| " + first + " ", "### amd64-runner", "### arm64-runner", "results-arm64-runner.json"} {
		if !strings.Contains(string(readme), w) {
			t.Errorf("README lacks %q", w)
		}
	}
	other, err := results.ReadFile(filepath.Join(out, "results-arm64-runner.json"))
	if err != nil || other.Env.Machine != "arm64-runner" {
		t.Errorf("results-arm64-runner.json: got %v, %v; want arm64's results", other, err)
	}

	badOut := filepath.Join(dir, "bad-review")
	runChecked(t, []string{"report", "--from", pathA, "--from", bad, "--out", badOut}, exitUsage, nil, []string{bad + ": instances[0]"})
	if _, err := os.Stat(badOut); !os.IsNotExist(err) {
		t.Errorf("a refused review wrote %s (%v)", badOut, err)
	}
	checkUsageError(t, []string{"report", "--from", pathA, "--from", "", "--out", badOut}, []string{"--from is empty: give a value, or leave the flag out for the default"})
	checkUsageError(t, []string{"report", "--from", pathA, "--machine", "x", "--out", badOut}, []string{"--from renders a saved results file and measures nothing: it cannot be combined with --machine"})
}

// TestReportMachinesOfOneHost: three CI artifacts all called
// results.json, from runners that share a host name, each keep their own
// results file in the review, and the review names each by its path.
func TestReportMachinesOfOneHost(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i, runner := range []string{"amd64", "arm64", "riscv64"} {
		rs, err := results.ReadFile("../../fixtures/results/results.json")
		if err != nil {
			t.Fatal(err)
		}
		rs.Env.Machine = "runner-host"
		rs.Instances[0].BytesPerInstance += float64(8 * i) // each runner's own figure
		path := filepath.Join(dir, runner, "results.json")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(path)
		if err == nil {
			err = errors.Join(rs.WriteJSON(f), f.Close())
		}
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	out := filepath.Join(dir, "review")
	runChecked(t, []string{"report", "--from", paths[0], "--from", paths[1], "--from", paths[2], "--out", out}, exitOK, nil, nil)
	readme, err := os.ReadFile(filepath.Join(out, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for i, runner := range []string{"amd64", "arm64", "riscv64"} {
		name := "runner-host (" + runner + "/results.json)"
		if !strings.Contains(string(readme), "### "+name+"\n") {
			t.Errorf("README has no section for %s", name)
		}
		if i == 0 {
			continue // the review's own results.json
		}
		file := filepath.Join(out, "results-runner-host__"+runner+"_results_json_.json")
		got, err := results.ReadFile(file)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		want, _ := results.ReadFile(paths[i])
		if got.Instances[0].BytesPerInstance != want.Instances[0].BytesPerInstance {
			t.Errorf("%s holds %v B for %s, want %v (its own runner's)", file, got.Instances[0].BytesPerInstance, got.Instances[0].Key, want.Instances[0].BytesPerInstance)
		}
	}
}
