package render

import (
	"slices"
	"strconv"
	"strings"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// The instances and throughput tables, terminal and Markdown alike, are
// built here from results.Columns: the columns that show in the format, in
// their one order, then a note of the table's own (the case's N, an error,
// why a combination was not measured).

// row is one line of a table: its key (for the one ordering) and cells.
type row struct {
	key   results.Key
	cells []string
}

// newTable returns an empty table with the header of cols in format f
// and the note column.
func newTable(cols []results.Column, f results.Formats) MarkdownTable {
	var t MarkdownTable
	for _, c := range cols {
		t.Header = append(t.Header, c.Header(f))
		t.Right = append(t.Right, c.Numeric())
	}
	t.Header = append(t.Header, "note")
	t.Right = append(t.Right, false)
	return t
}

// cells reads every column of one row with read and appends note.
func cells(cols []results.Column, read func(results.Column) results.Cell, note string) []string {
	out := make([]string, 0, len(cols)+1)
	for _, c := range cols {
		out = append(out, c.Format(read(c)))
	}
	return append(out, note)
}

// instanceTable returns the instances table of rs of columns cols, headed
// as in format f: a row per
// case (a failed one with its error) and per unavailable combination (with
// the reason), in the one ordering. With omitDoesNotApply it leaves out
// the combinations that do not apply to their type, and says how many.
func instanceTable(rs *results.File, cols []results.Column, f results.Formats, omitDoesNotApply bool) (t MarkdownTable, omitted int) {
	t = newTable(cols, f)
	var rows []row
	for i := range rs.Instances {
		r := &rs.Instances[i]
		note := "n=" + strconv.Itoa(r.N)
		if r.Error != "" {
			note = "error: " + firstLine(r.Error)
		}
		rows = append(rows, row{r.Key, cells(cols, func(c results.Column) results.Cell { return c.ReadInstance(r) }, withParam(r.Param, note))})
	}
	for _, u := range unavailableInstances(rs) {
		if omitDoesNotApply && u.Kind == vocab.DoesNotApply {
			omitted++
			continue
		}
		rows = append(rows, row{u.Key, cells(cols, func(c results.Column) results.Cell { return c.ReadUnavailable(&u) }, withParam(u.Param, "n/a: "+u.Reason))})
	}
	slices.SortStableFunc(rows, func(a, b row) int { return results.Compare(a.key, b.key) })
	for _, r := range rows {
		t.Rows = append(t.Rows, r.cells)
	}
	return t, omitted
}

// throughputTable returns the throughput table of rs of columns cols,
// headed as in format f (only
// the rows of type typ when typ is not empty): a row per timed operation,
// in the one ordering, with note(r) as its note (an error instead when it
// failed), then the operations a library does not offer, with naNote(u)
// as theirs.
func throughputTable(rs *results.File, cols []results.Column, f results.Formats, typ vocab.Type, note func(*results.ThroughputRow) string, naNote func(*results.Unavailable) string) MarkdownTable {
	t := newTable(cols, f)
	for _, r := range SortedThroughput(rs.Throughput) {
		if typ != "" && r.Type != typ {
			continue
		}
		n := "error: " + firstLine(r.Error)
		if r.Error == "" {
			n = note(&r)
		}
		t.Rows = append(t.Rows, cells(cols, func(c results.Column) results.Cell { return c.ReadThroughput(&r) }, withParam(r.Param, n)))
	}
	for _, u := range unavailableOps(rs) {
		if typ != "" && u.Type != typ {
			continue
		}
		t.Rows = append(t.Rows, cells(cols, func(c results.Column) results.Cell { return c.ReadUnavailable(&u) }, withParam(u.Param, naNote(&u))))
	}
	return t
}

// omitEmpty returns cols without the columns that may be left out when
// empty (results.Column.OmitEmpty) and hold nothing in any throughput row
// of rs (of typ, when not empty): no words, no figure. The tables of the
// default columns call it; columns a reader chose are all shown.
func omitEmpty(cols []results.Column, rs *results.File, typ vocab.Type) []results.Column {
	return slices.DeleteFunc(slices.Clone(cols), func(c results.Column) bool { return c.OmitEmpty && emptyColumn(c, rs, typ) })
}

// emptyColumn reports whether c holds nothing in any throughput row of
// rs (of typ, when not empty): no words, no figure.
func emptyColumn(c results.Column, rs *results.File, typ vocab.Type) bool {
	for i := range rs.Throughput {
		r := &rs.Throughput[i]
		if typ != "" && r.Type != typ {
			continue
		}
		if cell := c.ReadThroughput(r); cell.State != results.NotApplicable && (cell.Text != "" || c.Numeric() && cell.Value != 0) {
			return false
		}
	}
	return true
}

// unavailableNote is the note of a combination not measured: n/a and why.
func unavailableNote(u *results.Unavailable) string { return "n/a: " + u.Reason }

// withParam starts a row's note with its key's parameter, which tells
// apart the rows of one case at several settings (c-kzg at precompute=6,
// a PeerDAS node of blobs=768): the tables have no column for it.
func withParam(p results.Param, note string) string {
	if p == "" {
		return note
	}
	return string(p) + "; " + note
}

// sitesTable returns the allocation sites of every measured case; in
// Markdown the site is code.
func sitesTable(rs *results.File, markdown bool) MarkdownTable {
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
			if markdown {
				site = "`" + site + "`"
			}
			t.Rows = append(t.Rows, []string{r.Key.String(), site, Num(s.BytesPerInstance), Num(s.AllocsPerInstance), strings.Join(slots, " ")})
		}
	}
	return t
}

// unavailableInstances returns the unavailable combinations that are not
// operations, in the one ordering.
func unavailableInstances(rs *results.File) []results.Unavailable {
	return unavailable(rs, false)
}

// unavailableOps returns the operations a library does not offer, in the
// one ordering.
func unavailableOps(rs *results.File) []results.Unavailable {
	return unavailable(rs, true)
}

func unavailable(rs *results.File, ops bool) []results.Unavailable {
	var out []results.Unavailable
	for _, u := range rs.Unavailable {
		if (u.Op != "") == ops {
			out = append(out, u)
		}
	}
	slices.SortStableFunc(out, func(a, b results.Unavailable) int { return results.Compare(a.Key, b.Key) })
	return out
}

// SortedThroughput returns a copy of rows in the one ordering of keys
// (results.Compare: type, operation, library, representation, batch).
func SortedThroughput(rows []results.ThroughputRow) []results.ThroughputRow {
	out := slices.Clone(rows)
	slices.SortStableFunc(out, func(a, b results.ThroughputRow) int { return results.Compare(a.Key, b.Key) })
	return out
}

// SortInstances orders results in the one ordering of keys
// (results.Compare).
func SortInstances(rs []results.Row) {
	slices.SortStableFunc(rs, func(a, b results.Row) int { return results.Compare(a.Key, b.Key) })
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	return s
}
