package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/cmd/memprof/internal/tabletest"
	"github.com/memprof/memprof/model"
	workflow "github.com/memprof/memprof/run"
	"github.com/memprof/memprof/suites"
)

// readmePath is the README whose printed outputs TestDoc checks.
const readmePath = "../../README.md"

// docCommand is a command the README shows with its output: a line that
// starts with `go run ./cmd/memprof ARGS`, then the output in the next
// fenced block.
var docCommand = regexp.MustCompile("^`go run ./cmd/memprof (instances [^`]*)`")

// docExample is one command of the README and the output it prints.
type docExample struct {
	line   int // of the command, for messages
	args   []string
	output string
}

// readmeExamples returns the README's instances commands and the outputs
// it prints for them.
func readmeExamples(t *testing.T) []docExample {
	t.Helper()
	f, err := os.Open(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []docExample
	var cur *docExample
	inBlock := false
	var block strings.Builder
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil:
			if m := docCommand.FindStringSubmatch(line); m != nil {
				cur = &docExample{line: n, args: strings.Fields(m[1])}
			}
		case !inBlock && line == "```":
			inBlock = true
			block.Reset()
		case inBlock && line == "```":
			cur.output = block.String()
			out = append(out, *cur)
			cur, inBlock = nil, false
		case inBlock:
			block.WriteString(line + "\n")
		case docCommand.MatchString(line):
			t.Fatalf("%s:%d: a command without its output before the next command (line %d)", readmePath, cur.line, n)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

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

// column returns the index of the column called name (its label or its
// short header), or fails.
func (tb docTable) column(t *testing.T, name string) int {
	t.Helper()
	for _, n := range []string{name, shortHeader(name)} {
		if i := slices.Index(tb.Header, n); i >= 0 {
			return i
		}
	}
	t.Fatalf("table %v has no column %q", tb.Header, name)
	return -1
}

// shortHeader is the short header the tables use for label where they
// are tight ("B/inst" for "B/instance").
func shortHeader(label string) string {
	if c, err := model.LookupColumn(label); err == nil && c.ShortLabel() != "" {
		return c.ShortLabel()
	}
	return map[string]string{"slot sizes": "slots"}[label]
}

// caseKeys are the columns naming a case; a table has those whose
// values differ, its heading the others' values, in this order.
var caseKeys = []string{"type", "lib", "repr", "layout"}

// rowsBy groups the rows by their case key, "type/lib/repr/layout" (each
// from its column, or from the heading where the table has none), in
// order.
func (tb docTable) rowsBy(t *testing.T) (order []string, rows map[string][][]string) {
	t.Helper()
	heading, _, _ := strings.Cut(strings.TrimPrefix(tb.Heading, "allocation sites: "), ",")
	words := strings.Fields(heading)
	fixed := map[string]string{}
	for _, c := range caseKeys {
		if slices.Contains(tb.Header, c) {
			continue
		}
		if len(words) == 0 {
			t.Fatalf("table %v has no column %s and its heading %q no value for it", tb.Header, c, tb.Heading)
		}
		fixed[c], words = words[0], words[1:]
	}
	rows = map[string][][]string{}
	for _, r := range tb.Rows {
		var parts []string
		for _, c := range caseKeys {
			if v, ok := fixed[c]; ok {
				parts = append(parts, v)
			} else {
				parts = append(parts, r[tb.column(t, c)])
			}
		}
		k := strings.Join(parts, "/")
		if rows[k] == nil {
			order = append(order, k)
		}
		rows[k] = append(rows[k], r)
	}
	return order, rows
}

// docTables are the tables an instances command prints: the cases and
// their allocation sites, and the columns of each whose figures are exact
// for a fixed-size value: the README must show what the command prints
// in them, to the digit.
var docTables = []docSpec{
	{"cases", []string{"B/instance", "allocs/instance", "slot"}},
	{"allocation sites", []string{"B/instance", "allocs/instance", "slot sizes"}},
}

// docSpec says how TestDoc compares one kind of table.
type docSpec struct {
	name  string   // for messages: "cases" or "allocation sites"
	exact []string // the columns compared
}

// of returns the tables of the spec's kind among tables: the sites, or
// the cases (one table per type).
func (spec docSpec) of(tables []docTable) []docTable {
	var out []docTable
	for _, t := range tables {
		if slices.Contains(t.Header, "allocation site") == (spec.name == "allocation sites") {
			out = append(out, t)
		}
	}
	return out
}

// footnoteRef is a footnote's number in a cell: "n/a[2]".
var footnoteRef = regexp.MustCompile(`\[\d+\]`)

// partialBuild reports whether this build cannot measure some case the
// tables show (blst and c-kzg without cgo).
func partialBuild(t *testing.T, tables []docTable) bool {
	order, _ := rowsOf(t, tables)
	for _, k := range order {
		if e, ok := lookupDocCase(k); ok && e.Unavailable.Kind == model.NeedsCgo {
			return true
		}
	}
	return false
}

// docRow is a row of a table, with the table (for its columns).
type docRow struct {
	table *docTable
	cells []string
}

// rowsOf groups the rows of tables by their case key, in order.
func rowsOf(t *testing.T, tables []docTable) (order []string, rows map[string][]docRow) {
	rows = map[string][]docRow{}
	for i := range tables {
		o, rs := tables[i].rowsBy(t)
		for _, k := range o {
			if rows[k] == nil {
				order = append(order, k)
			}
			for _, r := range rs[k] {
				rows[k] = append(rows[k], docRow{&tables[i], r})
			}
		}
	}
	return order, rows
}

// TestDoc runs the README's instances commands whose output it prints
// (a command line `go run ./cmd/memprof instances ...` and the fenced block
// after it) and checks, row by row, the columns whose figures are exact:
// B/instance, allocs/instance and slot of the cases (the default
// columns, at the default width of 120), and
// B/instance, allocs/instance and slot sizes of their allocation sites, and
// the lines around the tables (their headings, with N, and footnotes). The other columns (off-heap, RSS, ...) and
// the sites' functions and lines depend on the machine and the code;
// commands of scenario types, whose figures vary in their last digits, are
// not run. So the README cannot drift from what the command prints.
//
// The commands run at the README's N. With -short only one case of each is
// run (still at the README's N), and only its rows are compared.
func TestDoc(t *testing.T) {
	t.Setenv("COLUMNS", "120") // the README shows the tables at 120 columns
	examples := readmeExamples(t)
	if len(examples) == 0 {
		t.Fatalf("%s shows no instances command with its output", readmePath)
	}
	ran := 0
	for _, ex := range examples {
		t.Run(strings.Join(ex.args, " "), func(t *testing.T) {
			if scenarios(t, ex.args) {
				t.Skipf("%s:%d: scenario figures vary in their last digits", readmePath, ex.line)
			}
			want, wantOther := parseTables(ex.output)
			if len(want) < len(docTables) {
				t.Fatalf("%s:%d: got %d tables in the README's output, want cases and sites", readmePath, ex.line, len(want))
			}
			args := ex.args
			only := ""
			if testing.Short() {
				// One measured case, the first the README shows.
				only = firstMeasured(t, want[0])
				f := strings.Split(only, "/")
				args = append(slices.Clone(args), "--lib", f[1], "--repr", f[2], "--layout", f[3])
			}
			code, stdout, stderr := runCLI(t, args...)
			if code != exitOK {
				t.Fatalf("memprof %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
			}
			got, gotOther := parseTables(stdout)
			for _, spec := range docTables {
				compareDocTables(t, ex, spec, spec.of(want), spec.of(got), only)
			}
			// A build without cgo prints its cgo cases n/a: the lines
			// around the tables (the footnotes) and the columns of the
			// sites (no collection) differ from the README's.
			if only == "" && !partialBuild(t, want) && !slices.Equal(gotOther, wantOther) {
				t.Errorf("%s:%d: the lines around the tables: README shows %q, the command prints %q", readmePath, ex.line, wantOther, gotOther)
			}
			ran++
		})
	}
	if ran == 0 {
		t.Errorf("%s: no command was checked", readmePath)
	}
}

// scenarios reports whether the command's --type selects a scenario type.
func scenarios(t *testing.T, args []string) bool {
	t.Helper()
	i := slices.Index(args, "--type")
	if i < 0 || i+1 >= len(args) {
		t.Fatalf("command %v has no --type", args)
	}
	types, err := workflow.ParseTypes(args[i+1])
	if err != nil {
		t.Fatal(err)
	}
	return slices.ContainsFunc(types, model.Type.IsScenario)
}

// firstMeasured returns the key of the first row of the cases' table that
// registry can measure in this build.
func firstMeasured(t *testing.T, cases docTable) string {
	t.Helper()
	order, _ := cases.rowsBy(t)
	for _, k := range order {
		if e, ok := lookupDocCase(k); ok && e.Unavailable.IsZero() {
			return k
		}
	}
	t.Fatalf("the README's table has no case this build can measure")
	return ""
}

// lookupDocCase finds the registry's entry of a table's case key
// ("Signature/blst/affine/pointer", of the default scheme).
func lookupDocCase(key string) (suites.Entry, bool) {
	f := strings.Split(key, "/")
	if len(f) != 4 {
		return suites.Entry{}, false
	}
	k := model.Key{Type: model.Type(f[0]), Lib: model.Lib(f[1]), Repr: model.Repr(f[2]), Layout: model.Layout(f[3])}.Normalize()
	return registry().Lookup(k.BenchName())
}

// compareDocTables compares the tables of one kind of the README with the
// command's, row by row on the exact columns; with only, just that
// case's rows.
func compareDocTables(t *testing.T, ex docExample, spec docSpec, want, got []docTable, only string) {
	t.Helper()
	where := fmt.Sprintf("%s:%d: %s", readmePath, ex.line, spec.name)
	if only == "" && !partialBuild(t, want) {
		if len(want) != len(got) {
			t.Errorf("%s: README shows %d tables, the command prints %d", where, len(want), len(got))
			return
		}
		for i := range want {
			if !slices.Equal(want[i].Header, got[i].Header) {
				t.Errorf("%s: columns: README shows %q, the command prints %q", where, want[i].Header, got[i].Header)
				return
			}
		}
	}
	wantOrder, wantRows := rowsOf(t, want)
	gotOrder, gotRows := rowsOf(t, got)
	var compared []string
	for _, k := range wantOrder {
		if only != "" && k != only {
			continue
		}
		e, ok := lookupDocCase(k)
		if !ok {
			t.Errorf("%s: the README shows %s, which is not a case", where, k)
			continue
		}
		if e.Unavailable.Kind == model.NeedsCgo {
			t.Logf("%s: not compared: %s", k, e.Unavailable.Reason)
			continue
		}
		compared = append(compared, k)
		if e.Layout == model.Collection && only == "" {
			// A structure is not a fixed-size value: its figures and
			// sites move by a map's table or a worker goroutine's
			// records from run to run (blst's BatchUncompress: 200.71
			// and 200.72 B). It must be there; its figures are not
			// compared.
			t.Logf("%s: figures not compared: a collection's are not fixed by its type", k)
			continue
		}
		w, g := wantRows[k], gotRows[k]
		if len(w) != len(g) {
			t.Errorf("%s: %s: README shows %d rows, the command prints %d", where, k, len(w), len(g))
			continue
		}
		for i := range w {
			for _, c := range spec.exact {
				// A footnote's number depends on the rows before it.
				wc, gc := w[i].cells[w[i].table.column(t, c)], g[i].cells[g[i].table.column(t, c)]
				if footnoteRef.ReplaceAllString(wc, "[]") != footnoteRef.ReplaceAllString(gc, "[]") {
					t.Errorf("%s: %s, %s: README shows %q, the command prints %q", where, k, c, wc, gc)
				}
			}
		}
	}
	if only != "" {
		if len(compared) != 1 {
			t.Errorf("compared %v, want the one case %s", compared, only)
		}
		return
	}
	// Every case the command prints is in the README, in the same order.
	var printed []string
	for _, k := range gotOrder {
		if e, _ := lookupDocCase(k); e.Unavailable.Kind != model.NeedsCgo {
			printed = append(printed, k)
		}
	}
	if !slices.Equal(printed, compared) {
		t.Errorf("%s: rows: README shows %v, the command prints %v", where, compared, printed)
	}
}
