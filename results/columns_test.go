package results

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
)

// jsonFields returns the JSON field names of struct type t, the fields of
// embedded structs included (encoding/json flattens them).
func jsonFields(t reflect.Type) []string {
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			names = append(names, jsonFields(f.Type)...)
			continue
		}
		if name == "" {
			name = f.Name
		}
		names = append(names, name)
	}
	return names
}

// TestEveryJSONFieldHasAColumn makes a new field of a row (of Measurement,
// Timing, Key, ...) impossible to forget: it needs a column, which says
// in which formats it shows, and the column must read it from that kind of
// row. Every column that says it is in JSON must be a field.
func TestEveryJSONFieldHasAColumn(t *testing.T) {
	rows := []struct {
		kind   string
		typ    reflect.Type
		reader func(Column) bool
		// notOf are the key's fields that a row of this kind does not
		// have (see Key): an instance case has no operation, an
		// operation no layout.
		notOf []string
	}{
		{"instance", reflect.TypeFor[Row](), func(c Column) bool { return c.Instance != nil }, []string{"op", "batch"}},
		{"throughput", reflect.TypeFor[ThroughputRow](), func(c Column) bool { return c.Throughput != nil }, []string{"layout"}},
	}
	inJSON := map[string]bool{}
	for _, row := range rows {
		for _, name := range jsonFields(row.typ) {
			inJSON[name] = true
			t.Run(row.kind+"/"+name, func(t *testing.T) {
				c, err := LookupColumn(name)
				if err != nil || c.Name != name {
					t.Fatalf("JSON field %s of %s has no column in Columns (got %q, %v)", name, row.typ, c.Name, err)
				}
				if c.Show&InJSON == 0 {
					t.Errorf("column %s: Show got %b, want it to include InJSON", name, c.Show)
				}
				if c.Unit != units.List && !row.reader(c) && !slices.Contains(row.notOf, name) {
					t.Errorf("column %s has no reader for %s rows", name, row.kind)
				}
			})
		}
	}
	for _, c := range Columns {
		if c.Show&InJSON != 0 && !inJSON[c.Name] {
			t.Errorf("column %s says it is in JSON, but no row has that JSON field", c.Name)
		}
	}
}

// TestColumnsWellFormed checks what the renderers rely on: names are
// unique (they are looked up), a column any table or the CSV shows has a
// label and a reader, and the header labels of one table are unique.
func TestColumnsWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Columns {
		if c.Name == "" || seen[c.Name] {
			t.Errorf("column name %q: empty or not unique", c.Name)
		}
		seen[c.Name] = true
		shown := c.Show&(InTable|InMarkdown|InCSV) != 0
		if shown && c.Instance == nil && c.Throughput == nil && c.Unavailable == nil {
			t.Errorf("column %s shows in a table or the CSV but reads no kind of row", c.Name)
		}
		if c.Show&(InTable|InMarkdown) != 0 && c.Label == "" {
			t.Errorf("column %s shows in a table but has no label", c.Name)
		}
		if shown && c.Unit == units.List {
			t.Errorf("column %s holds a list: it can show only in JSON", c.Name)
		}
	}
	for _, f := range []Formats{InTable, InMarkdown} {
		for kind, cols := range map[string][]Column{"instance": InstanceColumns(f), "throughput": ThroughputColumns(f)} {
			var labels []string
			for _, c := range cols {
				h := c.Header(f)
				if slices.Contains(labels, h) || h == "note" {
					t.Errorf("%s table (format %b): header %q twice (the tables add a note column)", kind, f, h)
				}
				labels = append(labels, h)
			}
		}
	}
}

// TestCSVHeader checks that the CSV header is the spec's: every column
// that shows in CSV, by name, in the spec's order, and nothing else.
func TestCSVHeader(t *testing.T) {
	var want []string
	for _, c := range Columns {
		if c.Show&InCSV != 0 {
			want = append(want, c.Name)
		}
	}
	got := CSVHeader()
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	for _, name := range []string{"kind", "bytes_per_instance", "c_heap_bytes_per_instance", "ns_per_op_median", "note", "error"} {
		if !slices.Contains(got, name) {
			t.Errorf("CSV header lacks %s: %v", name, got)
		}
	}
}

func TestLookupColumn(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"bytes_per_instance", "bytes_per_instance"}, // JSON name
		{"B/instance", "bytes_per_instance"},         // terminal label
		{"sizeof", "sizeof_bytes"},
		{"sizeof B", "sizeof_bytes"}, // Markdown label
		{"time/op (median)", "ns_per_op_median"},
		{"CPU/op", "cpu_ns_per_op_median"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			c, err := LookupColumn(tt.in)
			if err != nil || c.Name != tt.want {
				t.Errorf("got %q, %v; want %q", c.Name, err, tt.want)
			}
		})
	}
	for _, bad := range []string{"", "bytes", "B/INSTANCE"} {
		t.Run("unknown "+bad, func(t *testing.T) {
			_, err := LookupColumn(bad)
			if err == nil || !strings.Contains(err.Error(), `"bytes_per_instance"`) {
				t.Errorf("got %v, want an error listing the columns", err)
			}
		})
	}
}

// TestCells reads the columns whose cell depends on more than the field:
// figures known only to within a resolution, figures not measured, a
// failed case, and what tables and CSV make of each state.
func TestCells(t *testing.T) {
	size := float64(unsafe.Sizeof([24]uint64{})) // the instance
	res := size / 4                              // a resolution finer than the instance
	cheap := 0.0
	measured := measure.Measurement{N: 1000, BytesPerInstance: size, SlotBytes: size, OffheapResolution: res, RSSResolution: res, CHeapBytesPerInstance: &cheap}
	with := func(f func(*Row)) *Row {
		r := &Row{Key: Key{Type: vocab.Signature, Lib: vocab.Blst, Repr: vocab.Affine, Layout: measure.Pointer}, Measurement: measured}
		f(r)
		return r
	}
	tests := []struct {
		name       string
		column     string
		row        *Row
		state      State
		table, csv string
	}{
		{"off-heap within resolution", "offheap_bytes_per_instance", with(func(r *Row) { r.OffheapBytesPerInstance = -res / 2 }), NearZero, "~0", "0"},
		{"off-heap within resolution, above zero", "offheap_bytes_per_instance", with(func(r *Row) { r.OffheapBytesPerInstance = res / 2 }), NearZero, "~0", units.FormatExact(res / 2)},
		{"off-heap below zero, resolution not recorded", "offheap_bytes_per_instance", with(func(r *Row) { r.OffheapBytesPerInstance, r.OffheapResolution = -1, 0 }), Exact, "~0", "0"},
		{"off-heap beyond resolution", "offheap_bytes_per_instance", with(func(r *Row) { r.OffheapBytesPerInstance = 2 * res }), Exact, units.FormatFigure(2 * res), units.FormatExact(2 * res)},
		{"off-heap, resolution not recorded", "offheap_bytes_per_instance", with(func(r *Row) { r.OffheapBytesPerInstance, r.OffheapResolution = 1, 0 }), Exact, "1", "1"},
		{"RSS resolution larger than the instance", "rss_bytes_per_instance", with(func(r *Row) { r.RSSBytesPerInstance, r.RSSResolution = 3*size, 2*size }), Unresolved, NTooSmall, units.FormatExact(3 * size)},
		{"unaccounted within resolution", "unaccounted_bytes_per_instance", with(func(r *Row) { r.UnaccountedBytesPerInstance = res / 2 }), NearZero, "~0", units.FormatExact(res / 2)},
		{"C heap counts toward the instance", "rss_bytes_per_instance", with(func(r *Row) {
			c := 2 * size
			r.CHeapBytesPerInstance, r.RSSBytesPerInstance, r.RSSResolution = &c, 4*size, 2*size
		}), Exact, units.FormatFigure(4 * size), units.FormatExact(4 * size)},
		{"C heap not read", "c_heap_bytes_per_instance", with(func(r *Row) { r.CHeapBytesPerInstance, r.CHeapUnavailable = nil, "no glibc" }), Unknown, "n/a", ""},
		{"C heap's reason goes to the CSV note", "note", with(func(r *Row) { r.CHeapBytesPerInstance, r.CHeapUnavailable = nil, "no glibc" }), Exact, "no glibc", "no glibc"},
		{"RSS resolution not recorded", "rss_resolution_bytes_per_instance", with(func(r *Row) { r.RSSResolution = 0 }), Unknown, "n/a", ""},
		{"slot of a pointer", "slot", with(func(*Row) {}), Exact, units.FormatFigure(size), units.FormatExact(size)},
		{"slot of a slice", "slot", with(func(r *Row) { r.Layout, r.SlotBytes, r.ArraySlotBytesPerInstance = measure.Slice, 0, size+0.5 }), Exact, units.FormatFigure(size + 0.5), units.FormatExact(size + 0.5)},
		{"slot of a collection", "slot", with(func(r *Row) { r.Layout = measure.Collection }), NotApplicable, "-", ""},
		{"figure of a failed case", "bytes_per_instance", with(func(r *Row) { r.Error = "boom" }), NotApplicable, "-", ""},
		{"N of a failed case", "n", with(func(r *Row) { r.Error = "boom" }), Exact, "1000", "1000"},
		{"type of a user's own case", "type", with(func(r *Row) { r.Type, r.Name = "", "MyKey" }), Exact, "MyKey", "MyKey"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cell := checkCell(t, tt.column, func(c Column) Cell { return c.ReadInstance(tt.row) }, tt.table, tt.csv)
			if cell.State != tt.state {
				t.Errorf("state: got %d, want %d", cell.State, tt.state)
			}
		})
	}
}

// mustColumn is the column called name.
func mustColumn(t *testing.T, name string) Column {
	t.Helper()
	c, err := LookupColumn(name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// checkCell reads the column called name with read and checks what the
// tables and the CSV make of the cell.
func checkCell(t *testing.T, name string, read func(Column) Cell, table, csv string) Cell {
	t.Helper()
	c := mustColumn(t, name)
	cell := read(c)
	if got := c.Format(cell); got != table {
		t.Errorf("table: got %q, want %q", got, table)
	}
	if got := c.FormatRaw(cell); got != csv {
		t.Errorf("csv: got %q, want %q", got, csv)
	}
	return cell
}

func TestThroughputCells(t *testing.T) {
	row := func(f func(*ThroughputRow)) *ThroughputRow {
		r := &ThroughputRow{Key: Key{Type: vocab.Signature, Lib: vocab.Blst, Repr: vocab.Affine, Op: "verify", Batch: 1}, Timing: measure.Timing{Samples: 3, NsPerOpMedian: 2000, NsPerOpQ1: 1500, NsPerOpQ3: 2500, CPUNsPerOpMedian: 2100, OpsPerSecond: 5e5}}
		f(r)
		return r
	}
	tests := []struct {
		name, column string
		row          *ThroughputRow
		table, csv   string
	}{
		{"median", "ns_per_op_median", row(func(*ThroughputRow) {}), units.FormatNs(2000), "2000"},
		{"quartiles in one cell", "quartiles", row(func(*ThroughputRow) {}), units.FormatNs(1500) + " – " + units.FormatNs(2500), units.FormatNs(1500) + " – " + units.FormatNs(2500)},
		{"CPU time not measured", "cpu_ns_per_op_median", row(func(r *ThroughputRow) { r.CPUNsPerOpMedian = 0 }), "n/a", ""},
		{"ops/s from the median when absent", "ops_per_s", row(func(r *ThroughputRow) { r.OpsPerSecond = 0 }), "500000", "500000"},
		{"batch of an old row", "batch", row(func(r *ThroughputRow) { r.Batch = 0 }), "-", ""},
		{"failed operation", "ns_per_op_median", row(func(r *ThroughputRow) { r.Error = "boom" }), "-", ""},
		{"failed operation keeps its note", "note", row(func(r *ThroughputRow) { r.Error, r.Note = "boom", "pairing" }), "pairing", "pairing"},
		{"layout is not an operation's", "layout", row(func(*ThroughputRow) {}), "-", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkCell(t, tt.column, func(c Column) Cell { return c.ReadThroughput(tt.row) }, tt.table, tt.csv)
		})
	}
}
