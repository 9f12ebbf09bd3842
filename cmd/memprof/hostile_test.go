package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/memprof/memprof/internal/testfs"
)

// TestHostileNumbersAndInputs: what the second hostile trial found let
// through at the command line, each now refused with what was expected
// (exit 2) or failed (exit 1): numbers out of range, a budgets file of
// two documents, a waiver dated 0001-01-01, empty results files, and a
// stale base warned about on standard error with the table format too.
func TestHostileNumbersAndInputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string { return testfs.WriteFile(t, filepath.Join(dir, name), src, 0o644) }
	results := budgetsDir + "results.json"
	base, head := compareDir+"base.json", compareDir+"head.json"
	empty := write("empty.json", `{"schema": "memprof.results/v1", "env": {}, "instances": []}`)
	onlyUnavailable := write("unavailable.json", `{"schema": "memprof.results/v1", "env": {}, "instances": [],
		"unavailable": [{"type": "G2", "lib": "blst", "repr": "affine", "layout": "pointer", "kind": "needs-cgo", "reason": "built without cgo"}]}`)
	sig := "version: 1\nbudgets:\n  - select: {type: Signature, lib: blst, repr: affine, layout: pointer, scheme: min-pk}\n    max_bytes_per_instance: 192B\n"
	tests := []struct {
		cmd string
		cliCase
	}{
		{"compare", cliCase{"tolerance NaN%", []string{base, head, "--tolerance", "NaN%"}, exitUsage, nil,
			[]string{`--tolerance: percentage "NaN%": must be a finite number >= 0`}}},
		{"compare", cliCase{"tolerance past 100%", []string{base, head, "--tolerance", "1e308%"}, exitUsage, nil,
			[]string{`--tolerance: percentage "1e308%": must be at most 100%`}}},
		{"compare", cliCase{"tolerance-bytes overflowing", []string{base, head, "--tolerance-bytes", "1e308GiB"}, exitUsage, nil,
			[]string{`--tolerance-bytes: size "1e308GiB": must be at most 1 TiB`}}},
		{"compare", cliCase{"empty base", []string{empty, head}, exitUsage, nil,
			[]string{"memprof compare: base: reading results " + empty + ": no instance or throughput rows in it: nothing to compare against"}}},
		{"compare", cliCase{"two empty files", []string{empty, empty}, exitUsage, nil,
			[]string{"base: reading results " + empty + ": no instance or throughput rows in it"}}},
		{"compare", cliCase{"stale base, table format", []string{base, base, "--base-commit", "0123abc"}, exitOK,
			[]string{"warning: the base records no commit"}, []string{"memprof compare: warning: the base records no commit"}}},
		{"export", cliCase{"a file of no rows", []string{"--to", "bencher", empty}, exitUsage, nil,
			[]string{"memprof export: reading results " + empty + ": no instance or throughput rows in it: nothing to export"}}},
		{"export", cliCase{"a file of unavailable rows only", []string{"--to", "benchfmt", onlyUnavailable}, exitUsage, nil,
			[]string{"no instance or throughput rows in it: nothing to export"}}},
		{"check", cliCase{"headroom NaN", []string{"--budgets", write("h.yaml", sig), "--results", results, "--update", "--headroom", "NaN"}, exitUsage, nil,
			[]string{"--headroom must be a number from 1 to 100, got NaN"}}},
		{"check", cliCase{"headroom 1e308", []string{"--budgets", write("h2.yaml", sig), "--results", results, "--update", "--headroom", "1e308"}, exitUsage, nil,
			[]string{"--headroom must be a number from 1 to 100, got 1e+308"}}},
		{"check", cliCase{"a second YAML document", []string{"--budgets", write("two.yaml", sig+"---\n"+sig), "--results", results}, exitUsage, nil,
			[]string{"two.yaml:5: a second YAML document starts here (---)"}}},
		{"check", cliCase{"a size overflowing", []string{"--budgets", write("inf.yaml", strings.Replace(sig, "192B", "1e308GiB", 1)), "--results", results}, exitUsage, nil,
			[]string{`inf.yaml:4: max_bytes_per_instance: size "1e308GiB": must be at most 1 TiB`}}},
		{"check", cliCase{"expires 0001-01-01", []string{"--budgets", write("zero.yaml", sig+"    expires: 0001-01-01\n"), "--results", results}, exitFailure,
			[]string{"FAIL  Signature/blst/affine/pointer/min-pk  bytes per instance: budget expired on 0001-01-01"}, nil}},
		{"check", cliCase{"expires 9999-12-31", []string{"--budgets", write("far.yaml", sig+"    expires: 9999-12-31\n"), "--results", results}, exitUsage, nil,
			[]string{"far.yaml:5: expires: 9999-12-31 is more than 100 years ahead: a waiver ends"}}},
		{"check", cliCase{"a budget of -0", []string{"--budgets", write("neg0.yaml", strings.Replace(sig, "192B", "-0", 1)), "--results", results}, exitFailure,
			[]string{"FAIL  Signature/blst/affine/pointer/min-pk  bytes per instance: 192 B > budget 0 B (+192 B, +∞%)"}, nil}},
	}
	for _, tt := range tests {
		t.Run(tt.cmd+"/"+tt.name, func(t *testing.T) { tt.check(t, tt.cmd) })
	}
}
