package render

import (
	"strings"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// displayWidth is twwidth.Width(s), the display columns of s. Printable
// ASCII, most of what a table holds, is one column a byte, counted here:
// twwidth's shared cache costs a lock and a hash a call, and the layout
// asks for the widths of every cell and paragraph again as it fits them.
func displayWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return twwidth.Width(s)
		}
	}
	return len(s)
}

// joinedWidth returns the display width of s, a text joined of parts
// whose widths add up to sum: twwidth counts the columns rune by rune,
// so sum is exact unless s holds an escape sequence, which twwidth
// strips as a whole.
func joinedWidth(s string, sum int) int {
	if strings.IndexByte(s, '\x1b') >= 0 {
		return displayWidth(s)
	}
	return sum
}

// runeWidths returns the display width of each rune of rs, which add up
// to the width of any run of them and "…" (twwidth counts rune by rune),
// or false when rs holds an escape, which twwidth strips as a sequence.
func runeWidths(rs []rune) ([]int, bool) {
	ws := make([]int, len(rs))
	for i, r := range rs {
		if r == '\x1b' {
			return nil, false
		}
		ws[i] = displayWidth(string(r))
	}
	return ws, true
}

// ellipsis shortens s to width display columns with "…": at its end, or
// at its start when fromLeft.
func ellipsis(s string, width int, fromLeft bool) string {
	rs := []rune(s)
	ws, ok := runeWidths(rs)
	if !ok {
		return ellipsisMeasured(rs, width, fromLeft)
	}
	dots := displayWidth("…")
	kept := 0
	for _, w := range ws {
		kept += w
	}
	if fromLeft {
		for i := range rs {
			if dots+kept <= width {
				return "…" + string(rs[i:])
			}
			kept -= ws[i]
		}
		return "…"
	}
	for i := len(rs); i > 0; i-- {
		if kept+dots <= width {
			return string(rs[:i]) + "…"
		}
		kept -= ws[i-1]
	}
	return "…"
}

// ellipsisMeasured is ellipsis measuring each candidate whole, for text
// with escape sequences.
func ellipsisMeasured(rs []rune, width int, fromLeft bool) string {
	if fromLeft {
		for i := range rs {
			if t := "…" + string(rs[i:]); twwidth.Width(t) <= width {
				return t
			}
		}
		return "…"
	}
	for i := len(rs); i > 0; i-- {
		if t := string(rs[:i]) + "…"; twwidth.Width(t) <= width {
			return t
		}
	}
	return "…"
}

// middleEllipsis shortens s to width display columns with "…" in its
// middle.
func middleEllipsis(s string, width int) string {
	rs := []rune(s)
	ws, ok := runeWidths(rs)
	// upTo[i] is the width of rs[:i], where the widths add up.
	upTo := make([]int, len(rs)+1)
	for i, w := range ws {
		upTo[i+1] = upTo[i] + w
	}
	dots := displayWidth("…")
	for keep := len(rs) - 1; keep > 0; keep-- {
		head, tail := (keep+1)/2, len(rs)-(keep-(keep+1)/2)
		if ok && upTo[head]+dots+upTo[len(rs)]-upTo[tail] > width {
			continue
		}
		t := string(rs[:head]) + "…" + string(rs[tail:])
		if ok || twwidth.Width(t) <= width {
			return t
		}
	}
	return "…"
}
