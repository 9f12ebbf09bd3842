package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memprof/memprof/vocab"
)

// TestCheckNothingChecked: a check never passes on nothing. A results
// file without rows is refused (2); a check whose budgets are all of other
// schemes than --scheme checks nothing and fails (1), saying why; in
// results measured with cgo off, a budget all of whose cases need cgo is
// an ERROR unless --skip-cgo, which skips it and says so; two n for one
// case and a scheme on a type without one make the file invalid (2), with
// --results or without.
func TestCheckNothingChecked(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	twoN := write("twon.yaml", "version: 1\nbudgets:\n  - select: {type: Signature, lib: gnark, repr: affine, layout: pointer}\n    max_bytes_per_instance: 192B\n    n: 1000\n"+
		"  - select: {type: Signature, lib: gnark}\n    max_allocs_per_instance: 1\n    n: 2000\n")
	results := budgetsDir + "results.json"
	tests := []cliCase{
		{"a results file without rows", []string{"--budgets", budgetsDir + "pass.yaml", "--results", budgetsDir + "norows.json"}, exitUsage,
			nil, []string{"memprof check: reading results " + budgetsDir + "norows.json: no instance or throughput rows in it: nothing to check"}},
		{"every budget of another scheme than --scheme", []string{"--budgets", budgetsDir + "pass.yaml", "--results", results, "--scheme", "min-sig"}, exitFailure,
			nil, []string{"memprof check: nothing checked: every budget of " + budgetsDir + "pass.yaml selects other schemes than --scheme min-sig (a budget without scheme selects min-pk)"}},
		{"cgo off, a budget all of whose cases need cgo", []string{"--budgets", budgetsDir + "cgo.yaml", "--results", budgetsDir + "nocgo-results.json"}, exitFailure,
			[]string{"ERROR {type: Signature, lib: blst, repr: affine, layout: pointer}  bytes per instance: not checked: no selected case was checked (Signature/blst/affine/pointer/min-pk): every one needs cgo, and these results were measured with cgo off (env.cgo false): check them where cgo is on, or skip such budgets on this runner with --skip-cgo",
				"PASS  G1/gnark/affine/pointer"}, nil},
		{"cgo off, --skip-cgo", []string{"--budgets", budgetsDir + "cgo.yaml", "--results", budgetsDir + "nocgo-results.json", "--skip-cgo"}, exitOK,
			[]string{"SKIP  Signature/blst/affine/pointer/min-pk  bytes per instance: --skip-cgo: needs cgo", "memprof check: ok: 1 holds, 1 skipped (needs cgo: --skip-cgo)"}, nil},
		{"two n for one case, --results", []string{"--budgets", twoN, "--results", results}, exitUsage,
			nil, []string{"twon.yaml:6: n: 2000, but the budget at line 3 names n: 1000 for Signature/gnark/affine/pointer/min-pk too: a case is measured at one N"}},
		{"two n for one case, measuring", []string{"--budgets", twoN}, exitUsage,
			nil, []string{"twon.yaml:6: n: 2000, but the budget at line 3 names n: 1000 for Signature/gnark/affine/pointer/min-pk too: a case is measured at one N"}},
		{"a scheme on a type without one", []string{"--budgets", write("g1.yaml", "version: 1\nbudgets:\n  - select: {type: G1, scheme: min-pk}\n    max_bytes_per_instance: 96B\n"), "--results", results}, exitUsage,
			nil, []string{"g1.yaml:3: select {type: G1, scheme: min-pk}: G1 has no scheme (only PublicKey, Signature have one: it decides their group): remove scheme"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.check(t, "check") })
	}
}

// TestInstancesBudgetsCgoOnly: with cgo off, instances --budgets refuses
// (1) a budget all of whose cases need cgo, naming it, unless --skip-cgo;
// and measuring nothing is exit 1 with --skip-cgo too.
func TestInstancesBudgetsCgoOnly(t *testing.T) {
	blstNeedsCgo := false
	for _, e := range registry().Entries() {
		blstNeedsCgo = blstNeedsCgo || e.Lib == "blst" && e.Unavailable.Kind == vocab.NeedsCgo
	}
	if !blstNeedsCgo {
		t.Skip("blst is available in this build (cgo on)")
	}
	path := filepath.Join(t.TempDir(), "blst.yaml")
	if err := os.WriteFile(path, []byte("version: 1\nbudgets:\n  - select: {type: Signature, lib: blst, repr: affine, layout: pointer}\n    max_bytes_per_instance: 192B\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runChecked(t, []string{"instances", "--budgets", path}, exitFailure, nil,
		[]string{fmt.Sprintf("every case of the budgets at %s:3 needs cgo, and this build has cgo off: build with cgo (CGO_ENABLED=1), or pass --skip-cgo", path)})
	_, stderr := runChecked(t, []string{"instances", "--budgets", path, "--skip-cgo", "--format", "json"}, exitFailure, nil,
		[]string{"memprof instances: --skip-cgo: not measured, every case needing cgo: the budgets at " + path + ":3"})
	if !strings.Contains(stderr, "nothing") {
		t.Errorf("stderr %q: want it to say nothing was measured", stderr)
	}
}
