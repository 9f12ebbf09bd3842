//go:build !cgo

package main

import (
	"path/filepath"
	"testing"

	"github.com/memprof/memprof/internal/testfs"
)

// TestNothingMeasuredWithoutCgo runs in the CGO_ENABLED=0 test run: every
// blst case is unavailable there, so a selection of blst alone measures
// nothing, which is a failure (exit 1) with one line naming the reason,
// never an empty table and exit 0. check agrees: a budget whose every
// selected case is unavailable is an error, cgo or not.
func TestNothingMeasuredWithoutCgo(t *testing.T) {
	const noCgo = "blst needs cgo; this build has CGO_ENABLED=0"
	dir := t.TempDir()
	budgets := func(name, text string) string { return testfs.WriteFile(t, filepath.Join(dir, name), text, 0o644) }
	bytesBudget := budgets("bytes.yaml", "version: 1\nbudgets:\n  - select: {type: Signature, lib: blst}\n    max_bytes_per_instance: 1KiB\n")
	timeBudget := budgets("time.yaml", "version: 1\nbudgets:\n  - select: {type: Signature, lib: blst, op: verify}\n    max_ns_per_op: 10ms\n")
	checkRefusals(t, []refusal{
		{"instances of blst", []string{"instances", "--type", "Signature", "--lib", "blst", "-n", "100", "-o", "OUT"}, exitFailure,
			[]string{"memprof instances: nothing measured: every selected case is unavailable: " + noCgo}, true, nil},
		{"instances of every blst type", []string{"instances", "--type", "all", "--lib", "blst", "-n", "100"}, exitFailure,
			[]string{"memprof instances: nothing measured", noCgo, "blst has no homogeneous projective point type"}, true, nil},
		{"instances of blst scenarios", []string{"instances", "--type", "scenarios", "--lib", "blst", "-n", "100"}, exitFailure,
			[]string{"nothing measured", "CGO_ENABLED=0"}, true, nil},
		{"throughput of blst", []string{"throughput", "--type", "Signature", "--lib", "blst", "--samples", "1", "--min-sample", "1ms", "-o", "OUT"}, exitFailure,
			[]string{"memprof throughput: nothing measured: every selected operation is unavailable: " + noCgo}, true, nil},
		{"report of blst", []string{"report", "--type", "Signature", "--lib", "blst", "-n", "100", "--out", "DIR"}, exitFailure,
			[]string{"memprof report: nothing measured: every selected case is unavailable: " + noCgo}, true, nil},
		{"check of a blst bytes budget", []string{"check", "--budgets", bytesBudget, "-n", "100"}, exitFailure,
			[]string{"memprof check: nothing measured: every selected case is unavailable: " + noCgo}, true, nil},
		// Every operation it selects needs cgo, which this build lacks: a
		// budget that checks nothing is an error, never a pass (issue 31).
		{"check of a blst time budget", []string{"check", "--budgets", timeBudget, "--samples", "1", "--min-sample", "1ms"}, exitFailure,
			nil, false, []string{"ERROR {type: Signature, lib: blst, op: verify}", "no selected case was checked", "nothing checked"}},
	})
}
