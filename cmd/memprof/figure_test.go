package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/cmd/memprof/internal/resultsfixture"
	"github.com/memprof/memprof/cmd/memprof/internal/tabletest"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
)

// testFigure is a figure that only this file registers: one entry of the
// registry, on a numeric field of instance rows that is not a figure
// (attributed_n, the instances the sites were profiled on), with a budget
// key, a compare metric and a name in each export.
var testFigure = results.Figure{Row: results.RowInstances, Figure: measure.Figure{
	Name: "attributed_n", Title: "the test figure", Unit: units.Count,
	Obtained: "a figure registered by a test only",
	Budget:   "max_attributed_n", Compare: "test-figure",
	Dashboard: "test-figure", Bencher: "test-figure", Bench: "test-figure"}}

// TestFigureIsOneEntry: a figure added by one registry entry, and nothing
// else, shows in show's table, is a limit of a budget that check judges,
// is compared by compare and is written by each export.
func TestFigureIsOneEntry(t *testing.T) {
	entry := testFigure
	t.Cleanup(results.WithFigure(&entry))

	// Its truth: the fixture's rows, one of them given values this test
	// chooses, base and head one apart.
	rs, err := results.ReadFile(resultsfixture.Path())
	if err != nil {
		t.Fatal(err)
	}
	// The reader holds attributed_n to at most the row's n.
	i := slices.IndexFunc(rs.Instances, func(r results.Row) bool { return r.Error == "" && r.N > 2 })
	if i < 0 {
		t.Fatal("the fixture has no measured instance row of more than 2 instances")
	}
	row := &rs.Instances[i]
	base := float64(row.N - 2)
	dir := t.TempDir()
	write := func(name string, v float64) string {
		entry.Set(row, v)
		path := filepath.Join(dir, name)
		writeJSONFile(t, path, rs)
		return path
	}
	basePath, headPath := write("base.json", base), write("head.json", base+1)

	t.Run("show", func(t *testing.T) {
		out, _ := runChecked(t, []string{"show", basePath, "--type", string(row.Type), "--columns", "lib,repr,layout,attributed_n"}, exitOK, nil, nil)
		tables, _ := tabletest.Parse(out)
		if len(tables) == 0 || !slices.Contains(tables[0].Header, entry.Name) {
			t.Fatalf("no column %s (its name, the label of a figure without one):\n%s", entry.Name, out)
		}
		cells, ok := tables[0].Row(string(row.Lib))
		if !ok || !slices.Contains(cells, units.Count.FormatCell(base)) {
			t.Errorf("no row of %s with %s in it:\n%s", row.Lib, units.Count.FormatCell(base), out)
		}
	})

	t.Run("check", func(t *testing.T) {
		budgets := filepath.Join(dir, "budgets.yaml")
		sel := fmt.Sprintf("{type: %s, lib: %s, repr: %s, layout: %s", row.Type, row.Lib, row.Repr, row.Layout)
		if row.Scheme != "" {
			sel += ", scheme: " + string(row.Scheme)
		}
		yaml := fmt.Sprintf("version: 1\nbudgets:\n  - select: %s}\n    %s: %v\n", sel, entry.Budget, base-1)
		if err := os.WriteFile(budgets, []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		runChecked(t, []string{"check", "--results", basePath, "--budgets", budgets}, exitFailure, []string{entry.Title}, nil)
	})

	t.Run("compare", func(t *testing.T) {
		runChecked(t, []string{"compare", basePath, headPath}, exitFailure, []string{entry.Compare}, nil)
	})

	t.Run("export", func(t *testing.T) {
		for _, to := range []string{"benchfmt", "github-action-benchmark", "bencher"} {
			out, _ := runChecked(t, []string{"export", "--to", to, basePath}, exitOK, nil, nil)
			want := map[string]string{
				"benchfmt":                fmt.Sprintf(" %v %s", base, entry.Bench),
				"github-action-benchmark": " - " + entry.Dashboard + `"`,
				"bencher":                 `"` + entry.Bencher + `"`,
			}[to]
			if !strings.Contains(out, want) {
				t.Errorf("export --to %s: no %q in\n%s", to, want, out)
			}
		}
	})
}
