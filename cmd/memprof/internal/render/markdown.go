package render

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/memprof/memprof/model"
)

// Markdown writes rs as GitHub-flavoured Markdown tables: the instances
// (failed and unavailable cases included, with the reason), the throughput
// rows when there are any, and the allocation sites. It is the
// --format markdown output of the instances and throughput commands.
func Markdown(w io.Writer, rs *model.Results) error {
	mw := &mdWriter{w: w}
	if len(rs.Instances) > 0 || len(unavailableInstances(rs)) > 0 {
		mw.line("### Bytes per instance")
		mw.line("")
		InstancesMarkdownTable(mw, rs)
	}
	if len(rs.Throughput) > 0 || len(unavailableOps(rs)) > 0 {
		mw.sep()
		mw.line("### Throughput")
		mw.line("")
		ThroughputMarkdownTable(mw, rs, "")
	}
	if hasSites(rs) {
		mw.sep()
		mw.line("### Allocation sites")
		mw.line("")
		SitesMarkdownTable(mw, rs)
	}
	return mw.err
}

// InstancesMarkdownTable writes one Markdown row per case of rs: the
// columns of the terminal table.
func InstancesMarkdownTable(mw *MarkdownWriter, rs *model.Results) {
	t := MarkdownTable{
		Header: []string{"type", "lib", "repr", "layout", "B/instance", "allocs/instance", "sizeof B", "slot B", "off-heap B", "HeapAlloc B", "holder B", "C heap B", "RSS B", "unaccounted B", "note"},
		Right:  []bool{false, false, false, false, true, true, true, true, true, true, true, true, true, true, false},
	}
	for _, r := range sortedRows(rs) {
		t.Rows = append(t.Rows, r.cells)
	}
	mw.Table(t)
}

// sortedRows returns the instances and the unavailable combinations of rs
// as table rows, in memprof's order.
func sortedRows(rs *model.Results) []row {
	var rows []row
	for _, r := range rs.Instances {
		k := r.Key
		if r.Error != "" {
			rows = append(rows, row{k, []string{string(r.Type), string(r.Lib), string(r.Repr), string(r.Layout), "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "error: " + firstLine(r.Error)}})
			continue
		}
		rows = append(rows, row{k, []string{
			string(r.Type), string(r.Lib), string(r.Repr), string(r.Layout),
			Num(r.BytesPerInstance), Num(r.AllocsPerInstance),
			strconv.FormatInt(r.SizeofBytes, 10), Num(r.SlotBytes + r.ArraySlotBytesPerInstance),
			Offheap(r), Num(r.HeapAllocBytesPerInstance),
			Num(r.HolderBytesPerInstance), cHeap(r), RSS(r), Unaccounted(r), "n=" + strconv.Itoa(r.N),
		}})
	}
	for _, u := range unavailableInstances(rs) {
		k := u.Key
		rows = append(rows, row{k, []string{string(u.Type), string(u.Lib), string(u.Repr), string(u.Layout), "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "n/a: " + u.Reason}})
	}
	slices.SortStableFunc(rows, func(a, b row) int { return model.Compare(a.key, b.key) })
	return rows
}

// ThroughputMarkdownTable writes the throughput rows of rs (only those of
// type typ when typ is not empty) with the operations a library does not
// offer, as one Markdown table.
func ThroughputMarkdownTable(mw *MarkdownWriter, rs *model.Results, typ model.Type) {
	t := MarkdownTable{
		Header: []string{"type", "lib", "repr", "op", "batch", "samples", "time/op (median)", "Q1–Q3", "CPU time/op", "ops/s", "B/op", "allocs/op", "note"},
		Right:  []bool{false, false, false, false, true, true, true, true, true, true, true, true, false},
	}
	for _, r := range SortedThroughput(rs.Throughput) {
		if typ != "" && r.Type != typ {
			continue
		}
		if r.Error != "" {
			t.Rows = append(t.Rows, []string{string(r.Type), string(r.Lib), string(r.Repr), string(r.Op), batch(r.Batch), "-", "-", "-", "-", "-", "-", "-", "error: " + firstLine(r.Error)})
			continue
		}
		t.Rows = append(t.Rows, []string{
			string(r.Type), string(r.Lib), string(r.Repr), string(r.Op), batch(r.Batch), strconv.Itoa(r.Samples),
			Duration(r.NsPerOpMedian), Duration(r.NsPerOpQ1) + " – " + Duration(r.NsPerOpQ3),
			Duration(r.CPUNsPerOpMedian), opsPerSecond(r), Num(r.BytesPerOp), Num(r.AllocsPerOp), r.Note,
		})
	}
	for _, u := range unavailableOps(rs) {
		if typ != "" && u.Type != typ {
			continue
		}
		t.Rows = append(t.Rows, []string{string(u.Type), string(u.Lib), string(u.Repr), string(u.Op), "-", "-", "-", "-", "-", "-", "-", "-", "n/a: " + u.Reason})
	}
	mw.Table(t)
}

// SitesMarkdownTable writes the allocation sites of every measured case.
func SitesMarkdownTable(mw *MarkdownWriter, rs *model.Results) {
	t := MarkdownTable{
		Header: []string{"case", "allocation site", "B/instance", "allocs/instance", "slot sizes"},
		Right:  []bool{false, false, true, true, true},
	}
	for _, r := range rs.Instances {
		for _, s := range r.Sites {
			var slots []string
			for _, b := range s.SlotSizes {
				slots = append(slots, strconv.FormatInt(b, 10))
			}
			site := ShortFunction(s.Function)
			if s.Line > 0 {
				site += ":" + strconv.FormatInt(s.Line, 10)
			}
			t.Rows = append(t.Rows, []string{caseName(r), "`" + site + "`", Num(s.BytesPerInstance), Num(s.AllocsPerInstance), strings.Join(slots, " ")})
		}
	}
	mw.Table(t)
}

func hasSites(rs *model.Results) bool {
	for _, r := range rs.Instances {
		if len(r.Sites) > 0 {
			return true
		}
	}
	return false
}

// unavailableInstances returns the unavailable combinations that are not
// operations.
func unavailableInstances(rs *model.Results) []model.Unavailable {
	var out []model.Unavailable
	for _, u := range rs.Unavailable {
		if u.Op == "" {
			out = append(out, u)
		}
	}
	slices.SortStableFunc(out, func(a, b model.Unavailable) int { return model.Compare(a.Key, b.Key) })
	return out
}

// unavailableOps returns the operations a library does not offer.
func unavailableOps(rs *model.Results) []model.Unavailable {
	var out []model.Unavailable
	for _, u := range rs.Unavailable {
		if u.Op != "" {
			out = append(out, u)
		}
	}
	slices.SortStableFunc(out, func(a, b model.Unavailable) int { return model.Compare(a.Key, b.Key) })
	return out
}

// SortedThroughput returns a copy of rows in the one ordering of keys
// (model.Compare: type, operation, library, representation, batch).
func SortedThroughput(rows []model.ThroughputRow) []model.ThroughputRow {
	out := slices.Clone(rows)
	slices.SortStableFunc(out, func(a, b model.ThroughputRow) int { return model.Compare(a.Key, b.Key) })
	return out
}

func batch(b int) string {
	if b <= 0 {
		return "-"
	}
	return strconv.Itoa(b)
}

func opsPerSecond(r model.ThroughputRow) string {
	v := r.OpsPerSecond
	if v == 0 && r.NsPerOpMedian > 0 {
		v = 1e9 / r.NsPerOpMedian
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

// Duration formats a time in nanoseconds with three significant digits
// and the unit that suits it (ns, µs, ms, s).
func Duration(ns float64) string {
	unit, div := DurationUnit(ns)
	return sig3(ns/div) + " " + unit
}

// DurationUnit returns the unit Duration uses for ns and its size in ns.
func DurationUnit(ns float64) (string, float64) {
	switch {
	case ns >= 1e9:
		return "s", 1e9
	case ns >= 1e6:
		return "ms", 1e6
	case ns >= 1e3:
		return "µs", 1e3
	}
	return "ns", 1
}

// sig3 formats v with three significant digits, without exponent.
func sig3(v float64) string {
	switch a := abs(v); {
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// MarkdownTable is a Markdown table: a header, rows of cells, and which
// columns align right (numbers).
type MarkdownTable struct {
	Header []string
	Right  []bool
	Rows   [][]string
}

// MarkdownWriter writes Markdown to w and remembers the first error, so a
// document is written without an error check per line.
type MarkdownWriter struct {
	w       io.Writer
	err     error
	started bool
}

type mdWriter = MarkdownWriter

// NewMarkdownWriter returns a MarkdownWriter that writes to w.
func NewMarkdownWriter(w io.Writer) *MarkdownWriter { return &MarkdownWriter{w: w} }

// Err returns the first write error.
func (mw *MarkdownWriter) Err() error { return mw.err }

// Printf writes formatted text.
func (mw *MarkdownWriter) Printf(format string, a ...any) {
	if mw.err != nil {
		return
	}
	mw.started = true
	_, mw.err = fmt.Fprintf(mw.w, format, a...)
}

func (mw *MarkdownWriter) line(s string) { mw.Printf("%s\n", s) }

// Line writes s and a newline.
func (mw *MarkdownWriter) Line(s string) { mw.line(s) }

// sep writes a blank line unless nothing was written yet.
func (mw *MarkdownWriter) sep() {
	if mw.started {
		mw.line("")
	}
}

// Table writes t with its columns padded, so the source reads as a table
// too. Pipes inside cells are escaped. A table without rows is written as
// its header and a "(none)" line.
func (mw *MarkdownWriter) Table(t MarkdownTable) {
	width := make([]int, len(t.Header))
	cell := func(s string) string {
		return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
	}
	rows := make([][]string, 0, len(t.Rows)+1)
	rows = append(rows, t.Header)
	rows = append(rows, t.Rows...)
	for i, r := range rows {
		esc := make([]string, len(t.Header))
		for j := range t.Header {
			if j < len(r) {
				esc[j] = cell(r[j])
			}
			width[j] = max(width[j], utf8.RuneCountInString(esc[j]), 3)
		}
		rows[i] = esc
	}
	right := func(j int) bool { return j < len(t.Right) && t.Right[j] }
	pad := func(s string, j int) string {
		n := width[j] - utf8.RuneCountInString(s)
		if right(j) {
			return strings.Repeat(" ", n) + s
		}
		return s + strings.Repeat(" ", n)
	}
	for i, r := range rows {
		var b strings.Builder
		b.WriteString("|")
		for j, c := range r {
			b.WriteString(" " + pad(c, j) + " |")
		}
		mw.line(b.String())
		if i == 0 {
			b.Reset()
			b.WriteString("|")
			for j := range t.Header {
				if right(j) {
					b.WriteString(" " + strings.Repeat("-", width[j]-1) + ": |")
				} else {
					b.WriteString(" " + strings.Repeat("-", width[j]) + " |")
				}
			}
			mw.line(b.String())
		}
	}
	if len(t.Rows) == 0 {
		mw.line("")
		mw.line("(none)")
	}
}
