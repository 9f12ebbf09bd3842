// Package tabletest reads back, for tests, the terminal tables memprof
// prints: plain tables (aligned columns, two spaces or more between
// cells) and box-drawn ones.
package tabletest

import (
	"regexp"
	"slices"
	"strings"
)

// Table is one table of a command's output: its heading (the line just
// above a plain table's header, "" if none), header and rows.
type Table struct {
	Heading string
	Header  []string
	Rows    [][]string
}

// cellGap is what separates two cells of a plain table.
var cellGap = regexp.MustCompile(`\s{2,}`)

// Parse returns the tables of text and its other lines (headings,
// footnotes). A plain table is a run of lines of two cells or more, the
// first its header; a box-drawn table is read between its borders, the
// lines that only continue a wrapped cell (their first cell empty) left
// out.
func Parse(text string) (tables []Table, other []string) {
	var cur *Table
	box := false
	above := "" // the line above, when it is not a table's
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "┌"):
			tables = append(tables, Table{})
			cur, box = &tables[len(tables)-1], true
		case box && (strings.HasPrefix(line, "├") || strings.HasPrefix(line, "└")):
			if strings.HasPrefix(line, "└") {
				cur, box = nil, false
			}
		case box && strings.HasPrefix(line, "│"):
			parts := strings.Split(strings.Trim(line, "│"), "│")
			cells := make([]string, len(parts))
			for i, p := range parts {
				cells[i] = strings.TrimSpace(p)
			}
			switch {
			case cur.Header == nil:
				cur.Header = cells
			case cells[0] != "":
				cur.Rows = append(cur.Rows, cells)
			}
		default:
			cells := cellGap.Split(strings.TrimSpace(line), -1)
			if len(cells) < 2 {
				cur, above = nil, line
				if strings.TrimSpace(line) != "" {
					other = append(other, line)
				}
				continue
			}
			if cur == nil {
				tables = append(tables, Table{Heading: strings.TrimSpace(above), Header: cells})
				cur = &tables[len(tables)-1]
				continue
			}
			cur.Rows = append(cur.Rows, cells)
		}
	}
	return tables, other
}

// Column returns the index of the column called name, or -1.
func (t Table) Column(name string) int { return slices.Index(t.Header, name) }

// Cell returns the cell of row under the column called name, or "".
func (t Table) Cell(row []string, name string) string {
	if i := t.Column(name); i >= 0 && i < len(row) {
		return row[i]
	}
	return ""
}

// Row returns the first row whose cells include every one of cells.
func (t Table) Row(cells ...string) ([]string, bool) {
	for _, r := range t.Rows {
		if !slices.ContainsFunc(cells, func(c string) bool { return !slices.Contains(r, c) }) {
			return r, true
		}
	}
	return nil, false
}

// footnoteRef is a footnote's number in a cell or a paragraph: the
// numbers of two renderings of one table may differ (a column left out
// takes its footnotes with it).
// It ends its word ("n/a[3]", "[3]"): a bracketed number inside a word
// is part of it ("new([2][63]bls12381.LineEvaluationAff)").
var footnoteRef = regexp.MustCompile(`\[\d+\]$`)

// token normalises a word for Split: its footnote numbers and the
// punctuation a sentence adds around it removed.
func token(w string) string {
	w = strings.Trim(w, "│┌┐└┘├┤┬┴┼─") // a box-drawn table's borders
	w = strings.TrimRight(w, ",.;:)")
	if strings.HasSuffix(w, "]") { // footnoteRef ends the word
		w = footnoteRef.ReplaceAllString(w, "[]")
	}
	return strings.Trim(w, ",.;:()")
}

// Tokens returns the words of text (split at white space, normalised by
// token), each once.
func Tokens(text string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(text) {
		out[token(w)] = true
	}
	return out
}

// Split returns the words of fitted (a table rendered at some width) that
// are not words of whole (the same table without a width limit), nor of
// extra (the words a fitted table may add: the columns' short headers and
// the line naming the columns left out), nor a visibly shortened one: a
// word holding "…" whose other parts begin and end a word of whole. An
// empty result means no word was split.
func Split(whole, fitted string, extra map[string]bool) []string {
	return SplitWords(Tokens(whole), fitted, extra)
}

// SplitWords is Split with the words of whole (Tokens) given: a test
// that fits one table at many widths takes them once.
func SplitWords(words map[string]bool, fitted string, extra map[string]bool) []string {
	var split []string
	for w := range Tokens(fitted) {
		if words[w] || extra[w] || w == "" {
			continue
		}
		if head, tail, ok := strings.Cut(w, "…"); ok && shortens(words, head, tail) {
			continue
		}
		split = append(split, w)
	}
	slices.Sort(split)
	return split
}

// shortens reports whether some word begins with head and ends with tail.
func shortens(words map[string]bool, head, tail string) bool {
	for w := range words {
		if strings.HasPrefix(w, head) && strings.HasSuffix(strings.TrimPrefix(w, head), tail) {
			return true
		}
	}
	return false
}
