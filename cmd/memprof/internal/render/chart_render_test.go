package render

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

var chartsRender = flag.Bool("charts.render", false, "draw every chart of the committed results files with rsvg-convert and check its text's bounding boxes (.ci/run)")

// svgText is one <text> element of a chart: its source and its string.
var svgText = regexp.MustCompile(`(?s)<text [^>]*>([^<]*)</text>`)

// svgSize is the chart's canvas: the width and height of its viewBox.
var svgSize = regexp.MustCompile(`viewBox="0 0 ([0-9.]+) ([0-9.]+)"`)

// renderedBox is the box, in the chart's units, a renderer inked for one
// element of a chart.
type renderedBox struct {
	text                   string
	minX, minY, maxX, maxY float64
}

func (a renderedBox) overlaps(b renderedBox) bool {
	return a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY
}

// renderMargin is the space drawn around a chart's canvas when its text
// is rendered, so that text past the canvas's edge is inked (and seen)
// rather than cut.
const renderMargin = 200

// renderScale is the pixels per unit of the canvas the boxes are read at.
const renderScale = 2

// svgPath is a path element (all the charts draw but their text); svgRoot
// the start of the root element, with its size.
var (
	svgPath = regexp.MustCompile(`(?s)<path [^>]*/>`)
	svgRoot = regexp.MustCompile(`<svg width="[^"]*" height="[^"]*" viewBox="[^"]*"`)
)

// svgFill is a fill colour in a style attribute.
var svgFill = regexp.MustCompile(`fill:#[0-9A-Fa-f]{6};?`)

// textBoxes renders the text elements of svg, without the rest and each
// in a colour of its own, with rsvg-convert, on a canvas widened by renderMargin on
// every side, and returns the box of each one's ink (the pixels of its
// colour), in the chart's units (origin at the canvas's top
// left), the texts of which no pixel shows (under another), and the
// canvas's size.
func textBoxes(t *testing.T, svg []byte) (boxes []renderedBox, hidden []string, w, h float64) {
	t.Helper()
	m := svgSize.FindSubmatch(svg)
	if m == nil {
		t.Fatal("chart has no viewBox")
	}
	w, _ = strconv.ParseFloat(string(m[1]), 64)
	h, _ = strconv.ParseFloat(string(m[2]), 64)
	// The chart itself, its text recoloured and everything else (paths)
	// left out, on the widened canvas.
	var texts []string
	doc := svgText.ReplaceAllFunc(svg, func(elem []byte) []byte {
		text := string(svgText.FindSubmatch(elem)[1])
		texts = append(texts, text)
		colour := fmt.Sprintf("fill:#%06X;", colourOf(len(texts)-1))
		elem = svgFill.ReplaceAll(elem, nil)
		return bytes.Replace(elem, []byte(`style="`), []byte(`style="`+colour), 1)
	})
	doc = svgPath.ReplaceAll(doc, nil)
	doc = svgRoot.ReplaceAll(doc, []byte(fmt.Sprintf(`<svg width="%g" height="%g" viewBox="%g %g %g %g"`,
		(w+2*renderMargin)*renderScale, (h+2*renderMargin)*renderScale, -float64(renderMargin), -float64(renderMargin), w+2*renderMargin, h+2*renderMargin)))
	in := filepath.Join(t.TempDir(), "text.svg")
	if err := os.WriteFile(in, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("rsvg-convert", "-f", "png", in).Output()
	if err != nil {
		t.Fatalf("rsvg-convert %s: %v", in, err)
	}
	img, err := png.Decode(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("rsvg-convert %s: %v", in, err)
	}
	ink := inkBoxes(img, len(texts))
	for i, text := range texts {
		b, ok := ink[i]
		if !ok {
			hidden = append(hidden, text)
			continue
		}
		toUnits := func(px int) float64 { return float64(px)/renderScale - renderMargin }
		boxes = append(boxes, renderedBox{text: text, minX: toUnits(b.Min.X), minY: toUnits(b.Min.Y), maxX: toUnits(b.Max.X), maxY: toUnits(b.Max.Y)})
	}
	return boxes, hidden, w, h
}

// colourOf is the colour text i is drawn in: far from black, white and
// each other's.
func colourOf(i int) uint32 { return uint32(0x010101+i*0x0B3D17)&0xFFFFFF | 0x800000 }

// inkBoxes returns, for each of the n colours of colourOf, the bounding
// box of img's pixels of exactly that colour (over the transparent
// background a text's antialiased pixels keep its colour, less opaque;
// where two texts meet, their colours mix), at least a quarter opaque.
func inkBoxes(img image.Image, n int) map[int]image.Rectangle {
	index := map[uint32]int{}
	for i := range n {
		index[colourOf(i)] = i
	}
	out := map[int]image.Rectangle{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			if c.A < 0x40 {
				continue // the faint edge of a glyph, or nothing
			}
			i, ok := index[uint32(c.R)<<16|uint32(c.G)<<8|uint32(c.B)]
			if !ok {
				continue
			}
			px := image.Rect(x, y, x+1, y+1)
			if r, seen := out[i]; seen {
				out[i] = r.Union(px)
			} else {
				out[i] = px
			}
		}
	}
	return out
}

// checkRendered checks, on what rsvg-convert draws of chart, that every
// text lies inside the canvas (nothing cut at its edge) and that no two
// texts overlap, and returns what it found wrong.
func checkRendered(t *testing.T, chart []byte) []string {
	t.Helper()
	var problems []string
	boxes, hidden, w, h := textBoxes(t, chart)
	if len(boxes) == 0 {
		problems = append(problems, "no text rendered")
	}
	for _, text := range hidden {
		problems = append(problems, fmt.Sprintf("text %q is hidden: none of its pixels shows", text))
	}
	for i, b := range boxes {
		if b.minX < 0 || b.minY < 0 || b.maxX > w || b.maxY > h {
			problems = append(problems, fmt.Sprintf("text %q is drawn at x %.1f..%.1f, y %.1f..%.1f, outside the %.1f x %.1f canvas", b.text, b.minX, b.maxX, b.minY, b.maxY, w, h))
		}
		for _, o := range boxes[i+1:] {
			if b.overlaps(o) {
				problems = append(problems, fmt.Sprintf("text %q (x %.1f..%.1f, y %.1f..%.1f) overlaps %q (x %.1f..%.1f, y %.1f..%.1f)", b.text, b.minX, b.maxX, b.minY, b.maxY, o.text, o.minX, o.maxX, o.minY, o.maxY))
			}
		}
	}
	return problems
}

// committedResults are the results files the repository commits and its
// documents render.
var committedResults = []string{"../../../../fixtures/results/results.json", "../../../../fixtures/docs/signature.json", "../../../../fixtures/docs/kzg-objects.json"}

// everyChart calls f with the name and the SVG of every chart of rs.
func everyChart(t *testing.T, rs *results.File, f func(name string, svg []byte)) {
	t.Helper()
	draw := func(name string, d func(io.Writer) error) {
		var buf bytes.Buffer
		if err := d(&buf); err != nil {
			t.Logf("%s: %v", name, err)
			return
		}
		f(name, buf.Bytes())
	}
	draw("bytes", func(w io.Writer) error { return BytesPerInstanceChart(context.Background(), w, rs) })
	draw("gc", func(w io.Writer) error { return GCChart(context.Background(), w, rs) })
	for _, typ := range TypesMeasured(rs) {
		draw("tradeoff_"+string(typ), func(w io.Writer) error { return TradeoffChart(w, rs, typ) })
	}
}

// TestChartsRendered draws, with -charts.render, every chart of the
// committed results files and of the tests' crowded ones with a real SVG
// renderer (rsvg-convert, librsvg2-bin) and checks the boxes of the text
// it inks: inside the canvas, none over another.
func TestChartsRendered(t *testing.T) {
	if !*chartsRender {
		t.Skip("-charts.render checks the charts with rsvg-convert (.ci/run)")
	}
	if _, err := exec.LookPath("rsvg-convert"); err != nil {
		t.Fatalf("-charts.render needs rsvg-convert (Debian's librsvg2-bin): %v", err)
	}
	sets := map[string]*results.File{"many": withKZG(withGC(withThroughput(loadFixture(t)))), "every-lib": everyLib()}
	for _, p := range committedResults {
		rs, err := results.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sets[filepath.Base(p)] = rs
	}
	for name, rs := range sets {
		t.Run(name, func(t *testing.T) {
			everyChart(t, rs, func(chart string, svg []byte) {
				for _, p := range checkRendered(t, svg) {
					t.Errorf("%s: %s", chart, p)
				}
			})
		})
	}
	// The check sees what it is for: a title moved past the left edge
	// (as tradeoff_G2.svg's was, at x="-16.7") and drawn again over
	// itself.
	t.Run("broken", func(t *testing.T) {
		var buf bytes.Buffer
		if err := TradeoffChart(&buf, everyLib(), vocab.Signature); err != nil {
			t.Fatal(err)
		}
		first := svgText.FindIndex(buf.Bytes())
		elem := buf.Bytes()[first[0]:first[1]]
		x := regexp.MustCompile(`x="[^"]*"`)
		moved, again := x.ReplaceAll(elem, []byte(`x="-16.7"`)), x.ReplaceAll(elem, []byte(`x="-10"`))
		broken := slices.Concat(buf.Bytes()[:first[0]], moved, []byte("\n"), again, buf.Bytes()[first[1]:])
		problems := strings.Join(checkRendered(t, broken), "\n")
		if !strings.Contains(problems, "outside the") || !strings.Contains(problems, "overlaps") {
			t.Errorf("a title at x=-16.7, drawn twice: got problems %q, want one outside the canvas and one overlap", problems)
		}
	})
}

// everyLib returns results of every library of the vocabulary, each with
// two representations of a Signature, timed at verify: the charts of a
// merged review of many libraries.
func everyLib() *results.File {
	rs := &results.File{Schema: results.Schema}
	for i, lib := range vocab.Libs {
		for j, repr := range []vocab.Repr{vocab.Affine, vocab.Compressed} {
			b := float64(96 * (j + 1) * (1 + i%4))
			rs.Instances = append(rs.Instances, results.Row{Key: results.Key{Type: vocab.Signature, Lib: lib, Repr: repr, Layout: measure.Pointer},
				Measurement: measure.Measurement{N: 1000, BytesPerInstance: b, AllocsPerInstance: 1}})
			ns := float64(1000 * (1 + i) * (2 - j))
			rs.Throughput = append(rs.Throughput, results.ThroughputRow{Key: results.Key{Type: vocab.Signature, Lib: lib, Repr: repr, Op: "verify", Batch: 1},
				Timing: measure.Timing{Samples: 10, NsPerOpMedian: ns, NsPerOpQ1: ns * 0.95, NsPerOpQ3: ns * 1.05, CPUNsPerOpMedian: ns, OpsPerSecond: 1e9 / ns}})
		}
	}
	return rs
}

// TestLibStyles checks that each library of the vocabulary, and each of
// the first 16 of any longer one, is drawn in a style of its own (colour
// and marker), so that a merged review of many libraries tells them apart.
func TestLibStyles(t *testing.T) {
	if styleCount < 16 || styleCount < len(vocab.Libs) {
		t.Fatalf("styleCount is %d, want at least 16 and the vocabulary's %d libraries", styleCount, len(vocab.Libs))
	}
	type look struct {
		color uint32
		round int
	}
	seen := map[look]int{}
	for i := range styleCount {
		s := styleAt(i)
		r, g, b, _ := s.color.RGBA()
		l := look{r>>8<<16 | g>>8<<8 | b>>8, s.round}
		if j, dup := seen[l]; dup {
			t.Errorf("styles %d and %d are both colour %06X, round %d", j, i, l.color, l.round)
		}
		seen[l] = i
	}
	for i, lib := range vocab.Libs {
		if got, want := libStyleOf(lib), styleAt(i); got != want {
			t.Errorf("libStyleOf(%s) = %v, want %v", lib, got, want)
		}
	}
}

// TestLibGlyphs: every style's marker is filled, and its hollow one (a
// point not Pareto-optimal, a figure ~0) is an outline: gonum's glyphs
// say which in their names only, and SquareGlyph is the outline.
func TestLibGlyphs(t *testing.T) {
	filled := map[string]bool{"draw.CircleGlyph": true, "draw.BoxGlyph": true, "draw.PyramidGlyph": true}
	outline := map[string]bool{"draw.RingGlyph": true, "draw.SquareGlyph": true, "draw.TriangleGlyph": true}
	for round := range styleRounds {
		s := libStyle{round: round}
		if g := fmt.Sprintf("%T", s.glyph(false)); !filled[g] {
			t.Errorf("round %d: marker %s, want a filled one", round, g)
		}
		if g := fmt.Sprintf("%T", s.glyph(true)); !outline[g] {
			t.Errorf("round %d: hollow marker %s, want an outline", round, g)
		}
	}
}

// TestTradeoffChartContention: the point of a call whose wall time is
// three times its CPU time is labelled with " *" and the legend says
// why; a call whose wall time is its CPU time is not, and a chart with
// no such call has no such line.
func TestTradeoffChartContention(t *testing.T) {
	rs := withThroughput(loadFixture(t))
	quiet := svgTexts(t, drawTwice(t, func(w io.Writer) error { return TradeoffChart(w, rs, "Signature") }))
	if slices.Contains(quiet, contendedLegend) || slices.ContainsFunc(quiet, func(s string) bool { return strings.HasSuffix(s, contendedMark) }) {
		t.Errorf("no call waited, but the chart says one did: %q", quiet)
	}
	i := slices.IndexFunc(rs.Throughput, func(tr results.ThroughputRow) bool { return tr.Type == "Signature" && tr.Error == "" })
	rs.Throughput[i].CPUNsPerOpMedian = rs.Throughput[i].NsPerOpMedian / 3
	busy := svgTexts(t, drawTwice(t, func(w io.Writer) error { return TradeoffChart(w, rs, "Signature") }))
	label := Series{Lib: rs.Throughput[i].Lib, Repr: rs.Throughput[i].Repr, Layout: "pointer"}.Label() + contendedMark
	if !slices.Contains(busy, contendedLegend) || !slices.ContainsFunc(busy, func(s string) bool { return strings.HasSuffix(s, label) }) {
		t.Errorf("one call waited (wall 3 times its CPU): want a label ending %q and the legend line %q; the chart has %q", label, contendedLegend, busy)
	}
	if !Contended(3, 1) || Contended(1, 1) || Contended(1, 0) || Contended(1, 3) {
		t.Error("Contended: want true for wall 3 CPU 1 only of (3,1), (1,1), (1,0), (1,3)")
	}
}
