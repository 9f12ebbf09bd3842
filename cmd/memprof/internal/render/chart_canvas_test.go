package render

import (
	"html"
	"regexp"
	"strconv"
	"testing"

	"github.com/memprof/memprof/results"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// svgTextAt is a text element's left edge, font size and string, and
// whether a rotation group holds it (an axis's label, drawn upright).
var svgTextAt = regexp.MustCompile(`(?s)(<g transform="rotate\([^)]*\)">\s*)?<text x="([-0-9.]+)"[^>]*font-size:([0-9.]+)px[^>]*>([^<]*)</text>`)

// TestChartTextInsideCanvas is the cheap check go test makes of what
// -charts.render checks with a renderer: every unrotated text of every
// chart of the committed results files and of the crowded fixtures
// starts inside the canvas and, measured with the font the layout used
// (Liberation Sans, whose metrics the SVG's fallbacks share), ends
// inside it: a title too long for its chart (tradeoff_G2.svg's, at
// x="-16.7") fails it.
func TestChartTextInsideCanvas(t *testing.T) {
	sets := map[string]*results.File{"many": withKZG(withGC(withThroughput(loadFixture(t)))), "every-lib": everyLib()}
	for _, p := range committedResults {
		rs, err := results.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sets[p] = rs
	}
	for name, rs := range sets {
		everyChart(t, rs, func(chart string, svg []byte) {
			m := svgSize.FindSubmatch(svg)
			if m == nil {
				t.Fatalf("%s %s: no viewBox", name, chart)
			}
			w, _ := strconv.ParseFloat(string(m[1]), 64)
			n := 0
			for _, e := range svgTextAt.FindAllSubmatch(svg, -1) {
				if len(e[1]) > 0 {
					continue // rotated: its x is along the other axis
				}
				x, _ := strconv.ParseFloat(string(e[2]), 64)
				size, _ := strconv.ParseFloat(string(e[3]), 64)
				s := html.UnescapeString(string(e[4]))
				sty := text.Style{Font: font.From(sans, vg.Length(size)), Handler: plot.DefaultTextHandler}
				if end := x + float64(sty.Width(s)); x < 0 || end > w {
					t.Errorf("%s %s: text %q runs from x %.1f to %.1f, outside the canvas 0 to %.1f", name, chart, s, x, end, w)
				}
				n++
			}
			if n == 0 {
				t.Errorf("%s %s: no text found to check", name, chart)
			}
		})
	}
}
