package main

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/gate"
	"github.com/memprof/memprof/internal/testfs"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/agree"
	"github.com/memprof/memprof/vocab"
)

const budgetsDir = "../../fixtures/budgets/"

func TestCheckExitCodes(t *testing.T) {
	results := budgetsDir + "results.json"
	tests := []cliCase{
		{"all hold", []string{"--budgets", budgetsDir + "pass.yaml", "--results", results}, exitOK,
			[]string{"PASS  Signature/blst/affine/pointer/min-pk  bytes per instance: 192 B <= budget 192 B", "memprof check: ok: 5 hold"}, nil},
		{"exceeded", []string{"--budgets", budgetsDir + "exceeded.yaml", "--results", results}, exitFailure,
			[]string{"FAIL  Signature/blst/affine/pointer/min-pk  bytes per instance: 192 B > budget 128 B (+64 B, +50.0%)",
				"exceeded.yaml:7", "owner: crypto-team", "reason: signatures cached per attestation"}, nil},
		{"unknown keys", []string{"--budgets", budgetsDir + "unknown-key.yaml", "--results", results}, exitUsage,
			nil, []string{`unknown-key.yaml:4: unknown key "max_byte_per_instance"`, `unknown-key.yaml:5: unknown key "tpye"`}},
		{"selector matches nothing", []string{"--budgets", budgetsDir + "no-match.yaml", "--results", results}, exitUsage,
			nil, []string{"no-match.yaml:6: select {type: G1, lib: circl, repr: affine} matches no measured case"}},
		{"case failed to measure or unavailable", []string{"--budgets", budgetsDir + "failed-case.yaml", "--results", results}, exitFailure,
			[]string{"ERROR Signature/gnark/affine/pointer", "failed to measure: child exited", "every selected case is unavailable", "built without cgo"}, nil},
		{"time budgets: pass, warn, fail", []string{"--budgets", budgetsDir + "time.yaml", "--results", results, "--fail-on-time"}, exitFailure,
			[]string{"FAIL  Signature/blst/affine op=verify  ns per op: 1.450 ms > budget 1.150 ms", "WARN  Signature/blst/affine op=verify  ns per op: 1.450 ms > budget 1.400 ms",
				"interquartile range [1.192 ms, 1.708 ms]", "PASS  Signature/blst/affine op=verify  ns per op: 1.450 ms <= budget 2.000 ms"}, nil},
		{"time budgets without --fail-on-time: the excess warns", []string{"--budgets", budgetsDir + "time.yaml", "--results", results}, exitOK,
			[]string{"WARN  Signature/blst/affine op=verify  ns per op: 1.450 ms > budget 1.150 ms", "a time warns and does not fail without --fail-on-time",
				"memprof check: ok: 2 warnings, 1 holds"}, nil},
		{"results without throughput rows", []string{"--budgets", budgetsDir + "time.yaml", "--results", compareDir + "../budgets/no-times.json"}, exitFailure,
			[]string{"ERROR {type: Signature, lib: blst, repr: affine, op: verify}  ns per op: not checked: timing is not available"}, nil},
		{"missing results file", []string{"--budgets", budgetsDir + "pass.yaml", "--results", budgetsDir + "nope.json"}, exitUsage,
			nil, []string{"reading results", "nope.json"}},
		{"results file not results", []string{"--budgets", budgetsDir + "pass.yaml", "--results", budgetsDir + "pass.yaml"}, exitUsage,
			nil, []string{"not a memprof.results/v1 file"}},
		{"missing budgets file", []string{"--budgets", budgetsDir + "nope.yaml", "--results", results}, exitUsage,
			nil, []string{"reading budgets", "nope.yaml"}},
		{"bad headroom", []string{"--budgets", budgetsDir + "pass.yaml", "--update", "--headroom", "0.5"}, exitUsage,
			nil, []string{"--headroom must be a number from 1 to 100, got 0.5"}},
		{"stray argument", []string{"extra"}, exitUsage, nil, []string{"unexpected arguments: extra"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.check(t, "check") })
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// copyUpdateBudgets copies update.yaml, the budgets file --update rewrites,
// into dir as budgets.yaml and returns its path.
func copyUpdateBudgets(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "budgets.yaml")
	copyFile(t, budgetsDir+"update.yaml", path)
	return path
}

// TestCheckUpdateFromResults: --update rewrites values only, keeping the
// comments, and the rewritten file then holds.
func TestCheckUpdateFromResults(t *testing.T) {
	path := copyUpdateBudgets(t, t.TempDir())
	results := budgetsDir + "results.json"
	if code, _, stderr := runCLI(t, "check", "--budgets", path, "--results", results); code != exitFailure {
		t.Fatalf("before update: got exit %d, want %d (the time budget is too tight); stderr %s", code, exitFailure, stderr)
	}
	code, stdout, stderr := runCLI(t, "check", "--budgets", path, "--results", results, "--update", "--headroom", "1.5")
	if code != exitOK || !strings.Contains(stdout, "updated") {
		t.Fatalf("update: got exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"# memprof budgets: reviewed like code.", "# Signatures are cached per attestation.", "# the blst cache",
		"   # loose on purpose", " # was too tight", "# end of budgets", `reason: "1M signatures must stay under 200 MB"`} {
		if !strings.Contains(string(got), w) {
			t.Errorf("updated file lost %q:\n%s", w, got)
		}
	}
	if code, stdout, stderr := runCLI(t, "check", "--budgets", path, "--results", results); code != exitOK {
		t.Errorf("after update: got exit %d, want 0\n%s%s", code, stdout, stderr)
	}
	if code, stdout, _ := runCLI(t, "check", "--budgets", path, "--results", results, "--update", "--headroom", "1.5"); code != exitOK || !strings.Contains(stdout, "already matches") {
		t.Errorf("second update: got exit %d, stdout %q; want 0 and already matches", code, stdout)
	}
	// Update refuses to re-base on a case that failed to measure, and
	// leaves the file alone.
	bad := filepath.Join(t.TempDir(), "failed.yaml")
	copyFile(t, budgetsDir+"failed-case.yaml", bad)
	before, _ := os.ReadFile(bad)
	if code, _, stderr := runCLI(t, "check", "--budgets", bad, "--results", results, "--update"); code != exitFailure || !strings.Contains(stderr, "not updating") {
		t.Errorf("update of a failed case: got exit %d, stderr %q; want 1 and not updating", code, stderr)
	}
	if after, _ := os.ReadFile(bad); string(after) != string(before) {
		t.Errorf("refused update changed the file")
	}
}

// TestCheckMeasures runs check the way CI does: measuring in child
// processes (this test binary serves as the child). The budget is first
// set from the measurement by --update, so no size is written by hand;
// then it is tightened by one byte, which must fail.
func TestCheckMeasures(t *testing.T) {
	t.Parallel() // changes no environment, directory or package variable; measures, if at all, in children
	var e suites.Entry
	for _, c := range registry().Entries() {
		if c.Unavailable.IsZero() && c.Layout == "pointer" && c.DefaultN == 0 {
			e = c
			break
		}
	}
	if e.Type == "" {
		t.Skip("no measurable pointer-layout entry registered in this build")
	}
	path := filepath.Join(t.TempDir(), "budgets.yaml")
	src := "version: 1\nbudgets:\n  # the one case\n  - select: {type: " + string(e.Type) + ", lib: " + string(e.Lib) + ", repr: " + string(e.Repr) + ", layout: pointer}\n" +
		"    max_bytes_per_instance: 0B\n    max_allocs_per_instance: 0\n    owner: test\n    reason: set by --update\n"
	if e.Scheme != "" {
		src = strings.Replace(src, "layout: pointer}", "layout: pointer, scheme: "+string(e.Scheme)+"}", 1)
	}
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"check", "--budgets", path, "-n", "200", "--jobs", "1"}
	if code, stdout, stderr := runCLI(t, append(args, "--update")...); code != exitOK {
		t.Fatalf("update: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("check after update: exit %d, want 0\n%s%s", code, stdout, stderr)
	}
	f, err := gate.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bytesLimit := f.Budgets[0].Limits[0]
	if bytesLimit.Value < 1 {
		t.Skipf("%s keeps no heap bytes per instance; cannot tighten below 0", e.Key)
	}
	data, _ := os.ReadFile(path)
	tight := strings.Replace(string(data), "max_bytes_per_instance: "+bytesLimit.Raw, "max_bytes_per_instance: "+gate.FormatSize(bytesLimit.Value-1), 1)
	if err := os.WriteFile(path, []byte(tight), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runCLI(t, args...)
	if code != exitFailure || !strings.Contains(stdout, "FAIL  "+e.Key.String()) || !strings.Contains(stdout, "(+1 B,") {
		t.Errorf("tightened by 1 B: got exit %d, want 1 with a FAIL by +1 B\n%s%s", code, stdout, stderr)
	}
}

// TestCheckTimes times an operation the way check does without --results
// (few, short samples). A budget of 1ns must fail (every sample is above
// it); --update with a headroom of 100 then writes a budget the same
// operation holds. The operation is the tiny registry's, after its stub
// agreement check: TestVerifyAllFamilies and .ci/run's memprof verify run
// the real checks.
func TestCheckTimes(t *testing.T) {
	t.Parallel() // changes no environment, directory or package variable
	i := slices.IndexFunc(tinyRegistry().Ops(), func(o suites.Op) bool { return o.Unavailable.IsZero() && o.Op == vocab.Aggregate })
	if i < 0 {
		t.Fatal("the tiny registry has no aggregate operation")
	}
	op := tinyRegistry().Ops()[i]
	path := filepath.Join(t.TempDir(), "budgets.yaml")
	src := "version: 1\nbudgets:\n  - select: {type: " + string(op.Type) + ", lib: " + string(op.Lib) + ", repr: " + string(op.Repr) + ", param: " + string(op.Param) + ", op: " + string(op.Op) + "}  # kept\n    max_ns_per_op: 1ns\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"check", "--budgets", path, "--samples", "3", "--min-sample", "2ms", "--fail-on-time"}
	code, stdout, stderr := runTiny(t, args...)
	name := op.Key.String()
	if code != exitFailure || !strings.Contains(stdout, "FAIL  "+name+"  ns per op:") || !strings.Contains(stdout, "> budget 1.000 ns") {
		t.Fatalf("1ns budget: got exit %d, want 1 with a FAIL line\n%s%s", code, stdout, stderr)
	}
	// The first run profiles the operation's allocation sites, as check
	// does by default; the update and the run after it, which judge the
	// time budget alone, leave them out: each profiling is a child process
	// of its own, and the sites are no part of a time budget.
	args = append(args, "--sites=false")
	if code, stdout, stderr := runTiny(t, append(args, "--update", "--headroom", "100")...); code != exitOK {
		t.Fatalf("update: exit %d\n%s%s", code, stdout, stderr)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), "# kept") || strings.Contains(string(data), "1ns") {
		t.Errorf("updated file: got\n%s\nwant the comment kept and the 1ns budget replaced", data)
	}
	if code, stdout, stderr := runTiny(t, args...); code != exitOK || !strings.Contains(stdout, "PASS  "+name) {
		t.Errorf("after update with headroom 100: got exit %d, want 0 with a PASS line\n%s%s", code, stdout, stderr)
	}
}

// TestCheckSelectionsComplete: check --results expands each budget's
// selector against the registry, so a budget selecting more cases than
// the results hold does not pass on the one it finds: each lacking case is
// an ERROR naming it (exit 1); with optional: true it is a SKIP (exit 0),
// and --update keeps the key.
func TestCheckSelectionsComplete(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string { return testfs.WriteFile(t, filepath.Join(dir, name), src, 0o644) }
	copied := "version: 1\nbudgets:\n  - select: {type: Signature, lib: blst, repr: affine, layout: pointer}\n    max_bytes_per_instance: 192B\n"
	broad := "version: 1\nbudgets:\n  - select: {type: Signature, lib: blst, repr: affine, layout: all, scheme: all}\n    max_bytes_per_instance: 192B\n"
	results := budgetsDir + "results.json"
	tests := []cliCase{
		{"omitted layout and scheme select what a run measures", []string{"--budgets", write("copied.yaml", copied), "--results", results}, exitOK,
			[]string{"PASS  Signature/blst/affine/pointer/min-pk  bytes per instance: 192 B <= budget 192 B", "memprof check: ok: 1 holds"}, nil},
		{"one selected case of several in the results", []string{"--budgets", write("broad.yaml", broad), "--results", results}, exitFailure,
			[]string{"PASS  Signature/blst/affine/pointer/min-pk  bytes per instance: 192 B <= budget 192 B",
				"ERROR Signature/blst/affine/pointer/min-sig  bytes per instance: not checked: selected, but the results do not have it: measure it (memprof instances --scheme all), or select only what was measured (scheme: min-pk), or, last, mark the budget optional: true, which excuses every selected case the results lack (never all of them)",
				"ERROR Signature/blst/affine/slice/min-pk  bytes per instance: not checked: selected, but the results do not have it: measure it (memprof instances --layout all), or select only what was measured (layout: pointer)"}, nil},
		{"optional", []string{"--budgets", write("optional.yaml", broad+"    optional: true\n"), "--results", results}, exitOK,
			[]string{"PASS  Signature/blst/affine/pointer/min-pk", "SKIP  Signature/blst/affine/pointer/min-sig  bytes per instance: optional: the results do not have it",
				"memprof check: ok: 1 holds, 4 skipped (optional, not in the results)"}, nil},
		{"optional, none of its cases in the results", []string{"--budgets", write("none.yaml", "version: 1\nbudgets:\n  - select: {type: Signature, lib: blst, scheme: min-sig}\n    max_bytes_per_instance: 192B\n    optional: true\n"), "--results", results}, exitFailure,
			[]string{"ERROR {type: Signature, lib: blst, scheme: min-sig}  bytes per instance: not checked: no selected case was checked (Signature/blst/affine/pointer/min-sig",
				"optional: true excuses some cases, never all"}, nil},
		{"a param value nothing has", []string{"--budgets", write("param.yaml", "version: 1\nbudgets:\n  - select: {type: KZGContext, param: [precompute=0, precompute=99]}\n    max_bytes_per_instance: 1GiB\n"), "--results", results}, exitUsage,
			nil, []string{"param.yaml:3: select {type: KZGContext, param: [precompute=0, precompute=99]}: param precompute=99 matches no case memprof knows"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.check(t, "check") })
	}
	path := filepath.Join(dir, "optional.yaml")
	runChecked(t, []string{"check", "--budgets", path, "--results", results, "--update"}, exitOK, []string{"already matches"}, nil)
	if data, _ := os.ReadFile(path); !strings.Contains(string(data), "    optional: true\n") {
		t.Errorf("after --update:\n%s\nwant optional: true kept", data)
	}
}

// standInAgreement replaces the BLS12-381 and KZG agreement checks, for
// the rest of the test, with stand-ins that agree on one case of libs:
// for tests of what a command does
// with the timings, not of the agreement (TestVerifyAllFamilies and .ci/run's
// memprof verify check that).
func standInAgreement(t *testing.T, libs ...vocab.Lib) {
	t.Helper()
	for _, f := range []vocab.Family{vocab.BLS12381, vocab.KZG} {
		replaceAgreement(t, f, func(r *suites.Registry) (*agree.Report, error) {
			return &agree.Report{Cases: 1, Libs: libs}, nil
		})
	}
}

// replaceAgreement replaces family f's agreement check with run until the
// test ends (agreeRuns).
func replaceAgreement(t *testing.T, f vocab.Family, run func(*suites.Registry) (*agree.Report, error)) {
	t.Helper()
	saved := agreeRuns
	t.Cleanup(func() { agreeRuns = saved })
	agreeRuns = maps.Clone(saved)
	if agreeRuns == nil {
		agreeRuns = map[vocab.Family]func(*suites.Registry) (*agree.Report, error){}
	}
	agreeRuns[f] = run
}
