package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/memprof/memprof/internal/testfs"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/all"
	"github.com/memprof/memprof/vocab"
)

// TestMain lets the test binary serve as the measuring child: the
// instances command re-executes its own executable, which in tests is this
// binary. Run through a link named cliName (buildCLI), it is the memprof
// command itself.
func TestMain(m *testing.M) {
	// The embedded vector files are the same in every run of verify in
	// this binary: they are checked, every file and record, once.
	checkVectorFiles = sync.OnceValues(checkVectorFiles)
	if spec := os.Getenv(rssChildEnv); spec != "" {
		os.Exit(rssChild(spec))
	}
	if filepath.Base(os.Args[0]) == cliName && !memprof.ChildRequested() {
		main()
	}
	if memprof.ChildRequested() {
		if p := os.Getenv(childStartedEnv); p != "" && strings.Contains(os.Getenv(memprof.ChildEnv), `"task":"memprof.case"`) {
			os.WriteFile(p, nil, 0o644) // a test asked to know whether any measuring child started
		}
		if strings.Contains(os.Getenv(memprof.ChildEnv), crashingEntry.BenchName()) {
			registry = crashingRegistry
			childLookup = func(name string) (memprof.Case, error) { return crashingRegistry().LookupCase(name) }
		}
		if strings.Contains(os.Getenv(memprof.ChildEnv), string(tinyParam)) {
			registry = tinyRegistry
			childLookup = func(name string) (memprof.Case, error) { return tinyRegistry().LookupCase(name) }
		}
		code := run(context.Background(), nil, os.Stdout, os.Stderr)
		if p := os.Getenv(childPeakEnv); p != "" {
			writePeak(p)
		}
		if p := os.Getenv(entriesBuiltEnv); p != "" {
			os.WriteFile(p, []byte(strconv.Itoa(all.EntriesBuilt())), 0o644)
		}
		os.Exit(code)
	}
	code := m.Run()
	if builtCLI.dir != "" {
		os.RemoveAll(builtCLI.dir)
	}
	os.Exit(code)
}

// crashingEntry is a case whose constructor crashes the whole process, as
// a cgo library's abort would: a goroutine panics, which no recover can
// catch. It is in crashingRegistry only (told apart from the real
// G1/gnark/affine/pointer by its parameter), which TestCrashingChildExitsOne
// and the child that test starts use.
var crashingEntry = suites.Entry{
	Key:         results.Key{Type: vocab.G1, Lib: vocab.Gnark, Repr: vocab.Affine, Layout: measure.Pointer, Param: "test=crash"},
	Constructor: "crashes the process (test only)", SizeHint: 8,
	Case: func() memprof.Case {
		return memprof.Case{New: func(i int) any {
			done := make(chan struct{})
			go func() { panic("test constructor aborted the process") }()
			<-done
			return nil
		}}
	},
}

// crashingRegistry is every built-in suite and crashingEntry.
var crashingRegistry = sync.OnceValue(func() *suites.Registry {
	r, err := suites.NewRegistry(append(all.Suites(), suites.Suite{Name: "test", Entries: []suites.Entry{crashingEntry}})...)
	if err != nil {
		panic(err)
	}
	return r
})

// useRegistry makes the commands measure r for the rest of the test.
func useRegistry(t *testing.T, r func() *suites.Registry) {
	old := registry
	registry = r
	t.Cleanup(func() { registry = old })
}

// runCLI runs the CLI in-process and returns its exit code and output.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// cliCase is one run of the CLI in a table of them, and what it must give.
type cliCase struct {
	name    string
	args    []string
	code    int
	wantOut []string // substrings of stdout
	wantErr []string // substrings of stderr
}

// check runs the case, its args after command (if any), with runChecked.
func (c cliCase) check(t *testing.T, command ...string) {
	t.Helper()
	runChecked(t, append(command, c.args...), c.code, c.wantOut, c.wantErr)
}

// runChecked runs the CLI like runCLI and checks its exit code and that
// stdout and stderr contain each of wantOut and wantErr. It returns the
// outputs for the checks a test adds.
func runChecked(t *testing.T, args []string, code int, wantOut, wantErr []string) (stdout, stderr string) {
	t.Helper()
	got, stdout, stderr := runCLI(t, args...)
	if got != code {
		t.Errorf("exit code: got %d, want %d\nstdout:\n%s\nstderr:\n%s", got, code, stdout, stderr)
	}
	checkContains(t, "stdout", stdout, wantOut)
	checkContains(t, "stderr", stderr, wantErr)
	return stdout, stderr
}

// runToFile runs the CLI with args, which write to the file out (-o),
// checks that it exits with code and prints nothing on stdout, and
// returns what it wrote.
func runToFile(t *testing.T, out string, code int, args ...string) []byte {
	t.Helper()
	return runToFileWith(t, runCLI, out, code, args...)
}

// runToFileWith is runToFile with the CLI run by runner (runCLI, runTiny).
func runToFileWith(t *testing.T, runner func(*testing.T, ...string) (int, string, string), out string, code int, args ...string) []byte {
	t.Helper()
	got, stdout, stderr := runner(t, args...)
	if got != code {
		t.Fatalf("exit code: got %d, want %d\nstderr:\n%s", got, code, stderr)
	}
	if stdout != "" {
		t.Errorf("stdout: got %q, want nothing with -o", stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// checkContains checks that out, the output named what, contains each of
// want.
func checkContains(t *testing.T, what, out string, want []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, out)
		}
	}
}

// checkUsageError checks that the CLI refuses args as a usage error: exit
// 2, each of want in stderr, nothing on stdout.
func checkUsageError(t *testing.T, args []string, want []string) {
	t.Helper()
	if stdout, _ := runChecked(t, args, exitUsage, nil, want); stdout != "" {
		t.Errorf("stdout: got %q, want nothing on a usage error", stdout)
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string // substrings of stderr
	}{
		{"no command", nil, []string{"usage: memprof <command>", "  instances   "}},
		{"unknown command", []string{"frobnicate"}, []string{`memprof frobnicate: unknown command`, "memprof help"}},
		{"unknown flag", []string{"instances", "--bogus"}, []string{"unknown flag --bogus"}},
		{"missing type", []string{"instances"}, []string{"--type is required", "SecretKey, PublicKey, Signature, G1, G2"}},
		{"unknown type", []string{"instances", "--type", "Sig"}, []string{`unknown type "Sig"`, "SecretKey, PublicKey, Signature, G1, G2"}},
		{"unknown lib", []string{"instances", "--type", "Signature", "--lib", "openssl"}, []string{`unknown lib "openssl"`, "blst, gnark, circl"}},
		{"unknown repr", []string{"instances", "--type", "Signature", "--repr", "montgomery"}, []string{`unknown repr "montgomery"`, "affine"}},
		{"unknown layout", []string{"instances", "--type", "Signature", "--layout", "arena"}, []string{`unknown layout "arena"`, "pointer, slice"}},
		{"unknown scheme", []string{"instances", "--type", "Signature", "--scheme", "min-both"}, []string{`unknown scheme "min-both"`, "min-pk, min-sig"}},
		{"unknown format", []string{"instances", "--type", "Signature", "--format", "yaml"}, []string{`unknown format "yaml"`}},
		{"zero n", []string{"instances", "--type", "Signature", "-n", "0"}, []string{"-n must be positive, got 0"}},
		{"negative n", []string{"instances", "--type", "Signature", "-n", "-5"}, []string{"-n must be positive, got -5"}},
		{"stray argument", []string{"instances", "--type", "Signature", "extra"}, []string{"unexpected arguments: extra"}},
		{"list stray argument", []string{"list", "x"}, []string{"unexpected arguments: x"}},
		{"sweep too short", []string{"instances", "--type", "G1", "--sweep", "--sweep-n", "1000,2000"}, []string{"--sweep-n needs at least 3 values"}},
		{"sweep not a number", []string{"instances", "--type", "G1", "--sweep", "--sweep-n", "1000,x,3"}, []string{`--sweep-n: "x" is not a positive integer`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkUsageError(t, tt.args, tt.want) })
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"instances", "-h"}, {"help", "instances"}, {"list", "-h"}} {
		code, stdout, _ := runCLI(t, args...)
		if code != exitOK || !strings.Contains(stdout, "usage") && !strings.Contains(stdout, "Usage") {
			t.Errorf("%v: got exit %d, stdout %q; want 0 and usage on stdout", args, code, stdout)
		}
	}
}

func TestRefusesHugeN(t *testing.T) {
	code, stdout, stderr := runCLI(t, "instances", "--type", "Signature", "-n", "1000000000000")
	if code != exitUsage {
		t.Fatalf("exit code: got %d, want %d (stderr %q)", code, exitUsage, stderr)
	}
	if stdout != "" || !strings.Contains(stderr, "refusing to measure: the run would need about") || !strings.Contains(stderr, "at N=1000000000000") {
		t.Errorf("got stdout %q stderr %q, want a refusal naming the estimate and nothing on stdout", stdout, stderr)
	}
}

func TestUnwritableOutputFailsBeforeMeasuring(t *testing.T) {
	out := filepath.Join(t.TempDir(), "no", "such", "dir", "r.json")
	code, stdout, stderr := runCLI(t, "instances", "--type", "Signature", "-n", "1000", "-o", out)
	want := "memprof instances: writing results to " + out + ": directory " + filepath.Dir(out) + " does not exist\n"
	if code != exitFailure || stdout != "" || stderr != want {
		t.Errorf("got exit %d stdout %q stderr %q; want 1 and %q", code, stdout, stderr, want)
	}
	if strings.Contains(stderr, "child") {
		t.Errorf("measured before failing: %s", stderr)
	}
}

func TestListCoversRegistry(t *testing.T) {
	code, stdout, stderr := runCLI(t, "list", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Types []string `json:"types"`
		Cases []struct {
			ID          string `json:"id"`
			Constructor string `json:"constructor"`
			Unavailable string `json:"unavailable"`
		} `json:"cases"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Cases) == 0 {
		t.Fatal("list shows no cases")
	}
	for _, c := range got.Cases {
		if c.Constructor == "" && c.Unavailable == "" {
			t.Errorf("case %s says neither how it is made nor why it is unavailable", c.ID)
		}
	}
}

// TestInstancesJSON measures the tiny registry's cases in child processes (this test
// binary re-executed) and checks the memprof.results/v1 structure.
func TestInstancesJSON(t *testing.T) {
	t.Parallel() // changes no environment, directory or package variable; measures in children
	dir := t.TempDir()
	out := filepath.Join(dir, "r.json")
	profiles := filepath.Join(dir, "profiles")
	raw := runToFileWith(t, runTiny, out, exitOK, "instances", "--type", "signature", "--lib", "BLST,gnark,circl", "-n", "2000", "--format", "json", "-o", out, "--profile-dir", profiles)
	// The field names are a contract: check them on the raw JSON.
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["schema"] != results.Schema {
		t.Errorf("schema: got %v, want %s", doc["schema"], results.Schema)
	}
	env, _ := doc["env"].(map[string]any)
	for _, k := range []string{"go_version", "goos", "goarch", "gomaxprocs", "cpu", "cgo", "modules"} {
		if _, ok := env[k]; !ok {
			t.Errorf("env lacks %q", k)
		}
	}
	insts, _ := doc["instances"].([]any)
	if len(insts) == 0 {
		t.Fatal("no instances measured")
	}
	for _, it := range insts {
		m := it.(map[string]any)
		for _, k := range []string{"type", "lib", "repr", "layout", "n", "bytes_per_instance", "allocs_per_instance", "sizeof_bytes", "slot_bytes", "offheap_bytes_per_instance", "heapalloc_bytes_per_instance", "holder_bytes_per_instance", "sites"} {
			if k == "slot_bytes" && m["layout"] == string(measure.Collection) {
				continue // a structure built as a whole has no one slot per instance
			}
			if _, ok := m[k]; !ok {
				t.Errorf("instance %v/%v/%v lacks %q", m["type"], m["lib"], m["repr"], k)
			}
		}
		if m["type"] != "Signature" || m["n"] != 2000.0 {
			t.Errorf("got type %v n %v, want Signature 2000", m["type"], m["n"])
		}
		sites, _ := m["sites"].([]any)
		if len(sites) == 0 {
			t.Errorf("instance %v/%v/%v has no sites", m["type"], m["lib"], m["repr"])
		}
		for _, s := range sites {
			sm := s.(map[string]any)
			for _, k := range []string{"function", "bytes_per_instance", "allocs_per_instance"} {
				if _, ok := sm[k]; !ok {
					t.Errorf("site lacks %q", k)
				}
			}
		}
	}
	// The typed reader accepts what the command wrote.
	rs, err := results.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs.Instances {
		if r.Error != "" {
			t.Errorf("%s: %s", r.Key, r.Error)
		}
		if r.BytesPerInstance < float64(r.SizeofBytes) {
			t.Errorf("%s: %v B per instance, less than sizeof %d", r.Key, r.BytesPerInstance, r.SizeofBytes)
		}
	}
	// Each case kept its raw heap profile.
	if got := testfs.Names(t, profiles); len(got) != len(rs.Instances) {
		t.Errorf("got %d profiles %v, want one per measured case (%d)", len(got), got, len(rs.Instances))
	}
}

func TestInstancesTable(t *testing.T) {
	t.Parallel() // changes no environment, directory or package variable; measures in children
	code, stdout, stderr := runTiny(t, "instances", "--type", "Signature", "-n", "1000")
	if code != exitOK {
		t.Fatalf("exit %d, stderr: %s", code, stderr)
	}
	for _, w := range []string{"B/instance", "allocs/instance", "slot", "allocation site", "Signature"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("table lacks %q:\n%s", w, stdout)
		}
	}
	if strings.Contains(stdout, "sizeof") {
		t.Errorf("the default table shows sizeof, a --wide column:\n%s", stdout)
	}
}

// TestCrashingChildExitsOne: a child that crashes is that case's error,
// with the child's stderr; the exit code is 1.
func TestCrashingChildExitsOne(t *testing.T) {
	if testing.Short() {
		t.Skip("measures in child processes")
	}
	useRegistry(t, crashingRegistry)
	code, stdout, stderr := runCLI(t, "instances", "--type", "G1", "--lib", "gnark", "--repr", "affine", "-n", "500")
	if code != exitFailure {
		t.Errorf("exit code: got %d, want %d", code, exitFailure)
	}
	if !strings.Contains(stderr, "child process failed") || !strings.Contains(stderr, "test constructor aborted the process") {
		t.Errorf("stderr %q lacks the child's failure and its panic", stderr)
	}
	if !strings.Contains(stdout, "error: ") {
		t.Errorf("the table does not show the case's error:\n%s", stdout)
	}
	// The other selected case (the real G1 gnark affine) was still
	// measured.
	if !strings.Contains(stdout, "N=500") || !regexp.MustCompile(`(?m)^- +96 +1 `).MatchString(stdout) {
		t.Errorf("the other case was not measured:\n%s", stdout)
	}
}

// TestCommandTable: the subcommands are one table, each name once, in
// the alphabetical order help lists them and every command can be found
// by its name.
func TestCommandTable(t *testing.T) {
	names := commandNames()
	if !slices.IsSorted(names) || len(slices.Compact(slices.Clone(names))) != len(names) {
		t.Errorf("commands: got %v, want each name once, in alphabetical order", names)
	}
	for _, c := range commands {
		if got, ok := lookup(c.Name); !ok || got != c || c.Run == nil || c.Short == "" || c.UsageLine == "" {
			t.Errorf("command %q: lookup %v, run set %v, short %q, usage %q; want itself, a Run, a short line and a usage line", c.Name, ok, c.Run != nil, c.Short, c.UsageLine)
		}
	}
}

// entriesBuiltEnv names the file where a measuring child of this test
// binary writes how many suite entries it built (all.EntriesBuilt).
const entriesBuiltEnv = "MEMPROF_TEST_ENTRIES_BUILT"

// TestChildBuildsOneFamily: the child that measures a case builds the
// suites of the case's family, not the whole registry (which the parent
// has checked): it counts fewer entries than the registry holds.
func TestChildBuildsOneFamily(t *testing.T) {
	t.Parallel() // changes no environment, directory or package variable; measures in a child
	e, ok := all.Registry().Lookup(results.Key{Type: vocab.Signature, Lib: vocab.Gnark, Repr: vocab.Affine, Layout: measure.Pointer}.BenchName())
	if !ok {
		t.Fatal("no Signature/gnark/affine/pointer entry")
	}
	counted := filepath.Join(t.TempDir(), "built")
	child := memprof.Child{Env: []string{entriesBuiltEnv + "=" + counted}}
	if _, err := memprof.MeasureInChild(context.Background(), child, e.BenchName(), "", memprof.N(100)); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(counted)
	if err != nil {
		t.Fatal(err)
	}
	built, err := strconv.Atoi(string(b))
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, f := range all.Registry().Entries() {
		if f.Family() == e.Family() {
			total++
		}
	}
	if built == 0 || built > total {
		t.Errorf("the child built %d entries, want some and at most the %d of family %s (the registry has %d)", built, total, e.Family(), len(all.Registry().Entries()))
	}
}
