package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// TestFirstBudget runs the path docs/gate.md's "Your first budget" shows:
// instances of Signature (at a small N) to a results file, then check
// against the docs' budget (fixtures/budgets/first.yaml, which the
// document includes byte for byte): exit 0, the case named with its
// scheme. A budget written from the measured row, without layout or
// scheme, selects exactly the rows the run measured, and holds too.
func TestFirstBudget(t *testing.T) {
	t.Parallel() // changes no environment, directory or package variable; measures, if at all, in children
	available := false
	for _, e := range registry().Entries() {
		k := e.Key.Normalize()
		available = available || k.Type == vocab.Signature && k.Lib == "blst" && k.Repr == "affine" && k.Layout == measure.Pointer && e.Unavailable.IsZero()
	}
	if !available {
		t.Skip("blst is unavailable in this build (cgo off): the docs' first budget is on blst")
	}
	dir := t.TempDir()
	resultsPath := filepath.Join(dir, "results.json")
	runChecked(t, []string{"instances", "--type", "Signature", "--lib", "blst", "--repr", "affine", "-n", "1000", "--format", "json", "-o", resultsPath}, exitOK, nil, nil)
	runChecked(t, []string{"check", "--budgets", budgetsDir + "first.yaml", "--results", resultsPath}, exitOK,
		[]string{"PASS  Signature/blst/affine/pointer/min-pk  bytes per instance:", "memprof check: ok: 1 holds"}, nil)

	rs, err := results.ReadFile(resultsPath)
	if err != nil {
		t.Fatal(err)
	}
	most, rows := 0.0, 0
	for _, r := range rs.Instances {
		if r.Error != "" {
			t.Fatalf("%s failed to measure: %s", r.Key, r.Error)
		}
		most, rows = max(most, r.BytesPerInstance), rows+1
	}
	if rows == 0 {
		t.Fatal("the run measured no instance row")
	}
	path := filepath.Join(dir, "b.yaml")
	src := fmt.Sprintf("version: 1\nbudgets:\n  - select: {type: Signature, lib: blst, repr: affine}\n    max_bytes_per_instance: %.0fB\n", math.Ceil(most))
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	runChecked(t, []string{"check", "--budgets", path, "--results", resultsPath}, exitOK,
		[]string{"PASS  Signature/blst/affine/pointer/min-pk", fmt.Sprintf("memprof check: ok: %d hold", rows)}, nil)
}
