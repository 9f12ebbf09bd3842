package render

import (
	"slices"
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// widthTexts are texts of every kind a cell may hold: printable ASCII,
// wide and ambiguous runes, a combining mark, an emoji, a tab, a control
// character, an escape sequence and bytes that are not UTF-8.
var widthTexts = []string{
	"", "a", "Signature/gnark/affine", "github.com/x/y.Fill:132 population=1000000",
	"署名 の 大きさ", "e\u0301te\u0301", "…ab…", "🙂 ok", "a\tb", "a\x01b", "\x1b[1mbold\x1b[0m text", "\xff\xfeab",
	"new([2][63]bls12381.LineEvaluationAff)",
}

// TestDisplayWidth: the widths, shortenings and lines counted with the
// printable-ASCII and rune-by-rune sums are those of measuring each
// candidate whole with twwidth.Width, as the layout did before.
func TestDisplayWidth(t *testing.T) {
	for _, s := range widthTexts {
		if got, want := displayWidth(s), twwidth.Width(s); got != want {
			t.Errorf("displayWidth(%q) = %d, want %d", s, got, want)
		}
		for width := 0; width <= twwidth.Width(s)+2; width++ {
			for _, left := range []bool{false, true} {
				if got, want := ellipsis(s, width, left), ellipsisMeasured([]rune(s), width, left); got != want {
					t.Errorf("ellipsis(%q, %d, %v) = %q, want %q", s, width, left, got, want)
				}
			}
			if got, want := middleEllipsis(s, width), middleMeasured(s, width); got != want {
				t.Errorf("middleEllipsis(%q, %d) = %q, want %q", s, width, got, want)
			}
		}
	}
	units := strings.Fields(strings.Join(widthTexts, " "))
	for width := 1; width <= 60; width++ {
		if got, want := fillLines(units, width, width-2), fillMeasured(units, width, width-2); !slices.Equal(got, want) {
			t.Errorf("fillLines at %d: got %q, want %q", width, got, want)
		}
	}
}

// middleMeasured is middleEllipsis measuring each candidate whole.
func middleMeasured(s string, width int) string {
	rs := []rune(s)
	for keep := len(rs) - 1; keep > 0; keep-- {
		head := (keep + 1) / 2
		if t := string(rs[:head]) + "…" + string(rs[len(rs)-(keep-head):]); twwidth.Width(t) <= width {
			return t
		}
	}
	return "…"
}

// fillMeasured is fillLines measuring each line whole.
func fillMeasured(units []string, first, rest int) []string {
	var lines []string
	line, room := "", first
	for _, u := range units {
		switch {
		case line == "":
			line = u
		case twwidth.Width(line)+1+twwidth.Width(u) <= room:
			line += " " + u
		default:
			lines = append(lines, line)
			line, room = u, rest
		}
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}
