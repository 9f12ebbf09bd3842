package render

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// The terminal tables, in the style of benchstat and go tool pprof -top:
// aligned plain columns, each cell one token (units in the header), so
// that grep, awk and diff work on them. A grid is such a table before it
// is fitted to the terminal: its heading (the key values every row
// shares), its columns, its rows and the footnotes its cells refer to.
// Fitting never splits a token: it uses the columns' short headers, then
// leaves columns out (prose first, figures last, the row's key never),
// then shortens what words remain visibly, with "…".

// Style is how a terminal table is drawn.
type Style string

// The styles of the terminal tables.
const (
	// Plain is aligned columns without lines (the default).
	Plain Style = "plain"
	// Box draws the table in boxes (tablewriter's look).
	Box Style = "box"
)

// Styles are the styles, the default first.
var Styles = []Style{Plain, Box}

// colKind says what a column holds, which decides in what order a table
// fitted to a width leaves columns out.
type colKind uint8

const (
	keyCol    colKind = iota // names the row: never left out
	figureCol                // one figure per cell
	rangeCol                 // a figure written as a range (quartiles), or a secondary one: left out before words are shortened
	proseCol                 // words (a site, a note): left out first
)

// gridCol is one column of a grid.
type gridCol struct {
	label string
	// short is the header used where the width is tight ("B/inst" for
	// "B/instance"); a legend under the table gives the long one.
	short string
	right bool // figures align right
	kind  colKind
	// keep: never left out (the first figure; a C heap that is not
	// zero).
	keep bool
	// shorten lets a cell too wide for the width be shortened with "…":
	// from the left (keeping the end, a function's name and line) when
	// fromLeft.
	shorten  bool
	fromLeft bool
	middle   bool // shortened in the middle, keeping both ends (a case's name)
}

// gridCell is one cell: its text and the footnote it refers to (0 for
// none, else 1 + the index in grid.notes), written after it as "[k]".
type gridCell struct {
	text string
	note int
}

// grid is a terminal table before it is fitted.
type grid struct {
	heading []string // lines above the header
	cols    []gridCol
	rows    [][]gridCell
	notes   []string // the footnotes' texts
	after   []string // lines after the footnotes
	// aside ends the heading where it fits the width, else it is a line
	// after the footnotes.
	aside string
	// more says what shows the columns a narrow table leaves out ("" for
	// a table of results: --wide, CSV and JSON).
	more string
}

// note returns the reference to the footnote text, adding it unless the
// grid has it already: rows that share a reason share its footnote.
func (g *grid) note(text string) int {
	if i := slices.Index(g.notes, text); i >= 0 {
		return i + 1
	}
	g.notes = append(g.notes, text)
	return len(g.notes)
}

// add appends a row.
func (g *grid) add(cells ...gridCell) { g.rows = append(g.rows, cells) }

// plain is a cell without a footnote.
func plain(s string) gridCell { return gridCell{text: s} }

// layout is a grid fitted to a width: the columns kept, whether the short
// headers are used, the widths of shortened columns, and the footnotes'
// numbers as the kept cells refer to them.
type layout struct {
	g        *grid
	keep     []bool
	short    bool
	limit    []int // the most a column may take (0: no limit)
	numbers  map[int]int
	width    int
	style    Style
	omitted  []string
	overflow bool
}

// fitGrid fits g to width columns (0: no limit): the short headers,
// then, unless all, the prose columns (unless shortening what may be
// shortened is enough) and the ranges left out, then the columns that
// may be shortened cut down, then, unless all, the figures left out from the
// right; keys and kept columns never. all keeps every column (--wide,
// --columns).
func fitGrid(g *grid, width int, all bool, style Style) *layout {
	l := &layout{g: g, keep: make([]bool, len(g.cols)), limit: make([]int, len(g.cols)), width: width, style: style}
	for i := range l.keep {
		l.keep[i] = true
	}
	l.number()
	if width <= 0 || l.total() <= width {
		return l
	}
	if slices.ContainsFunc(g.cols, func(c gridCol) bool { return c.short != "" }) {
		l.short = true
		if l.total() <= width {
			return l
		}
	}
	drop := func(i int) {
		l.keep[i] = false
		l.omitted = append([]string{g.cols[i].label}, l.omitted...)
		l.number()
	}
	if !all {
		for i := len(g.cols) - 1; i >= 0; i-- {
			if c := g.cols[i]; c.kind == proseCol && !c.keep && !l.shortenFits() {
				drop(i)
			}
		}
	}
	for i := len(g.cols) - 1; !all && i >= 0 && l.total() > width; i-- {
		if c := g.cols[i]; c.kind == rangeCol && !c.keep && l.keep[i] {
			drop(i)
		}
	}
	l.shortenAll()
	for i := len(g.cols) - 1; !all && i >= 0 && l.total() > width; i-- {
		if c := g.cols[i]; c.kind == figureCol && !c.keep && l.keep[i] {
			drop(i)
			l.shortenAll()
		}
	}
	l.overflow = l.total() > width
	return l
}

// shortenAll shortens the columns that may be shortened, the widest
// first, down to minShort (or their header's width), until the table
// fits (the limits set before are undone first: a column left out gives
// the others room).
func (l *layout) shortenAll() {
	for i := range l.limit {
		l.limit[i] = 0
	}
	done := make([]bool, len(l.g.cols))
	for l.total() > l.width {
		widest, ws := -1, l.widths()
		for i, c := range l.g.cols {
			if l.keep[i] && c.shorten && !done[i] && (widest < 0 || ws[i] > ws[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			return
		}
		floor := max(minShort, displayWidth(l.header(widest)))
		lim := max(floor, ws[widest]-(l.total()-l.width))
		if lim >= ws[widest] {
			done[widest] = true
			continue
		}
		l.limit[widest] = lim
	}
}

// shortenFits reports whether shortening the columns that may be
// shortened, down to minShort, lets the table fit.
func (l *layout) shortenFits() bool {
	ws := l.widths()
	total := l.total()
	for i, c := range l.g.cols {
		if l.keep[i] && c.shorten {
			total -= ws[i] - min(ws[i], minShort)
		}
	}
	return total <= l.width
}

// minShort is the narrowest a shortened column is made.
const minShort = 12

// number numbers the footnotes in the order the kept cells refer to
// them, row by row.
func (l *layout) number() {
	l.numbers = map[int]int{}
	for _, r := range l.g.rows {
		for i, c := range r {
			if i < len(l.keep) && l.keep[i] && c.note > 0 {
				if _, ok := l.numbers[c.note]; !ok {
					l.numbers[c.note] = len(l.numbers) + 1
				}
			}
		}
	}
}

// header returns column i's header as the layout shows it.
func (l *layout) header(i int) string {
	if c := l.g.cols[i]; l.short && c.short != "" {
		return c.short
	}
	return l.g.cols[i].label
}

// text returns the text of cell c of column i: its words, shortened to
// the column's limit, and its footnote's number.
func (l *layout) text(i int, c gridCell) string {
	s := c.text
	if c.note > 0 {
		s += "[" + strconv.Itoa(l.numbers[c.note]) + "]"
	}
	if lim := l.limit[i]; lim > 0 && displayWidth(s) > lim {
		switch c := l.g.cols[i]; {
		case c.middle:
			s = middleEllipsis(s, lim)
		default:
			s = ellipsis(s, lim, c.fromLeft)
		}
	}
	return s
}

// widths returns each column's width as laid out (0 for one left out).
func (l *layout) widths() []int {
	ws := make([]int, len(l.g.cols))
	for i := range l.g.cols {
		if !l.keep[i] {
			continue
		}
		ws[i] = displayWidth(l.header(i))
		for _, r := range l.g.rows {
			if i < len(r) {
				ws[i] = max(ws[i], displayWidth(l.text(i, r[i])))
			}
		}
	}
	return ws
}

// gap is the space between two columns.
const gap = "  "

// total is the width of the table's widest line.
func (l *layout) total() int {
	n, sum := 0, 0
	for i, w := range l.widths() {
		if l.keep[i] {
			n++
			sum += w
		}
	}
	switch {
	case n == 0:
		return 0
	case l.style == Box:
		return sum + 3*n + 1 // a space either side of each cell, and the borders
	}
	return sum + len(gap)*(n-1)
}

// write writes the fitted table in style: the heading, the header and
// rows, the legend of the short headers, the footnotes, the columns left
// out and the lines after.
func (l *layout) write(w io.Writer, style Style) error {
	pw := &paraWriter{w: w, width: l.width}
	heading, after := slices.Clone(l.g.heading), l.g.after
	if a := l.g.aside; a != "" {
		switch n := len(heading); {
		case n > 0 && (l.width <= 0 || displayWidth(heading[n-1]+"; "+a) <= l.width):
			heading[n-1] += "; " + a
		case n == 0:
			heading = []string{a}
		default:
			after = append([]string{a}, after...)
		}
	}
	for _, h := range heading {
		pw.para(h, "")
	}
	var err error
	if style == Box {
		err = l.writeBox(w)
	} else {
		err = l.writePlain(w)
	}
	if err != nil {
		return err
	}
	// The legend, the footnotes and the columns left out are one
	// paragraph: fewer lines than one or two each.
	var notes []string
	if legend := l.legend(); legend != "" {
		notes = append(notes, legend+".")
	}
	notes = append(notes, l.footnotes()...)
	if len(l.omitted) > 0 {
		more := l.g.more
		if more == "" {
			more = "--wide shows them, as do CSV and JSON"
		}
		notes = append(notes, fmt.Sprintf("Not shown at %d columns: %s (%s).", l.width, strings.Join(l.omitted, ", "), more))
	}
	if len(notes) > 0 {
		pw.units(footnoteUnits(strings.Join(notes, " ")))
	}
	for _, a := range after {
		pw.para(a, "")
	}
	return pw.err
}

// legend names the short headers used: "B/inst = B/instance, allocs =
// allocs/instance".
func (l *layout) legend() string {
	if !l.short {
		return ""
	}
	var parts []string
	for i, c := range l.g.cols {
		if l.keep[i] && c.short != "" && c.short != c.label {
			parts = append(parts, c.short+" = "+c.label)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, ", ")
}

// footnotes returns the footnotes the kept cells refer to, in their
// numbers' order: "[1] text." They are written as one paragraph, which
// takes fewer lines than a line (or two) each.
func (l *layout) footnotes() []string {
	out := make([]string, len(l.numbers))
	for note, k := range l.numbers {
		text := l.g.notes[note-1]
		if !strings.HasSuffix(text, ".") {
			text += "."
		}
		out[k-1] = "[" + strconv.Itoa(k) + "] " + text
	}
	return out
}

// writePlain writes the header and rows as aligned columns.
func (l *layout) writePlain(w io.Writer) error {
	ws := l.widths()
	line := func(cell func(i int) string) string {
		var b strings.Builder
		first := true
		for i, c := range l.g.cols {
			if !l.keep[i] {
				continue
			}
			if !first {
				b.WriteString(gap)
			}
			first = false
			s := cell(i)
			pad := strings.Repeat(" ", max(0, ws[i]-displayWidth(s)))
			if c.right {
				b.WriteString(pad + s)
			} else {
				b.WriteString(s + pad)
			}
		}
		return strings.TrimRight(b.String(), " ")
	}
	lines := []string{line(l.header)}
	for _, r := range l.g.rows {
		lines = append(lines, line(func(i int) string {
			if i < len(r) {
				return l.text(i, r[i])
			}
			return ""
		}))
	}
	_, err := io.WriteString(w, strings.Join(lines, "\n")+"\n")
	return err
}

// writeBox writes the header and rows box-drawn, with tablewriter.
func (l *layout) writeBox(w io.Writer) error {
	t := NewTable(w)
	var header []string
	for i := range l.g.cols {
		if l.keep[i] {
			header = append(header, l.header(i))
		}
	}
	t.Header(toAny(header)...)
	for _, r := range l.g.rows {
		var row []string
		for i := range l.g.cols {
			if l.keep[i] {
				s := ""
				if i < len(r) {
					s = l.text(i, r[i])
				}
				row = append(row, s)
			}
		}
		if err := t.Append(row); err != nil {
			return err
		}
	}
	return t.Render()
}

// writeGrid fits g to width and writes it in style; all keeps every
// column.
func writeGrid(w io.Writer, g *grid, width int, all bool, style Style) error {
	return fitGrid(g, width, all, style).write(w, style)
}

// paraWriter writes paragraphs wrapped at width, remembering the first
// error.
type paraWriter struct {
	w     io.Writer
	width int
	err   error
}

// para writes s wrapped at the width, its lines after the first
// starting with indent.
func (p *paraWriter) para(s, indent string) {
	if p.err != nil {
		return
	}
	_, p.err = fmt.Fprintln(p.w, Wrap(s, p.width, indent))
}

// units writes the units wrapped at the width: a line breaks only
// between two units.
func (p *paraWriter) units(units []string) {
	if p.err != nil {
		return
	}
	_, p.err = fmt.Fprintln(p.w, wrapUnits(units, p.width, ""))
}

// footnoteUnits splits a paragraph of footnotes into the units it may
// break between: its words, each footnote's number glued to its first
// word so that no line ends with "[2]".
func footnoteUnits(s string) []string {
	var out []string
	glue := false
	for _, w := range strings.Fields(s) {
		if glue {
			out[len(out)-1] += " " + w
		} else {
			out = append(out, w)
		}
		glue = len(w) > 2 && w[0] == '[' && w[len(w)-1] == ']'
	}
	return out
}

// WriteTable writes t as a terminal table fitted to width (0: no limit):
// the columns of prose (their indexes) are left out or shortened ("…")
// where the table does not fit, the others never.
func WriteTable(w io.Writer, t MarkdownTable, width int, prose ...int) error {
	return WriteTableStyled(w, t, width, Plain, prose, nil, "", nil)
}

// WriteTableStyled is WriteTable in style, the columns of shorten (their
// indexes) shortened in the middle with "…" where the table does not
// fit, those of secondary left out before that (more says what shows
// them), and the lines after written under it.
func WriteTableStyled(w io.Writer, t MarkdownTable, width int, style Style, shorten, secondary []int, more string, after []string) error {
	g := &grid{}
	for i, h := range t.Header {
		c := gridCol{label: h, kind: keyCol}
		if i < len(t.Right) && t.Right[i] {
			c.right, c.kind = true, figureCol
		}
		if slices.Contains(shorten, i) {
			c.shorten, c.middle = true, true
		}
		if slices.Contains(secondary, i) {
			c.kind = rangeCol
		}
		g.cols = append(g.cols, c)
	}
	for _, r := range t.Rows {
		var cells []gridCell
		for _, c := range r {
			cells = append(cells, plain(c))
		}
		g.add(cells...)
	}
	g.after, g.more = after, more
	return writeGrid(w, g, width, false, style)
}

// Footnotes numbers the footnotes of a table a command builds itself
// (the list's matrix): one number per distinct text.
type Footnotes struct{ texts []string }

// Ref returns the reference to text, "[k]", adding it unless it is there.
func (f *Footnotes) Ref(text string) string {
	i := slices.Index(f.texts, text)
	if i < 0 {
		f.texts = append(f.texts, text)
		i = len(f.texts) - 1
	}
	return "[" + strconv.Itoa(i+1) + "]"
}

// Write writes lead and the footnotes as one paragraph wrapped at width.
func (f *Footnotes) Write(w io.Writer, lead string, width int) error {
	parts := []string{lead}
	for i, t := range f.texts {
		if !strings.HasSuffix(t, ".") {
			t += "."
		}
		parts = append(parts, "["+strconv.Itoa(i+1)+"] "+t)
	}
	_, err := fmt.Fprintln(w, wrapUnits(footnoteUnits(strings.TrimSpace(strings.Join(parts, " "))), width, ""))
	return err
}
