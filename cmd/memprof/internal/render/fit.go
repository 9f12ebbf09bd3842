package render

import (
	"fmt"
	"slices"
	"strings"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
)

// TableOptions say which columns a terminal table shows and how wide it
// may be.
type TableOptions struct {
	// Width is the terminal's width in columns: the table uses short
	// headers, leaves out columns (prose first, then figures from the
	// right; the case's key never) and shortens words visibly ("…") to
	// fit it, saying what it left out. 0 means no limit.
	Width int
	// Wide shows every column the terminal table can show
	// (results.InTable) instead of the default ones (results.InDefaultTable).
	Wide bool
	// Columns, when set, are the columns shown, in this order; see
	// ChooseColumns. It overrides Wide.
	Columns []results.Column
	// Style is how the table is drawn: Plain ("") or Box.
	Style Style
	// Checks say what each family's agreement check compared, for the
	// agreement line above the table.
	Checks CheckTexts
}

// DefaultWidth is the width a table is fitted to when the terminal's is
// unknown (standard output is not a terminal and $COLUMNS is not set).
const DefaultWidth = 120

// formats returns the formats a table of opts reads its columns for.
func (o TableOptions) formats() results.Formats {
	if o.Wide {
		return results.InTable
	}
	return results.InDefaultTable
}

// columns returns the columns of a table of opts from the candidates of
// its kind of rows (for example results.InstanceColumns).
func (o TableOptions) columns(of func(results.Formats) []results.Column) []results.Column {
	if o.Columns != nil {
		return o.Columns
	}
	return of(o.formats())
}

// keyColumns are the columns that name a row's case: never left out,
// and moved into the table's heading where every row has one value.
var keyColumns = []string{"name", "type", "lib", "repr", "layout", "scheme", "op", "batch", "param"}

// all reports whether the table shows every column of o, whatever the
// width: --wide or --columns.
func (o TableOptions) all() bool { return o.Wide || o.Columns != nil }

// ChooseColumns returns the columns names asks for (JSON names or header
// labels, results.LookupColumn), in that order, for a table of rows that
// applies tells apart (the instance or the throughput table). A column
// that does not apply to those rows, holds a list (only JSON has those),
// is the note (the tables' notes are footnotes) or is named twice is an
// error that lists the table's columns.
func ChooseColumns(names []string, kind string, applies func(results.Column) bool) ([]results.Column, error) {
	var valid []string
	for _, c := range results.Columns {
		if applies(c) && c.Unit != units.List && c.Name != "note" {
			valid = append(valid, c.Name)
		}
	}
	var out []results.Column
	for _, n := range names {
		n = strings.TrimSpace(n)
		c, err := results.LookupColumn(n)
		switch {
		case err != nil:
			// Offer the table's own columns, not every column there is.
			return nil, fmt.Errorf("--columns: unknown column %q: choose from the %s table's %s", n, kind, strings.Join(valid, ", "))
		case c.Name == "note":
			return nil, fmt.Errorf("--columns: the %s table's notes are footnotes under it: leave note out", kind)
		case !applies(c) || c.Unit == units.List:
			return nil, fmt.Errorf("--columns: column %q is not one of the %s table's: choose from %s", n, kind, strings.Join(valid, ", "))
		case slices.ContainsFunc(out, func(o results.Column) bool { return o.Name == c.Name }):
			return nil, fmt.Errorf("--columns: column %q is named twice", n)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--columns names no column: choose from %s", strings.Join(valid, ", "))
	}
	return out, nil
}

// Wrap wraps the paragraph s at width (0: not at all), at spaces only,
// starting the lines after the first with indent. A word longer than a
// line is never split: it has a line of its own.
func Wrap(s string, width int, indent string) string {
	if width <= 0 {
		return s
	}
	return wrapUnits(strings.Fields(s), width, indent)
}

// wrapUnits joins units with spaces into lines of at most width display
// columns (a unit wider than that alone on its line), the lines after
// the first starting with indent.
func wrapUnits(units []string, width int, indent string) string {
	if width <= 0 {
		return strings.Join(units, " ")
	}
	return strings.Join(fillLines(units, width, width-displayWidth(indent)), "\n"+indent)
}

// fillLines joins units with spaces into lines of at most first display
// columns for the first line and rest for the others (a unit wider than
// its line alone on it).
func fillLines(units []string, first, rest int) []string {
	var lines []string
	line, lineWidth, room := "", 0, first
	for _, u := range units {
		w := displayWidth(u)
		switch {
		case line == "":
			line, lineWidth = u, w
		case lineWidth+1+w <= room:
			line += " " + u
			lineWidth = joinedWidth(line, lineWidth+1+w)
		default:
			lines = append(lines, line)
			line, lineWidth, room = u, w, rest
		}
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

// WrapGroups wraps a usage line: first columns are left on the first
// line, width on the others, which start with indent. It breaks only at
// spaces between bracketed groups ("[--lib L,...]" stays whole), and
// inside a group only where the group is wider than a line.
func WrapGroups(s string, first, width int, indent string) string {
	room := width - displayWidth(indent)
	var units []string
	var split func(s string, depth int)
	split = func(s string, depth int) {
		for _, u := range groups(s, depth) {
			if displayWidth(u) > room && strings.Contains(u, " ") && depth < 4 {
				split(u, depth+1)
				continue
			}
			units = append(units, u)
		}
	}
	split(s, 0)
	return strings.Join(fillLines(units, first, room), "\n"+indent)
}

// groups splits s at the spaces that are inside depth brackets (0: at
// the top level), "[" and "(" opening one.
func groups(s string, depth int) []string {
	var out []string
	level, start := 0, 0
	for i, r := range s {
		switch r {
		case '[', '(':
			level++
		case ']', ')':
			level--
		case ' ':
			if level == depth {
				if i > start {
					out = append(out, s[start:i])
				}
				start = i + 1
			}
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}
