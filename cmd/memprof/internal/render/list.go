package render

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// ListEntry is the JSON form of one registered combination, as memprof
// list writes it.
type ListEntry struct {
	ID          string         `json:"id"`
	Family      vocab.Family   `json:"family"`
	Type        vocab.Type     `json:"type"`
	Lib         vocab.Lib      `json:"lib"`
	Repr        vocab.Repr     `json:"repr"`
	Layout      measure.Layout `json:"layout"`
	Scheme      vocab.Scheme   `json:"scheme,omitempty"`
	Param       results.Param  `json:"param,omitempty"`
	Constructor string         `json:"constructor,omitempty"`
	Unavailable string         `json:"unavailable,omitempty"`
	Kind        vocab.Kind     `json:"unavailable_kind,omitempty"`
}

// layoutLetters are the letters the matrix writes a layout as: its first
// letter, or its first two where an earlier layout took that one.
func layoutLetters() map[measure.Layout]string {
	out := map[measure.Layout]string{}
	taken := map[string]bool{}
	for _, l := range measure.Layouts {
		s := string(l)
		letter := s[:1]
		if taken[letter] && len(s) > 1 {
			letter = s[:2]
		}
		taken[letter] = true
		out[l] = letter
	}
	return out
}

// ListMatrix writes, for each family, the matrix of type and
// representation by library: the layouts each library offers the
// representation in, or n/a[k] with the reason as footnote k.
func ListMatrix(w io.Writer, entries []ListEntry, families []vocab.Family, width int) error {
	letters := layoutLetters()
	type row = matrixRow
	notes := &Footnotes{}
	for fi, f := range families {
		var rows []row
		var libs []vocab.Lib
		for _, e := range entries {
			if e.Family != f {
				continue
			}
			if !slices.Contains(libs, e.Lib) {
				libs = append(libs, e.Lib)
			}
			if r := (row{e.Type, e.Repr}); e.Kind != vocab.DoesNotApply && !slices.Contains(rows, r) {
				rows = append(rows, r)
			}
		}
		slices.SortStableFunc(rows, func(a, b row) int {
			return results.Compare(results.Key{Type: a.typ, Repr: a.repr}, results.Key{Type: b.typ, Repr: b.repr})
		})
		slices.SortStableFunc(libs, func(a, b vocab.Lib) int { return slices.Index(vocab.Libs, a) - slices.Index(vocab.Libs, b) })
		cells := make([][]string, len(rows)) // the libraries' cells of each row
		for i, r := range rows {
			for _, l := range libs {
				cells[i] = append(cells[i], matrixCell(entries, r.typ, r.repr, l, letters, notes))
			}
		}
		// A family of more libraries than the width holds gets one table
		// per group of them, each with the rows' keys.
		for gi, g := range libGroups(f, rows, libs, cells, width) {
			t := MarkdownTable{Header: []string{string(f), "repr"}}
			for _, li := range g {
				t.Header = append(t.Header, string(libs[li]))
			}
			for i, r := range rows {
				row := []string{string(r.typ), string(r.repr)}
				for _, li := range g {
					row = append(row, cells[i][li])
				}
				t.Rows = append(t.Rows, row)
			}
			if fi > 0 || gi > 0 {
				if _, err := fmt.Fprintln(w); err != nil {
					return err
				}
			}
			if err := WriteTable(w, t, width); err != nil {
				return err
			}
		}
	}
	var legend []string
	for _, l := range measure.Layouts {
		legend = append(legend, letters[l]+" "+string(l))
	}
	text := strings.Join(legend, ", ") + "; ×N: at N settings."
	return notes.Write(w, text, width)
}

// matrixRow is a row of the list's matrix: a type in one representation.
type matrixRow struct {
	typ  vocab.Type
	repr vocab.Repr
}

// listGap is the space between two columns of the plain tables.
const listGap = 2

// libGroups splits the indexes of libs into groups whose columns fit
// width beside the rows' type and representation columns: one group when
// they all fit, and at least one library in each.
func libGroups(f vocab.Family, rows []matrixRow, libs []vocab.Lib, cells [][]string, width int) [][]int {
	keys := len(string(f))
	reprs := len("repr")
	for _, r := range rows {
		keys = max(keys, len(string(r.typ)))
		reprs = max(reprs, len(string(r.repr)))
	}
	used := keys + listGap + reprs
	widths := make([]int, len(libs))
	for li, l := range libs {
		widths[li] = utf8.RuneCountInString(string(l))
		for i := range rows {
			widths[li] = max(widths[li], utf8.RuneCountInString(cells[i][li]))
		}
	}
	// split cuts libs into groups of at most per, each within width.
	split := func(per int) (groups [][]int) {
		var g []int
		at := used
		for li, w := range widths {
			if len(g) > 0 && (len(g) == per || width > 0 && at+listGap+w > width) {
				groups = append(groups, g)
				g, at = nil, used
			}
			g = append(g, li)
			at += listGap + w
		}
		return append(groups, g)
	}
	greedy := split(len(libs))
	// As many groups as the greedy cut needs, but of even sizes where
	// they fit (two and two rather than three and one).
	if k := len(greedy); k > 1 {
		if even := split((len(libs) + k - 1) / k); len(even) == k {
			return even
		}
	}
	return greedy
}

// matrixCell is the cell of one type, representation and library: the
// letters of the layouts offered ("p s c", "si×3" at three settings), n/a
// with the reason's footnote when none is, "-" when the library has no
// such combination or it does not apply.
func matrixCell(entries []ListEntry, typ vocab.Type, repr vocab.Repr, lib vocab.Lib, letters map[measure.Layout]string, notes *Footnotes) string {
	settings := map[measure.Layout]map[results.Param]bool{}
	var reasons []string // of the combinations not offered, one per combination
	for _, e := range entries {
		if e.Type != typ || e.Repr != repr || e.Lib != lib {
			continue
		}
		switch {
		case e.Unavailable == "":
			if settings[e.Layout] == nil {
				settings[e.Layout] = map[results.Param]bool{}
			}
			settings[e.Layout][e.Param] = true
		case e.Kind != vocab.DoesNotApply:
			reasons = append(reasons, e.Unavailable)
		}
	}
	// The reason most of them share (crypto/mlkem has no packed key of
	// any parameter set, beside one parameter set it lacks altogether).
	reason := ""
	for _, r := range reasons {
		if occurrences(reasons, r) > occurrences(reasons, reason) {
			reason = r
		}
	}
	var parts []string
	for _, l := range measure.Layouts {
		if n := len(settings[l]); n > 0 {
			p := letters[l]
			if n > 1 {
				p += "×" + strconv.Itoa(n)
			}
			parts = append(parts, p)
		}
	}
	switch {
	case len(parts) > 0:
		return strings.Join(parts, ",")
	case reason != "":
		return "n/a" + notes.Ref(reason)
	}
	return "-"
}

// occurrences returns how many of list are s.
func occurrences(list []string, s string) int {
	n := 0
	for _, v := range list {
		if v == s {
			n++
		}
	}
	return n
}

// ListLong writes every combination, family by family: its key and,
// indented under it, how an instance is made or why it is not
// available.
func ListLong(w io.Writer, entries []ListEntry, families []vocab.Family, width int) error {
	for fi, f := range families {
		if fi > 0 {
			if _, err := fmt.Fprintln(w); err != nil {
				return err
			}
		}
		if _, err := fmt.Fprintf(w, "%s:\n", f); err != nil {
			return err
		}
		for _, e := range entries {
			if e.Family != f {
				continue
			}
			key := strings.Join([]string{string(e.Type), string(e.Lib), string(e.Repr), string(e.Layout)}, "/")
			if v := strings.TrimSpace(string(e.Scheme) + " " + string(e.Param)); v != "" {
				key += " " + v
			}
			how := e.Constructor
			if e.Unavailable != "" {
				how = "n/a: " + e.Unavailable
			}
			text := Wrap(how, max(width-4, 0), "")
			if _, err := fmt.Fprintf(w, "%s\n    %s\n", key, strings.ReplaceAll(text, "\n", "\n    ")); err != nil {
				return err
			}
		}
	}
	return nil
}

// ListedFamilies returns the families that have cases among entries, and
// their types and libraries, in vocabulary order: a family without a
// suite in this build is not listed.
func ListedFamilies(entries []ListEntry) (families []vocab.Family, types []vocab.Type, libs []vocab.Lib) {
	for _, f := range vocab.Families {
		if !slices.ContainsFunc(entries, func(e ListEntry) bool { return e.Family == f }) {
			continue
		}
		families = append(families, f)
		types = append(types, f.Types()...)
		for _, l := range f.Libs() {
			if !slices.Contains(libs, l) {
				libs = append(libs, l)
			}
		}
	}
	slices.SortStableFunc(libs, func(a, b vocab.Lib) int { return slices.Index(vocab.Libs, a) - slices.Index(vocab.Libs, b) })
	return families, types, libs
}
