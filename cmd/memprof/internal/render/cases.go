package render

import (
	"slices"
	"strconv"
	"strings"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// The terminal tables of results rows (the instances and throughput
// tables) are grids built here from results.Columns: one section per type,
// whose heading holds the key values every row of it shares (type,
// layout, scheme, param, N), a column per figure, each cell one token,
// and footnotes for what does not fit in a token (why a combination is
// not available, an error, what exactly is timed).

// nTooSmall is the footnote of a figure whose resolution is larger than
// the instance it is about (results.Unresolved).
const nTooSmall = "N too small: the figure's resolution is larger than the instance itself; measure at a larger N"

// section is the rows of one type, for one grid.
type section[R any] struct {
	name string // the type, or a user's case's name
	rows []R
}

// sections splits rows by type, in the one ordering (they come sorted).
func sections[R any](rows []R, typeOf func(R) string) []section[R] {
	var out []section[R]
	for _, r := range rows {
		t := typeOf(r)
		if len(out) == 0 || out[len(out)-1].name != t {
			out = append(out, section[R]{name: t})
		}
		out[len(out)-1].rows = append(out[len(out)-1].rows, r)
	}
	return out
}

// caseRow is one row of the instances or throughput table: a measured
// or failed row, or an unavailable combination.
type caseRow struct {
	key   results.Key
	read  func(results.Column) results.Cell
	n     int    // instances: N (0 for a combination not measured)
	error string // the row failed
	na    string // the combination is not available: why
	note  string // the row's note: why a figure is unknown (instances), what is timed (throughput)
}

// gridColumn returns the grid column of a results column.
func gridColumn(c results.Column) gridCol {
	gc := gridCol{label: c.Header(results.InTable), short: c.ShortLabel(), right: c.Numeric(), kind: figureCol}
	switch {
	case isKey(c):
		gc.kind = keyCol
	case !c.Numeric():
		gc.kind = proseCol
		gc.shorten = true
	}
	return gc
}

func isKey(c results.Column) bool { return slices.Contains(keyColumns, c.Name) }

// figureCell is the token a figure cell shows: its figure (spaces
// removed: "812.0ns", "1.2ms–1.5ms"), "~0" within its resolution, and
// "n/a" or "-"; an unresolved figure, and an unknown one of a row with a
// note (why the C heap was not read), refer to a footnote.
func figureCell(g *grid, c results.Column, cell results.Cell, rowNote string) gridCell {
	switch cell.State {
	case results.Unresolved:
		return gridCell{text: "n/a", note: g.note(nTooSmall)}
	case results.Unknown:
		if rowNote != "" {
			return gridCell{text: "n/a", note: g.note(rowNote)}
		}
		return plain("n/a")
	case results.Exact:
		if c.Numeric() {
			return plain(strings.ReplaceAll(c.Format(cell), " ", ""))
		}
	}
	return plain(c.Format(cell))
}

// keyHeading decides which key columns of rows move into the heading:
// those with one value on every row (unless the table has one row), and
// those empty on every row, which are left out. It returns the columns
// kept and the heading's words: the values ("Signature", "min-pk",
// "population=1000000").
func keyHeading(keys []results.Column, rows []caseRow) (kept []results.Column, heading []string) {
	for _, c := range keys {
		var values []string
		for _, r := range rows {
			v := c.Format(r.read(c))
			if v == "-" {
				v = ""
			}
			if !slices.Contains(values, v) {
				values = append(values, v)
			}
		}
		switch {
		case len(values) == 1 && values[0] == "" && c.Name != "type":
			// Empty on every row (a type without a scheme).
		case len(values) == 1 && len(rows) > 1:
			if values[0] != "" {
				heading = append(heading, values[0])
			}
		default:
			kept = append(kept, c)
		}
	}
	return kept, heading
}

// nHeading says the N of rows when one N, or one per layout, tells every
// measured row's: "N=100000" or "N=100000 (collection N=10000)"; ok is
// false when an N column is needed instead.
func nHeading(rows []caseRow) (string, bool) {
	byLayout := map[measure.Layout]int{}
	counts := map[int]int{}
	var layouts []measure.Layout
	for _, r := range rows {
		if r.n == 0 {
			continue
		}
		if n, seen := byLayout[r.key.Layout]; seen && n != r.n {
			return "", false
		}
		if _, seen := byLayout[r.key.Layout]; !seen {
			layouts = append(layouts, r.key.Layout)
		}
		byLayout[r.key.Layout] = r.n
		counts[r.n]++
	}
	if len(counts) == 0 {
		return "", true
	}
	common := 0
	for n, c := range counts {
		if c > counts[common] || c == counts[common] && n > common {
			common = n
		}
	}
	s := "N=" + strconv.Itoa(common)
	var others []string
	for _, l := range layouts {
		if n := byLayout[l]; n != common {
			others = append(others, string(l)+" N="+strconv.Itoa(n))
		}
	}
	if len(others) > 0 {
		s += " (" + strings.Join(others, ", ") + ")"
	}
	return s, true
}

// keyAndFigureColumns splits cols into the row's key and its figures.
func keyAndFigureColumns(cols []results.Column) (keys, figures []results.Column) {
	for _, c := range cols {
		if isKey(c) {
			keys = append(keys, c)
		} else {
			figures = append(figures, c)
		}
	}
	return keys, figures
}

// lookupColumns returns the results' columns of these names (the key
// dimensions that only files show, the N).
func lookupColumns(names ...string) []results.Column {
	var out []results.Column
	for _, n := range names {
		if c, err := results.LookupColumn(n); err == nil {
			out = append(out, c)
		}
	}
	return out
}

// caseGrid builds the grid of one section of rows: its key columns (with
// those that have one value in the heading), N (for instances), the
// figures, and a row per case; a combination not available shows
// "n/a[k]" in its first figure, a failed row "error[k]", the footnote
// saying why. chosen keeps the columns as given (--columns): no key
// moves into the heading. noteColumn adds a column of references to the
// footnotes of the rows' notes.
func caseGrid(cols []results.Column, chosen bool, rows []caseRow, withN bool, noteColumn bool) *grid {
	g := &grid{}
	keys, figures := keyAndFigureColumns(cols)
	if chosen {
		keys, figures = nil, cols
	} else {
		var words []string
		keys, words = keyHeading(append(keys, lookupColumns("scheme", "param")...), rows)
		heading := strings.Join(words, " ")
		if withN {
			if s, ok := nHeading(rows); ok {
				if s != "" && heading != "" {
					heading += ", " + s
				} else {
					heading += s
				}
				withN = false
			}
		}
		if heading != "" {
			g.heading = []string{heading}
		}
	}
	for _, c := range keys {
		g.cols = append(g.cols, gridColumn(c))
	}
	if withN {
		g.cols = append(g.cols, gridCol{label: "N", right: true, kind: figureCol, keep: true})
	}
	first := len(g.cols)
	for i, c := range figures {
		gc := gridColumn(c)
		if i == 0 {
			gc.keep = true
		}
		g.cols = append(g.cols, gc)
	}
	if noteColumn {
		g.cols = append(g.cols, gridCol{label: "note", kind: proseCol})
	}
	ranges := make([]bool, len(figures))
	for _, r := range rows {
		var cells []gridCell
		for _, c := range keys {
			cells = append(cells, keyCell(c, r))
		}
		if withN {
			n := "-"
			if r.n > 0 {
				n = strconv.Itoa(r.n)
			}
			cells = append(cells, plain(n))
		}
		for i, c := range figures {
			if cell := r.read(c); c.Numeric() && cell.State == results.Exact && cell.Text != "" {
				ranges[i] = true // a figure written as a range
			}
			note := ""
			if c.Show&results.InDefaultTableWhereKept != 0 {
				note = r.note // why the figure (the C heap) was not read
			}
			cells = append(cells, figureCell(g, c, r.read(c), note))
		}
		switch {
		case r.na != "":
			markFirst(cells, first, "n/a", g.note(r.na))
		case r.error != "":
			markFirst(cells, first, "error", g.note("error: "+firstLine(r.error)))
		}
		if noteColumn {
			c := plain("-")
			if r.note != "" && r.na == "" && r.error == "" {
				c = gridCell{text: "", note: g.note(r.note)}
			}
			cells = append(cells, c)
		}
		g.add(cells...)
	}
	for i, r := range ranges {
		if r && !g.cols[first+i].keep {
			g.cols[first+i].kind = rangeCol
		}
	}
	return g
}

// markFirst sets the first figure cell (index first, or the last cell
// when there is no figure) to text with the footnote note.
func markFirst(cells []gridCell, first int, text string, note int) {
	if len(cells) == 0 {
		return
	}
	i := min(first, len(cells)-1)
	cells[i] = gridCell{text: text, note: note}
}

// instanceRows returns the rows of the instances table: every case of
// rs and every unavailable combination but those that do not apply to
// their type, in the one ordering, and how many of those were left out
// per type.
func instanceRows(rs *results.File) (rows []caseRow, omitted map[string]int) {
	omitted = map[string]int{}
	noteCol, _ := results.LookupColumn("note")
	for i := range rs.Instances {
		r := normalized(rs.Instances[i])
		rows = append(rows, caseRow{key: r.Key, read: func(c results.Column) results.Cell { return c.ReadInstance(r) },
			n: r.N, error: r.Error, note: noteCol.ReadInstance(r).Text})
	}
	for _, u := range unavailableInstances(rs) {
		u.Key = u.Key.Normalize()
		if u.Kind == vocab.DoesNotApply {
			omitted[typeName(u.Key)]++
			continue
		}
		rows = append(rows, caseRow{key: u.Key, read: func(c results.Column) results.Cell { return c.ReadUnavailable(&u) }, na: u.Reason})
	}
	slices.SortStableFunc(rows, func(a, b caseRow) int { return results.Compare(a.key, b.key) })
	return rows, omitted
}

// normalized returns a copy of r whose key names its scheme (a file
// written before operations carried one does not), so that its rows and
// the unavailable combinations beside them agree.
func normalized[R any](r R) *R {
	switch v := any(&r).(type) {
	case *results.Row:
		v.Key = v.Key.Normalize()
	case *results.ThroughputRow:
		v.Key = v.Key.Normalize()
	}
	return &r
}

// typeName names a row's section: its type, or a user's case's name.
func typeName(k results.Key) string {
	if k.Type == "" {
		return k.Name
	}
	return string(k.Type)
}

// kept reports whether a row of rs holds a value other than 0 in column
// c: then the default table shows it (InDefaultTableWhereKept: a c-kzg
// context's C heap).
func kept(rs *results.File, c results.Column) bool {
	return slices.ContainsFunc(rs.Instances, func(r results.Row) bool {
		cell := c.ReadInstance(&r)
		return cell.State == results.Exact && cell.Value != 0
	})
}

// whereKept reports whether the default table shows c where a row keeps
// some of it.
func whereKept(c results.Column) bool { return c.Show&results.InDefaultTableWhereKept != 0 }

// instanceColumns returns the columns of the instances table of o: the
// chosen ones, or the default (or, with Wide, every) column, with those
// shown where kept (the C heap) where a row of rs keeps some.
func instanceColumns(rs *results.File, o TableOptions) []results.Column {
	cols := o.columns(results.InstanceColumns)
	if o.Columns != nil {
		return cols
	}
	// In the one order of results.Columns.
	var out []results.Column
	for _, c := range results.Columns {
		if slices.ContainsFunc(cols, func(k results.Column) bool { return k.Name == c.Name }) ||
			c.Instance != nil && whereKept(c) && kept(rs, c) {
			out = append(out, c)
		}
	}
	return out
}

// keepWhereKept marks the columns of g shown where kept (the C heap)
// kept: a default table never leaves out memory a row keeps.
func keepWhereKept(g *grid) {
	for _, c := range results.InstanceColumns(results.InDefaultTableWhereKept) {
		for i := range g.cols {
			if g.cols[i].label == c.Header(results.InTable) {
				g.cols[i].keep = true
			}
		}
	}
}

// notApply says how many combinations that do not apply to their type a
// table left out ('memprof list' shows them).
func notApply(n int) string {
	if n == 1 {
		return "not shown: 1 that does not apply"
	}
	return "not shown: " + strconv.Itoa(n) + " that do not apply"
}

// keyCell is the cell of key column c of row r: its value, or "-" where
// the row has none (a case without a parameter beside one with), so that
// every cell is a token.
func keyCell(c results.Column, r caseRow) gridCell {
	if v := c.Format(r.read(c)); v != "" {
		return plain(v)
	}
	return plain("-")
}
