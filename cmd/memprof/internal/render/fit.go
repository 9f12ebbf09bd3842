package render

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/olekukonko/tablewriter/pkg/twwidth"

	"github.com/memprof/memprof/model"
)

// TableOptions say which columns a terminal table shows and how wide it
// may be.
type TableOptions struct {
	// Width is the terminal's width in columns: the table wraps its text
	// columns (the note, an allocation site) to fit it and, where even
	// that is too wide, leaves out figure columns from the right, saying
	// which. 0 means no limit.
	Width int
	// Wide shows every column the terminal table can show
	// (model.InTable) instead of the default ones (model.InDefaultTable).
	Wide bool
	// Columns, when set, are the columns shown (before the table's note),
	// in this order; see ChooseColumns. It overrides Wide.
	Columns []model.Column
}

// DefaultWidth is the width a table is fitted to when the terminal's is
// unknown (standard output is not a terminal and $COLUMNS is not set).
const DefaultWidth = 120

// minWrap is the narrowest a wrapped note is made, and minText the
// narrowest another text column is.
const (
	minWrap = 16
	minText = 10
)

// wrapColumn wraps column j of t, header and cells, at width.
func wrapColumn(t MarkdownTable, j, width int) {
	for _, r := range t.Rows {
		if j < len(r) {
			r[j] = wrapText(r[j], width)
		}
	}
	t.Header[j] = wrapText(t.Header[j], width)
}

// formats returns the formats a table of opts reads its columns for.
func (o TableOptions) formats() model.Formats {
	if o.Wide {
		return model.InTable
	}
	return model.InDefaultTable
}

// columns returns the columns of a table of opts from the candidates of
// its kind of rows (for example model.InstanceColumns).
func (o TableOptions) columns(of func(model.Formats) []model.Column) []model.Column {
	if o.Columns != nil {
		return o.Columns
	}
	return of(o.formats())
}

// keyColumns are the columns that name a row's case: never left out.
var keyColumns = []string{"name", "type", "lib", "repr", "layout", "scheme", "op", "batch", "param"}

// droppable returns the indexes among cols of the columns a table fitted
// to a width may leave out: none when the columns were chosen (Wide or
// Columns); else the figures after the first (B/instance, time/op), the
// key columns never.
func (o TableOptions) droppable(cols []model.Column) []int {
	if o.Wide || o.Columns != nil {
		return nil
	}
	var out []int
	first := true
	for i, c := range cols {
		if slices.Contains(keyColumns, c.Name) || !c.Numeric() {
			continue
		}
		if first {
			first = false
			continue
		}
		out = append(out, i)
	}
	return out
}

// optional returns cols, the columns a table of its own (the sites, the
// sweeps: Columns does not choose theirs) may leave out, unless o.Wide:
// then none.
func (o TableOptions) optional(cols ...int) []int {
	if o.Wide {
		return nil
	}
	return cols
}

// ChooseColumns returns the columns names asks for (JSON names or header
// labels, model.LookupColumn), in that order, for a table of rows that
// applies tells apart (the instance or the throughput table). A column
// that does not apply to those rows, holds a list (only JSON has those),
// is the note (every table ends with its own) or is named twice is an
// error that lists the table's columns.
func ChooseColumns(names []string, kind string, applies func(model.Column) bool) ([]model.Column, error) {
	var valid []string
	for _, c := range model.Columns {
		if applies(c) && c.Unit != model.List && c.Name != "note" {
			valid = append(valid, c.Name)
		}
	}
	var out []model.Column
	for _, n := range names {
		n = strings.TrimSpace(n)
		c, err := model.LookupColumn(n)
		switch {
		case err != nil:
			// Offer the table's own columns, not every column there is.
			return nil, fmt.Errorf("--columns: unknown column %q: choose from the %s table's %s", n, kind, strings.Join(valid, ", "))
		case c.Name == "note":
			return nil, fmt.Errorf("--columns: the %s table always ends with its note: leave note out", kind)
		case !applies(c) || c.Unit == model.List:
			return nil, fmt.Errorf("--columns: column %q is not one of the %s table's: choose from %s", n, kind, strings.Join(valid, ", "))
		case slices.ContainsFunc(out, func(o model.Column) bool { return o.Name == c.Name }):
			return nil, fmt.Errorf("--columns: column %q is named twice", n)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--columns names no column: choose from %s", strings.Join(valid, ", "))
	}
	return out, nil
}

// fitted is a table fitted to a width: the table (cells of wrapped
// columns hold line breaks) and the headers of the columns left out.
type fitted struct {
	t       MarkdownTable
	omitted []string
}

// fit fits t into width columns of terminal: the columns of wrap wrap
// (at spaces, long words at '/', '.' and '-'), down to minWrap each; if
// the table is still too wide, the columns of drop are left out, last
// first, until it fits. Other columns keep their width. A width of 0
// leaves t as it is.
func fit(t MarkdownTable, width int, wrap, drop []int) fitted {
	if width <= 0 || tableWidth(naturalWidths(t)) <= width {
		return fitted{t: t}
	}
	labels := t.Header // as the line under the table names them
	t = wrapFigureHeaders(t, width, wrap)
	keep := make([]bool, len(t.Header))
	for i := range keep {
		keep[i] = true
	}
	var omitted []string
	project := func() MarkdownTable {
		var p MarkdownTable
		for i, h := range t.Header {
			if keep[i] {
				p.Header = append(p.Header, h)
				if i < len(t.Right) {
					p.Right = append(p.Right, t.Right[i])
				}
			}
		}
		for _, r := range t.Rows {
			var row []string
			for i, c := range r {
				if i < len(keep) && keep[i] {
					row = append(row, c)
				}
			}
			p.Rows = append(p.Rows, row)
		}
		return p
	}
	// The width the columns other than the wrapped ones take, and what
	// is left for the wrapped ones.
	spare := func() int {
		ws := naturalWidths(t)
		used, n := 0, 0
		for i, w := range ws {
			if !keep[i] {
				continue
			}
			n++
			if !slices.Contains(wrap, i) {
				used += w
			}
		}
		return width - used - 3*n - 1
	}
	// The wrapped columns need minWrap each, or less if that is all they
	// hold.
	wrapped, need := 0, 0
	natural := naturalWidths(t)
	for _, i := range wrap {
		if keep[i] {
			wrapped++
			need += min(minWrap, natural[i])
		}
	}
	for d := len(drop) - 1; d >= 0 && spare() < need; d-- {
		keep[drop[d]] = false
		omitted = append([]string{labels[drop[d]]}, omitted...)
	}
	// Share what is left among the wrapped columns, at least minWrap
	// each.
	each := minWrap
	if wrapped > 0 {
		each = max(minWrap, spare()/wrapped)
	}
	// (A wrapped column narrower than minWrap is not wrapped at all.)
	p := project()
	for j := range p.Header {
		if slices.Contains(wrap, kept(keep, j)) {
			wrapColumn(p, j, each)
		}
	}
	// Still too wide: the other text columns (an operation's name) wrap
	// too, the widest first, down to minText.
	for tableWidth(naturalWidths(p)) > width {
		ws := naturalWidths(p)
		widest := -1
		for j, w := range ws {
			if (j >= len(p.Right) || !p.Right[j]) && w > minText && (widest < 0 || w > ws[widest]) {
				widest = j
			}
		}
		if widest < 0 {
			break // as narrow as it gets
		}
		wrapColumn(p, widest, max(minText, ws[widest]-(tableWidth(ws)-width)))
	}
	return fitted{t: p, omitted: omitted}
}

// wrapFigureHeaders wraps the headers of t's figure columns (those
// aligned right) that are wider than their figures ("allocs/instance"
// over "1"), to the figures' width, the one that gains most first, until
// t fits width with its wrapped columns (wrap) at their narrowest, or
// none is left: so that no column is left out for a header. It returns t
// with a header of its own.
func wrapFigureHeaders(t MarkdownTable, width int, wrap []int) MarkdownTable {
	t.Header = slices.Clone(t.Header)
	cells := make([]int, len(t.Header))
	for _, r := range t.Rows {
		for i, c := range r {
			if i < len(cells) {
				for _, line := range strings.Split(c, "\n") {
					cells[i] = max(cells[i], twwidth.Width(line))
				}
			}
		}
	}
	narrowest := func() int {
		ws := naturalWidths(t)
		for _, i := range wrap {
			if i < len(ws) {
				ws[i] = min(ws[i], minWrap)
			}
		}
		return tableWidth(ws)
	}
	for narrowest() > width {
		best, gain := -1, 0
		for i, h := range t.Header {
			if i >= len(t.Right) || !t.Right[i] {
				continue
			}
			wrapped := wrapText(h, max(cells[i], unbreakable(h)))
			if g := naturalWidth(h) - max(naturalWidth(wrapped), cells[i]); g > gain {
				best, gain = i, g
			}
		}
		if best < 0 {
			break
		}
		t.Header[best] = wrapText(t.Header[best], max(cells[best], unbreakable(t.Header[best])))
	}
	return t
}

// unbreakable is the width of the widest piece of label s that wrapText
// keeps whole: its words, broken after a '/' or '-' before a letter.
func unbreakable(s string) int {
	w := 0
	for _, word := range strings.Fields(s) {
		start := 0
		for i, r := range word {
			if next, _ := utf8.DecodeRuneInString(word[i+utf8.RuneLen(r):]); (r == '/' || r == '-') && unicode.IsLetter(next) {
				w = max(w, twwidth.Width(word[start:i+1]))
				start = i + 1
			}
		}
		w = max(w, twwidth.Width(word[start:]))
	}
	return w
}

// naturalWidth is the display width of s's widest line.
func naturalWidth(s string) int {
	w := 0
	for _, line := range strings.Split(s, "\n") {
		w = max(w, twwidth.Width(line))
	}
	return w
}

// kept returns the index in the full table of the j-th column kept.
func kept(keep []bool, j int) int {
	for i, k := range keep {
		if k {
			if j == 0 {
				return i
			}
			j--
		}
	}
	return -1
}

// writeFitted writes a fitted table as a terminal table, then, if columns
// were left out, a line naming them.
func writeFitted(w io.Writer, f fitted, width int) error {
	if err := writeTerminal(w, f.t); err != nil {
		return err
	}
	if len(f.omitted) == 0 {
		return nil
	}
	_, err := fmt.Fprintln(w, Wrap(fmt.Sprintf("Not shown at %d columns: %s (--wide or --columns shows them, as do CSV and JSON).", width, strings.Join(f.omitted, ", ")), width, ""))
	return err
}

// naturalWidths returns the display width of each column of t unwrapped:
// its widest line, header included.
func naturalWidths(t MarkdownTable) []int {
	ws := make([]int, len(t.Header))
	measure := func(i int, s string) {
		for _, line := range strings.Split(s, "\n") {
			ws[i] = max(ws[i], twwidth.Width(line))
		}
	}
	for i, h := range t.Header {
		measure(i, h)
	}
	for _, r := range t.Rows {
		for i, c := range r {
			if i < len(ws) {
				measure(i, c)
			}
		}
	}
	return ws
}

// tableWidth is the width of a box-drawn table of columns of widths ws:
// each column has a space either side and a border on its left, and the
// table a border on its right.
func tableWidth(ws []int) int {
	total := 1
	for _, w := range ws {
		total += w + 3
	}
	return total
}

// wrapText wraps s into lines of at most width display columns, joined by
// "\n": at spaces, and a word longer than a line after a '/', '.', '-' or
// ':' where it can, else anywhere.
func wrapText(s string, width int) string {
	if width <= 0 || twwidth.Width(s) <= width {
		return s
	}
	var lines []string
	var line string
	for _, word := range strings.Fields(s) {
		for twwidth.Width(word) > width {
			// Fill the current line, or start one, with a piece of the word.
			room := width
			if line != "" {
				room = width - twwidth.Width(line) - 1
			}
			head, rest := breakWord(word, room)
			if head == "" && line == "" {
				// Nothing fits and the line is empty: cut the word.
				head, rest = breakWord(word, max(room, minWrap/2))
			}
			if head == "" {
				lines = append(lines, line)
				line = ""
				continue
			}
			if line != "" {
				head = line + " " + head
			}
			lines = append(lines, head)
			line, word = "", rest
		}
		switch {
		case line == "":
			line = word
		case twwidth.Width(line)+1+twwidth.Width(word) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// breakWord splits word into a head of at most room display columns and
// the rest: after the last '/', '.', '-' or ':' that fits, else at room
// itself. A room too small for a useful piece (under a quarter of the
// word's break) gives an empty head when a break character is far.
func breakWord(word string, room int) (head, rest string) {
	if room <= 0 {
		return "", word
	}
	cut, w := 0, 0 // byte offset that fits, and its width
	lastBreak := -1
	for i, r := range word {
		rw := twwidth.Width(string(r))
		if w+rw > room {
			break
		}
		w += rw
		cut = i + utf8.RuneLen(r)
		if next, _ := utf8.DecodeRuneInString(word[cut:]); strings.ContainsRune("/.-:", r) && (unicode.IsLetter(next) || unicode.IsDigit(next)) {
			lastBreak = cut // a break before a name, not inside "[...]"
		}
	}
	if lastBreak > 0 {
		return word[:lastBreak], word[lastBreak:]
	}
	if room < minWrap/2 {
		return "", word // too little room on this line: start the next
	}
	return word[:cut], word[cut:]
}

// WriteFitted writes t as a terminal table fitted to width (0: no limit):
// the columns of wrap wrap to fit, and where that is not enough the
// columns of drop are left out, last first, and named under the table.
func WriteFitted(w io.Writer, t MarkdownTable, width int, wrap, drop []int) error {
	return writeFitted(w, fit(t, width, wrap, drop), width)
}
