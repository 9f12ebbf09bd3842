package main

import (
	"flag"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/memprof/memprof/cmd/memprof/internal/tabletest"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
)

// docTable is a table of the terminal format, as the README shows it and
// the command prints it.
type docTable struct{ tabletest.Table }

// parseTables reads the tables of a command's output, and the other lines
// (headings, footnotes).
func parseTables(text string) (tables []docTable, other []string) {
	ts, other := tabletest.Parse(text)
	for _, t := range ts {
		tables = append(tables, docTable{t})
	}
	return tables, other
}

// shortHeader is the short header the tables use for label where they
// are tight ("B/inst" for "B/instance").
func shortHeader(label string) string {
	if c, err := results.LookupColumn(label); err == nil && c.ShortLabel() != "" {
		return c.ShortLabel()
	}
	return map[string]string{"slot sizes": "slots"}[label]
}

// docsAll makes TestDocFixturesExact measure every exact case of the
// documents' results files, not one of each (.ci/run).
var docsAll = flag.Bool("docs.all", false, "measure every exact case of fixtures/docs/*.json")

// TestDocFixturesExact measures again what the documents' results files
// (fixtures/docs/*.json, which README.md and docs/ render with memprof
// show) say of the cases whose figures are exact by construction — a
// fixed-size value held by pointer, bytes to the slot — and compares
// B/instance, allocs/instance and the slot to the digit, at the file's N:
// a result that no longer matches the code is a stale fixture
// (scripts/fixtures.sh re-measures them). Only the exact figures are
// compared; the others depend on the machine. One case of each file, or
// every one with -docs.all.
func TestDocFixturesExact(t *testing.T) {
	t.Parallel() // changes no environment, directory or package variable; measures, if at all, in children
	files, err := filepath.Glob("../../fixtures/docs/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no results files under fixtures/docs: %v", err)
	}
	for _, file := range files {
		rs, err := results.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		checked := 0
		for _, want := range rs.Instances {
			e, ok := registry().Lookup(want.Key.BenchName())
			if !ok || !e.Unavailable.IsZero() || want.Error != "" || want.Key.Layout != measure.Pointer || want.HeapResolution != 0 || want.Key.Type.IsScenario() {
				continue
			}
			if checked > 0 && !*docsAll {
				break
			}
			checked++
			k := want.Key
			t.Run(filepath.Base(file)+"/"+k.String(), func(t *testing.T) {
				args := []string{"instances", "--type", string(k.Type), "--lib", string(k.Lib), "--repr", string(k.Repr), "--layout", string(k.Layout),
					"-n", strconv.Itoa(want.N), "--format", "json"}
				if k.Scheme != "" {
					args = append(args, "--scheme", string(k.Scheme))
				}
				code, stdout, stderr := runCLI(t, args...)
				if code != exitOK {
					t.Fatalf("memprof %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
				}
				got, err := results.Read(strings.NewReader(stdout))
				if err != nil || len(got.Instances) != 1 {
					t.Fatalf("memprof %s: %v, %d rows", strings.Join(args, " "), err, len(got.Instances))
				}
				g := got.Instances[0]
				if g.BytesPerInstance != want.BytesPerInstance || g.AllocsPerInstance != want.AllocsPerInstance || g.SlotBytes != want.SlotBytes {
					t.Errorf("%s: %s: got %v B, %v allocs, slot %v; the file says %v B, %v allocs, slot %v (re-measure: scripts/fixtures.sh)",
						file, k, g.BytesPerInstance, g.AllocsPerInstance, g.SlotBytes, want.BytesPerInstance, want.AllocsPerInstance, want.SlotBytes)
				}
			})
		}
		if checked == 0 {
			t.Logf("%s: no case of it is exact and measurable in this build", file)
		}
	}
}
