package results

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/units"
)

// notFigures are the numeric JSON fields of rows that are not figures:
// counts that say how a row was measured, and a key's batch.
var notFigures = []string{"n", "batch", "attributed_n", "sites_calls"}

// TestFiguresWellFormed checks what every reader of Figures relies on,
// so that a figure added with an incomplete entry fails here: every
// numeric field of a row is a figure (or one of notFigures), every figure
// says what it is and how it is obtained, budget keys and export names
// are unique, and what an entry refers to (resolution, samples) is there.
func TestFiguresWellFormed(t *testing.T) {
	for kind, typ := range rowTypes {
		for _, name := range jsonFields(typ) {
			index, _ := jsonField(typ, name)
			k := typ.FieldByIndex(index).Type
			if k.Kind() == reflect.Pointer {
				k = k.Elem()
			}
			switch k.Kind() {
			case reflect.Float64, reflect.Int, reflect.Int64:
			default:
				continue
			}
			f, err := LookupFigure(name)
			switch {
			case slices.Contains(notFigures, name):
				if err == nil {
					t.Errorf("%s is a figure and in notFigures", name)
				}
			case err != nil:
				t.Errorf("numeric field %s of %s rows is not a figure: give it an entry in registry (registry.go)", name, kind)
			case f.Row != kind:
				t.Errorf("figure %s: Row %s, but it is a field of %s rows", name, f.Row, kind)
			}
		}
	}
	budgets, exports := map[string]bool{}, map[string]bool{}
	for _, f := range Figures {
		t.Run(f.Name, func(t *testing.T) {
			if f.Title == "" || f.Obtained == "" {
				t.Errorf("Title %q, Obtained %q: both are required", f.Title, f.Obtained)
			}
			if f.Unit == units.Text || f.Unit == units.List {
				t.Errorf("unit %q: a figure is a number", f.Unit)
			}
			if f.Required && f.omitEmpty {
				t.Errorf("required, but its field is written with omitempty")
			}
			if f.Summary != measure.SummaryNone && f.Samples == "" {
				t.Errorf("a summary (%d) of no samples", f.Summary)
			}
			if f.Budget != "" {
				if !strings.HasPrefix(f.Budget, "max_") || budgets[f.Budget] {
					t.Errorf("budget key %q: want max_... and unique", f.Budget)
				}
				budgets[f.Budget] = true
			}
			switch {
			case f.Judge == measure.JudgeNoise && (f.Samples == "" || f.Summary != measure.SummaryMedian || f.Unit != units.Nanoseconds):
				t.Errorf("judged by the noise rule, but not the median time of samples")
			case f.Judge == measure.JudgeResolution && f.Resolution == "":
				t.Errorf("judged to its resolution, but has none")
			case f.Judge != measure.JudgeExact && f.Budget == "":
				t.Errorf("a judgement but no budget key")
			}
			for _, e := range []struct{ format, name string }{{"dashboard", f.Dashboard}, {"bencher", f.Bencher}, {"bench", f.Bench}} {
				if e.name == "" {
					continue
				}
				key := string(f.Row) + "/" + e.format + "/" + e.name
				if exports[key] {
					t.Errorf("%s name %q twice among %s figures", e.format, e.name, f.Row)
				}
				exports[key] = true
			}
			if strings.ContainsAny(f.Bench, " \t\n") {
				t.Errorf("bench unit %q holds white space", f.Bench)
			}
			if c, err := LookupColumn(f.Name); err != nil || c.Figure != f {
				t.Errorf("its column: got %v, %v; want the column of the figure", c.Figure, err)
			}
		})
	}
}

// TestAbsentFigures: a figure a file lacks (missing or null) is unknown,
// never 0: the file is valid (it may predate the figure), Value says
// unknown, the tables show n/a, and writing the results again leaves the
// figure out, so that reading them back finds it unknown still. A figure
// written as 0 is 0.
func TestAbsentFigures(t *testing.T) {
	tests := []struct {
		name, section, figure string
		edit                  func(row map[string]any)
		known                 bool
		table                 string
	}{
		{"off-heap missing", "instances", "offheap_bytes_per_instance", func(r map[string]any) { delete(r, "offheap_bytes_per_instance") }, false, "n/a"},
		{"off-heap null", "instances", "offheap_bytes_per_instance", func(r map[string]any) { r["offheap_bytes_per_instance"] = nil }, false, "n/a"},
		{"off-heap 0", "instances", "offheap_bytes_per_instance", func(r map[string]any) { r["offheap_bytes_per_instance"] = 0 }, true, "0"},
		{"scan missing", "instances", "scan_bytes_per_instance", func(r map[string]any) {
			delete(r, "scan_bytes_per_instance")
			r["scan_resolution_bytes_per_instance"] = 0.5
		}, false, "n/a"},
		{"HeapAlloc null", "instances", "heapalloc_bytes_per_instance", func(r map[string]any) { r["heapalloc_bytes_per_instance"] = nil }, false, "n/a"},
		{"sizeof missing", "instances", "sizeof_bytes", func(r map[string]any) { delete(r, "sizeof_bytes") }, false, "n/a"},
		{"B/op missing", "throughput", "bytes_per_op", func(r map[string]any) { delete(r, "bytes_per_op") }, false, "n/a"},
		{"allocs/op null", "throughput", "allocs_per_op", func(r map[string]any) { r["allocs_per_op"] = nil }, false, "n/a"},
		{"allocs/op 0", "throughput", "allocs_per_op", func(r map[string]any) { r["allocs_per_op"] = 0 }, true, "0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := editedResults(t, func(d doc) { tt.edit(d.row(tt.section, 0)) })
			data := writeDocBytes(t, d)
			rs, err := Decode(data, "r.json")
			if err != nil {
				t.Fatalf("got %v, want the file accepted", err)
			}
			f := FigureNamed(tt.figure)
			check := func(rs *File, when string) {
				t.Helper()
				var row FigureRow = &rs.Instances[0]
				if tt.section == "throughput" {
					row = &rs.Throughput[0]
				}
				v, ok := f.Value(row)
				if ok != tt.known || ok && v != 0 {
					t.Errorf("%s: Value got %v, %v; want known %v (0 when known)", when, v, ok, tt.known)
				}
				c, _ := LookupColumn(tt.figure)
				var cell Cell
				if tt.section == "throughput" {
					cell = c.ReadThroughput(row.(*ThroughputRow))
				} else {
					cell = c.ReadInstance(row.(*Row))
				}
				if got := c.Format(cell); got != tt.table {
					t.Errorf("%s: table cell got %q, want %q", when, got, tt.table)
				}
			}
			check(rs, "read")
			rewritten := jsonOf(t, rs)
			if _, got := docOf(t, rewritten).row(tt.section, 0)[tt.figure]; got != tt.known {
				t.Errorf("rewritten: %s in the row got %v, want %v", tt.figure, got, tt.known)
			}
			again, err := Decode(rewritten, "again.json")
			if err != nil {
				t.Fatalf("rewritten: got %v, want the file accepted", err)
			}
			check(again, "re-read")
		})
	}
}

// TestPresentFiguresInRange: a figure that is present must be a finite
// number in its range, or the file is refused, whatever the figure:
// every one is checked by its entry.
func TestPresentFiguresInRange(t *testing.T) {
	sig := "instances[0] (Signature/blst/affine/pointer): "
	verify := "throughput[0] (Signature/blst/affine op=verify): "
	tests := []struct {
		name, section, key string
		value              any
		want               string
	}{
		{"off-heap a string", "instances", "offheap_bytes_per_instance", "12", sig + `offheap_bytes_per_instance is "12", want a number`},
		{"off-heap past float64", "instances", "offheap_bytes_per_instance", rawNumber("1e400"), sig + "offheap_bytes_per_instance is +Inf, want a finite number"},
		{"scan an object", "instances", "scan_bytes_per_instance", map[string]any{}, sig + `scan_bytes_per_instance is {}, want a number`},
		{"sizeof not whole", "instances", "sizeof_bytes", 1.5, sig + "sizeof_bytes is 1.5, want a whole number"},
		{"holder negative", "instances", "holder_bytes_per_instance", -8, sig + "holder_bytes_per_instance is -8, want a non-negative number"},
		{"C heap past float64", "instances", "c_heap_bytes_per_instance", rawNumber("-1e999"), sig + "c_heap_bytes_per_instance is -Inf, want a finite number"},
		{"B/op negative", "throughput", "bytes_per_op", -1, verify + "bytes_per_op is -1, want a non-negative number"},
		{"allocs/op a string", "throughput", "allocs_per_op", "none", verify + `allocs_per_op is "none", want a number`},
		{"CPU past float64", "throughput", "cpu_ns_per_op_median", rawNumber("1e309"), verify + "cpu_ns_per_op_median is +Inf, want a finite number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := editedResults(t, func(d doc) { d.row(tt.section, 0)[tt.key] = tt.value })
			_, err := Decode(writeDocBytes(t, d), "r.json")
			if want := "r.json: " + tt.want; err == nil || err.Error() != want {
				t.Errorf("got %v, want %s", err, want)
			}
		})
	}
}

// rawNumber is a JSON number written as is (one a float64 cannot hold).
type rawNumber string

func (n rawNumber) MarshalJSON() ([]byte, error) { return []byte(n), nil }

func writeDocBytes(t *testing.T, d doc) []byte {
	t.Helper()
	var buf bytes.Buffer
	path := t.TempDir() + "/r.json"
	buf.Write(writeDoc(t, path, d))
	return buf.Bytes()
}

// TestWithFigure: a figure of one entry added by WithFigure has a column
// of its own, labelled by its name, in place of a column that is not a
// figure and has its name (no name twice), and the reader knows it;
// restoring leaves the registry and the columns as they were.
func TestWithFigure(t *testing.T) {
	figs, cols := Figures, Columns
	entry := &Figure{Row: RowInstances, Figure: measure.Figure{Name: "attributed_n", Title: "a test figure", Unit: units.Count, Obtained: "a test"}}
	restore := WithFigure(entry)
	c, err := LookupColumn(entry.Name)
	if err != nil || c.Figure != entry || c.Label != entry.Name {
		t.Errorf("its column: got %+v, %v; want the figure's, labelled %s", c, err, entry.Name)
	}
	names := map[string]bool{}
	for _, c := range Columns {
		if names[c.Name] {
			t.Errorf("column %s twice", c.Name)
		}
		names[c.Name] = true
	}
	if f, err := LookupFigure(entry.Name); err != nil || f != entry {
		t.Errorf("LookupFigure: got %v, %v", f, err)
	}
	restore()
	if !slices.Equal(Figures, figs) || len(Columns) != len(cols) {
		t.Fatalf("restored: %d figures and %d columns, want %d and %d", len(Figures), len(Columns), len(figs), len(cols))
	}
	for i := range cols {
		if Columns[i].Name != cols[i].Name || Columns[i].Figure != cols[i].Figure {
			t.Errorf("restored column %d: got %s, want %s", i, Columns[i].Name, cols[i].Name)
		}
	}
	if _, err := LookupFigure(entry.Name); err == nil {
		t.Errorf("restored: %s is still a figure", entry.Name)
	}
}
