package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

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
// the command prints it: its header and its rows, the lines that only
// continue a wrapped cell (their first cell is empty) left out.
type docTable struct {
	header []string
	rows   [][]string
}

// parseTables reads the box-drawn tables of a command's output, and the
// other lines (the note under a table). A header wrapped over several
// lines (a figure's label over narrow figures) is read as one line.
func parseTables(text string) (tables []docTable, other []string) {
	var cur *docTable
	inHeader := false
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "┌"):
			tables = append(tables, docTable{})
			cur = &tables[len(tables)-1]
			inHeader = true
		case strings.HasPrefix(line, "├"), strings.HasPrefix(line, "└"):
			inHeader = false
		case strings.HasPrefix(line, "│") && cur != nil:
			parts := strings.Split(strings.Trim(line, "│"), "│")
			cells := make([]string, len(parts))
			for i, p := range parts {
				cells[i] = strings.TrimSpace(p)
			}
			switch {
			case cur.header == nil:
				cur.header = cells
			case inHeader:
				cur.header = joinHeader(cur.header, cells)
			case cells[0] != "":
				cur.rows = append(cur.rows, cells)
			}
		case strings.TrimSpace(line) != "":
			other = append(other, line)
		}
	}
	return tables, other
}

// joinHeader adds a line of a wrapped header to the ones above it: a
// label broken after a '/' or '-' is joined without a space ("allocs/"
// and "instance"), one broken at a space with one.
func joinHeader(header, line []string) []string {
	for i, c := range line {
		switch {
		case i >= len(header) || c == "":
		case header[i] == "" || strings.HasSuffix(header[i], "/") || strings.HasSuffix(header[i], "-"):
			header[i] += c
		default:
			header[i] += " " + c
		}
	}
	return header
}

// column returns the index of the column called name, or fails.
func (tb docTable) column(t *testing.T, name string) int {
	t.Helper()
	i := slices.Index(tb.header, name)
	if i < 0 {
		t.Fatalf("table %v has no column %q", tb.header, name)
	}
	return i
}

// rowsBy groups the rows by the cells of the key columns joined with "/"
// (a case key), in order.
func (tb docTable) rowsBy(t *testing.T, keyCols ...string) (order []string, rows map[string][][]string) {
	t.Helper()
	var idx []int
	for _, c := range keyCols {
		idx = append(idx, tb.column(t, c))
	}
	rows = map[string][][]string{}
	for _, r := range tb.rows {
		var parts []string
		for _, i := range idx {
			parts = append(parts, r[i])
		}
		k := strings.Join(parts, "/")
		if rows[k] == nil {
			order = append(order, k)
		}
		rows[k] = append(rows[k], r)
	}
	return order, rows
}

// docTables are the tables an instances command prints: the cases (keyed
// by type, lib, repr and layout) and their allocation sites (by case), and
// the columns of each whose figures are exact for a fixed-size value: the
// README must show what the command prints in them, to the digit.
var docTables = []docSpec{
	{"cases", []string{"type", "lib", "repr", "layout"}, []string{"B/instance", "allocs/instance", "slot"}, "note"},
	{"allocation sites", []string{"case"}, []string{"B/instance", "allocs/instance", "slot sizes"}, ""},
}

// docSpec says how TestDoc compares one table.
type docSpec struct {
	name    string   // for messages
	key     []string // the columns naming the case
	exact   []string // the columns compared
	nColumn string   // the note column, which must say n=N where the README does
}

// nNote is a note that gives N alone.
var nNote = regexp.MustCompile(`^n=\d+$`)

// TestDoc runs the README's instances commands whose output it prints
// (a command line `go run ./cmd/memprof instances ...` and the fenced block
// after it) and checks, row by row, the columns whose figures are exact:
// B/instance, allocs/instance and slot of the cases (the default
// columns, at the default width of 120), and
// B/instance, allocs/instance and slot sizes of their allocation sites, and
// the lines around the tables. The other columns (off-heap, RSS, ...) and
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
			if len(want) != len(docTables) {
				t.Fatalf("%s:%d: got %d tables in the README's output, want %d", readmePath, ex.line, len(want), len(docTables))
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
			if len(got) != len(docTables) {
				t.Fatalf("memprof %s printed %d tables, want %d:\n%s", strings.Join(args, " "), len(got), len(docTables), stdout)
			}
			for i, spec := range docTables {
				compareDocTable(t, ex, spec, want[i], got[i], only)
			}
			if only == "" && !slices.Equal(gotOther, wantOther) {
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
	order, _ := cases.rowsBy(t, docTables[0].key...)
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

// compareDocTable compares one table of the README with the command's,
// row by row on the exact columns; with only, just that case's rows.
func compareDocTable(t *testing.T, ex docExample, spec docSpec, want, got docTable, only string) {
	t.Helper()
	where := fmt.Sprintf("%s:%d: %s", readmePath, ex.line, spec.name)
	if !slices.Equal(want.header, got.header) {
		t.Errorf("%s: columns: README shows %q, the command prints %q", where, want.header, got.header)
		return
	}
	wantOrder, wantRows := want.rowsBy(t, spec.key...)
	gotOrder, gotRows := got.rowsBy(t, spec.key...)
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
				j := want.column(t, c)
				if w[i][j] != g[i][j] {
					t.Errorf("%s: %s, %s: README shows %q, the command prints %q", where, k, c, w[i][j], g[i][j])
				}
			}
			if spec.nColumn != "" {
				if j := want.column(t, spec.nColumn); nNote.MatchString(w[i][j]) && w[i][j] != g[i][j] {
					t.Errorf("%s: %s, %s: README says %q, the command %q", where, k, spec.nColumn, w[i][j], g[i][j])
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
