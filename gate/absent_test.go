package gate

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
)

// editedFixture is fixtureCheckResults written as JSON, edited as a
// person or an older memprof would have written it, and read back with
// the results reader.
func editedFixture(t *testing.T, edit func(instance, op map[string]any)) *results.File {
	t.Helper()
	var buf bytes.Buffer
	if err := fixtureCheckResults().WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var d map[string]any
	if err := json.Unmarshal(buf.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	row := func(section string, i int) map[string]any { return d[section].([]any)[i].(map[string]any) }
	edit(row("instances", 1), row("throughput", 0)) // Signature/blst/affine/pointer and its verify
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := results.Decode(data, "r.json")
	if err != nil {
		t.Fatalf("reading the edited file: %v", err)
	}
	return rs
}

// TestBudgetOnAbsentFigure: a budget on a figure the results file does
// not have (missing, or null) is an ERROR that names the figure, never a
// pass by reading it as 0; the same figure present and 0 passes.
func TestBudgetOnAbsentFigure(t *testing.T) {
	tests := []struct {
		name   string
		budget string // one budget's selector and limit
		edit   func(instance, op map[string]any)
		want   Status
		detail string
	}{
		{"off-heap missing", "{type: Signature, lib: blst}\n    max_offheap_bytes_per_instance: 0",
			func(r, _ map[string]any) { delete(r, "offheap_bytes_per_instance") }, Error, "no offheap_bytes_per_instance"},
		{"off-heap null", "{type: Signature, lib: blst}\n    max_offheap_bytes_per_instance: 0",
			func(r, _ map[string]any) { r["offheap_bytes_per_instance"] = nil }, Error, "no offheap_bytes_per_instance"},
		{"off-heap 0", "{type: Signature, lib: blst}\n    max_offheap_bytes_per_instance: 0",
			func(r, _ map[string]any) { r["offheap_bytes_per_instance"] = 0 }, Pass, ""},
		{"scan missing", "{type: Signature, lib: blst}\n    max_scan_bytes_per_instance: 0",
			func(r, _ map[string]any) {
				delete(r, "scan_bytes_per_instance")
				r["scan_resolution_bytes_per_instance"] = 0.01
			}, Error, "no scan_bytes_per_instance"},
		{"scan null", "{type: Signature, lib: blst}\n    max_scan_bytes_per_instance: 0",
			func(r, _ map[string]any) {
				r["scan_bytes_per_instance"] = nil
				r["scan_resolution_bytes_per_instance"] = 0.01
			}, Error, "no scan_bytes_per_instance"},
		{"bytes per op missing", "{type: Signature, lib: blst, op: verify}\n    max_bytes_per_op: 0",
			func(_, o map[string]any) { delete(o, "bytes_per_op") }, Error, "no bytes_per_op"},
		{"allocs per op null", "{type: Signature, lib: blst, op: verify}\n    max_allocs_per_op: 0",
			func(_, o map[string]any) { o["allocs_per_op"] = nil }, Error, "no allocs_per_op"},
		{"allocs per op 0", "{type: Signature, lib: blst, op: verify}\n    max_allocs_per_op: 0",
			func(_, o map[string]any) { o["allocs_per_op"] = 0 }, Pass, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := editedFixture(t, tt.edit)
			f, err := Parse("b.yaml", []byte("version: 1\nbudgets:\n  - select: "+tt.budget+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			rep := Check(f, rs, CheckOptions{})
			if len(rep.Outcomes) != 1 {
				t.Fatalf("got %d outcomes (problems %v), want 1", len(rep.Outcomes), rep.Problems)
			}
			o := rep.Outcomes[0]
			if o.Status != tt.want || !strings.Contains(o.Detail, tt.detail) {
				t.Errorf("got %s %q, want %s naming %q", o.Status, o.Detail, tt.want, tt.detail)
			}
			if ok := tt.want == Pass; rep.OK() != ok {
				t.Errorf("OK got %v, want %v", rep.OK(), ok)
			}
		})
	}
}

// TestCompareFigureOneSideLacks: where both sides measured a case but one
// file lacks a figure compare judges (a file older than it), the row says
// so: missing from head fails unless missing cases are allowed, new in
// head passes, lacking on both sides gives no row. It is judged by the
// figure list's rule, shown here on the scan bytes.
func TestCompareFigureOneSideLacks(t *testing.T) {
	scan := results.FigureNamed("scan_bytes_per_instance")
	row := func(known bool) *results.Row {
		r := &results.Row{Key: results.Key{Type: "PubkeyCache", Lib: "blst", Repr: "map-pointer", Layout: "collection"},
			Measurement: measure.Measurement{N: 1000, BytesPerInstance: 230, AllocsPerInstance: 1, ScanBytesPerInstance: 134, ScanResolution: 0.5}}
		if !known {
			scan.SetUnknown(r)
		}
		return r
	}
	tests := []struct {
		name              string
		base, head, allow bool
		done, skip, fails bool
		change            Change
		note              string
	}{
		{"both have it", true, true, false, false, false, false, "", ""},
		{"head lacks it", true, false, false, true, false, true, Missing, "head lacks scan_bytes_per_instance"},
		{"head lacks it, allowed", true, false, true, true, false, false, Missing, "head lacks scan_bytes_per_instance"},
		{"base lacks it", false, true, false, true, false, false, New, "base lacks scan_bytes_per_instance"},
		{"neither has it", false, false, false, true, true, false, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r Row
			done, skip := judgeKnown(&r, scan, row(tt.base), row(tt.head), tt.allow)
			if done != tt.done || skip != tt.skip || r.Fails != tt.fails || r.Change != tt.change || r.Note != tt.note {
				t.Errorf("got done %v, skip %v, %+v; want done %v, skip %v, change %q, fails %v, note %q", done, skip, r, tt.done, tt.skip, tt.change, tt.fails, tt.note)
			}
		})
	}
}
