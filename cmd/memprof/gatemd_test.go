package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckWaiversAndMarkdown: an expired waiver fails (1) with its date,
// owner and issue; one that holds passes, as does a time within its noise
// floor; a malformed date makes the file invalid (2); --update refuses to
// re-base past an expired waiver and leaves the file as it was; --format
// markdown writes the pull-request comment, to -o too.
func TestCheckWaiversAndMarkdown(t *testing.T) {
	results := budgetsDir + "results.json"
	tests := []cliCase{
		{"expired", []string{"--budgets", budgetsDir + "expired.yaml", "--results", results}, exitFailure,
			[]string{"FAIL  Signature/blst/affine/pointer/min-pk  bytes per instance: budget expired on 2020-01-01 (crypto-team, https://github.com/example/node/issues/812); measured 192 B, budget 192 B",
				"memprof check: FAIL: 1 budget expired, 1 holds"}, nil},
		{"waiver holds, time within its floor", []string{"--budgets", budgetsDir + "waiver.yaml", "--results", results}, exitOK,
			[]string{"PASS  Signature/blst/affine/pointer/min-pk", "WARN  Signature/blst/affine op=verify  ns per op: 1.450 ms > budget 1.150 ms", "within its min_delta 30%: below the noise floor"}, nil},
		{"malformed date", []string{"--budgets", budgetsDir + "bad-date.yaml", "--results", results}, exitUsage,
			nil, []string{`bad-date.yaml:6: expires: "2027-02-30" is not a date`}},
		{"markdown", []string{"--budgets", budgetsDir + "exceeded.yaml", "--results", results, "--format", "markdown"}, exitFailure,
			[]string{"### ❌ memprof check: FAIL: 1 budget exceeded, 1 holds", "| +64 B (+50.0%) | FAIL |", "<details><summary>All 2 outcomes</summary>"}, nil},
		{"markdown with --update", []string{"--budgets", budgetsDir + "exceeded.yaml", "--update", "--format", "markdown"}, exitUsage,
			nil, []string{"--format does nothing with --update"}},
		{"unknown format", []string{"--budgets", budgetsDir + "exceeded.yaml", "--results", results, "--format", "html"}, exitUsage,
			nil, []string{`unknown format "html"`, "text, markdown"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.check(t, "check") })
	}

	dir := t.TempDir()
	out := filepath.Join(dir, "comment.md")
	data := runToFile(t, out, exitFailure, "check", "--budgets", budgetsDir+"expired.yaml", "--results", results, "--format", "markdown", "-o", out)
	if !strings.HasPrefix(string(data), "### ❌ memprof check: FAIL: 1 budget expired") || !strings.Contains(string(data), "FAIL (expired) — budget expired on 2020-01-01") {
		t.Errorf("-o wrote:\n%s\nwant the comment with the expired waiver", data)
	}

	budgets := filepath.Join(dir, "memprof.budgets.yaml")
	copyFile(t, budgetsDir+"expired.yaml", budgets)
	before, _ := os.ReadFile(budgets)
	runChecked(t, []string{"check", "--budgets", budgets, "--results", results, "--update"}, exitFailure, nil,
		[]string{budgets + ":6: budget expired on 2020-01-01 (crypto-team, https://github.com/example/node/issues/812): --update does not extend a waiver"})
	if after, _ := os.ReadFile(budgets); string(after) != string(before) {
		t.Errorf("--update past an expired waiver changed the file:\n%s", after)
	}
}

// TestCompareBaseRun: --base-url links the base run in the markdown
// comment; --base-commit and --max-base-age warn about a base that may
// not be the change's, in the comment and on stderr, without failing.
func TestCompareBaseRun(t *testing.T) {
	base := compareDir + "base.json"
	url := "https://github.com/example/node/actions/runs/1234"
	tests := []cliCase{
		{"link and warnings", []string{base, base, "--format", "markdown", "--base-url", url, "--base-commit", "0123abc"}, exitOK,
			[]string{"### ✅ memprof: no regression detected", "**Base**: [run](" + url + ")",
				"> [!WARNING]\n> The base records no commit, so it cannot be checked against the expected base commit 0123abc.\n> The base records no time, so its age is unknown.\n"},
			[]string{"memprof compare: warning: the base records no commit", "memprof compare: warning: the base records no time"}},
		{"age check off", []string{base, base, "--format", "json", "--max-base-age", "0"}, exitOK, []string{`"verdict": "no regression detected"`}, nil},
		{"table", []string{base, base, "--base-commit", "0123abc"}, exitOK, []string{"warning: the base records no commit"}, nil},
		{"link without markdown", []string{base, base, "--base-url", url}, exitUsage, nil, []string{"--base-url does nothing with --format table"}},
		{"link not a URL", []string{base, base, "--format", "markdown", "--base-url", "runs/1234"}, exitUsage, nil, []string{`--base-url: "runs/1234" is not a URL`}},
		{"bad age", []string{base, base, "--max-base-age", "a week"}, exitUsage, nil, []string{`--max-base-age: age "a week": want a number of days such as 7d`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.check(t, "compare") })
	}
	// json with the age check off: no warning at all.
	if _, _, stderr := runCLI(t, "compare", base, base, "--format", "json", "--max-base-age", "0"); stderr != "" {
		t.Errorf("stderr: got %q, want nothing", stderr)
	}
}
