package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/color"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/memprof/memprof/internal/livewriter"
)

// The charts are drawn with gonum.org/v1/plot and written as SVG. They are
// made to be read on a white page and on a dark one alike: each chart fills
// its own white background and has a grey border, so it never relies on
// the page's colour. They are deterministic: the same results give the
// same bytes (no time stamps, no map order), so they diff cleanly.

// ErrNoData is returned by a chart that has nothing to draw.
var ErrNoData = errors.New("nothing to chart")

// Series is one library and representation (and layout, scheme when not
// the defaults): one bar colour, one legend entry, one labelled point.
type Series struct {
	Lib    vocab.Lib
	Repr   vocab.Repr
	Layout measure.Layout
	Scheme vocab.Scheme
	// Param tells apart one case at several settings (c-kzg's
	// precompute=6).
	Param results.Param
}

// Label is the series as the charts and the report name it: "blst affine",
// "gnark jacobian (slice)", "blst affine min-sig".
func (s Series) Label() string {
	l := string(s.Lib) + " " + string(s.Repr)
	if s.Layout != "" && s.Layout != measure.Pointer {
		l += " (" + string(s.Layout) + ")"
	}
	if s.Scheme != "" && s.Scheme != vocab.MinPk {
		l += " " + string(s.Scheme)
	}
	if s.Param != "" {
		l += " " + string(s.Param)
	}
	return l
}

// SeriesOf returns the series a result belongs to.
func SeriesOf(r results.Row) Series {
	return Series{Lib: r.Lib, Repr: r.Repr, Layout: r.Layout, Scheme: r.Scheme, Param: r.Param}
}

// palette is Okabe and Ito's colours, distinguishable with the common
// colour-vision deficiencies, without their yellow (too light on white):
// blue, orange, green, vermillion, sky blue, reddish purple, black.
var palette = []uint32{0x0072B2, 0xE69F00, 0x009E73, 0xD55E00, 0x56B4E9, 0xCC79A7, 0x000000}

// libStyle is how a chart draws a library: a colour of the palette, and
// in which round of it (the libraries past the palette's end take its
// colours again with another marker and bar fill), so that up to
// styleCount libraries each look different.
type libStyle struct {
	color color.Color
	round int // 0: filled disc, solid bar; 1: square, tinted bar; 2: triangle, white bar
}

// styleRounds is how many times the palette is gone round, each with its
// own marker and bar fill; styleCount the libraries told apart.
const (
	styleRounds = 3
	styleCount  = styleRounds * 7
)

// libStyleOf is the style of a library in every chart: the palette's
// colours in the order of vocab.Libs (blst blue, gnark orange, circl
// green, then the KZG libraries'...), with discs and solid bars, then
// again with squares and tinted bars, then triangles and white bars; a
// name not in the vocabulary, or past styleCount, is grey.
func libStyleOf(lib vocab.Lib) libStyle {
	return styleAt(slices.Index(vocab.Libs, lib))
}

// styleAt is the i-th style (i < 0 or past styleCount: grey).
func styleAt(i int) libStyle {
	if i < 0 || i >= styleCount {
		return libStyle{color: rgb(0x999999)}
	}
	return libStyle{color: rgb(palette[i%len(palette)]), round: i / len(palette)}
}

// libColor is the colour of a library in every chart (libStyleOf).
func libColor(lib vocab.Lib) color.Color { return libStyleOf(lib).color }

// barFill is the fill of the style's bars: its colour, a tint of it, or
// white (outlined in its colour).
func (s libStyle) barFill() color.Color {
	switch s.round {
	case 0:
		return s.color
	case 1:
		return tint(s.color, 0.55)
	}
	return white
}

// glyph is the style's marker: filled, or as a ring for a point drawn
// hollow.
func (s libStyle) glyph(hollow bool) draw.GlyphDrawer {
	switch {
	case s.round == 1 && hollow:
		return draw.SquareGlyph{} // gonum's outline of a square
	case s.round == 1:
		return draw.BoxGlyph{} // a filled square
	case s.round == 2 && hollow:
		return draw.TriangleGlyph{} // the outline of a triangle
	case s.round == 2:
		return draw.PyramidGlyph{} // a filled triangle
	case hollow:
		return draw.RingGlyph{}
	}
	return draw.CircleGlyph{}
}

// tint mixes c with white: f of white.
func tint(c color.Color, f float64) color.Color {
	r, g, b, _ := c.RGBA()
	mix := func(v uint32) uint8 { return uint8(float64(v>>8)*(1-f) + 255*f) }
	return color.RGBA{R: mix(r), G: mix(g), B: mix(b), A: 0xff}
}

// libsOf returns the libraries of the given series, in memprof's order.
func libsOf(all []Series) []vocab.Lib {
	var libs []vocab.Lib
	for _, s := range all {
		if !slices.Contains(libs, s.Lib) {
			libs = append(libs, s.Lib)
		}
	}
	slices.SortStableFunc(libs, func(a, b vocab.Lib) int { return results.Compare(results.Key{Lib: a}, results.Key{Lib: b}) })
	return libs
}

func rgb(v uint32) color.Color {
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
}

var (
	white      = color.White
	borderGrey = rgb(0x888888)
	sans       = font.Font{Typeface: "Liberation", Variant: "Sans"}
)

// newPlot returns a plot with memprof's styling: sans-serif text, a white
// background, a light grid.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.BackgroundColor = white
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(sans, 13)
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(sans, 11)
		a.Tick.Label.Font = font.From(sans, 10)
	}
	return p
}

// fitTitle breaks p's title into lines, at spaces, each no wider than
// width, so that a title longer than its chart is drawn inside it.
func fitTitle(p *plot.Plot, width vg.Length) {
	p.Title.Text = wrapText(p.Title.TextStyle, p.Title.Text, width)
}

// wrapText breaks s at spaces into lines no wider than width in style
// sty (a word wider than width alone keeps its own line).
func wrapText(sty text.Style, s string, width vg.Length) string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case sty.Width(line+" "+word) <= width:
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

// labelStyle is the style of a point's label on p.
func labelStyle(p *plot.Plot) text.Style {
	return text.Style{Font: font.From(sans, 8), Handler: p.Title.TextStyle.Handler}
}

// setTitleSize sets the size of p's title (a panel's, smaller than a
// chart's).
func setTitleSize(p *plot.Plot, points vg.Length) { p.Title.TextStyle.Font = font.From(sans, points) }

// newLegend returns a legend in memprof's styling, drawn beside the plot.
func newLegend() plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font = font.From(sans, 10)
	l.Top = true
	l.Left = true
	l.Padding = vg.Points(2)
	return l
}

// chartLegend is a chart's legend, beside the plots: its entries (the
// libraries' colours), then a line for each point whose label is a
// number or could not be placed (the label layers say which, once the
// chart is first drawn).
type chartLegend struct {
	entries []legendEntry
	layers  []*labelLayer
}

type legendEntry struct {
	text  string
	thumb plot.Thumbnailer
}

// add adds an entry.
func (l *chartLegend) add(text string, thumb plot.Thumbnailer) {
	l.entries = append(l.entries, legendEntry{text, thumb})
}

// build returns the legend; all lists every label as if it were a
// number, the widest the legend can be (its width is reserved before
// the labels are placed, so that placing them changes no plot's size).
func (l *chartLegend) build(all bool) plot.Legend {
	leg := newLegend()
	for _, e := range l.entries {
		leg.Add(e.text, e.thumb)
	}
	for _, layer := range l.layers {
		if all {
			layer.choose()
			n := 0
			for i, it := range layer.items {
				if layer.named == nil || layer.named[i] {
					n++
					leg.Add(strconv.Itoa(n) + " " + it.text)
				}
			}
			for _, line := range layer.unnamedLine() {
				leg.Add(line)
			}
			continue
		}
		for _, line := range layer.numbered() {
			leg.Add(line)
		}
	}
	return leg
}

// writeLiveSVG draws p, and the legend to its right, on a white canvas of
// width w and height h with a grey border, and writes it as SVG, until
// ctx is done: from then on it draws nothing more and writes nothing, and
// returns ctx's cause.
func writeLiveSVG(ctx context.Context, out io.Writer, p *plot.Plot, legend *chartLegend, w, h vg.Length) error {
	fitTitle(p, w-vg.Points(16))
	return writeFramedSVG(livewriter.Writer{Ctx: ctx, W: out}, legend, w, h, func(plots draw.Canvas) {
		if ctx.Err() == nil {
			p.Draw(plots)
		}
	})
}

// writeTiledSVG draws frame (its title) over the plots of grid, tiled
// (nil cells left empty), with the legend to the right, on a white canvas
// of width w and height h with a grey border, and writes it as SVG.
func writeTiledSVG(out io.Writer, frame *plot.Plot, grid [][]*plot.Plot, legend *chartLegend, w, h vg.Length) error {
	fitTitle(frame, w-vg.Points(16))
	titleHeight := frame.Title.TextStyle.Height(frame.Title.Text) + frame.Title.Padding + vg.Points(12)
	return writeFramedSVG(out, legend, w, h+titleHeight-vg.Points(28), func(area draw.Canvas) {
		plots := draw.Crop(area, 0, 0, 0, -titleHeight)
		frame.Draw(draw.Crop(area, 0, 0, plots.Max.Y-area.Min.Y, 0))
		tiles := draw.Tiles{Rows: len(grid), Cols: len(grid[0]), PadX: vg.Points(12), PadY: vg.Points(12)}
		canvases := plot.Align(grid, tiles, plots)
		for i := range grid {
			for j, p := range grid[i] {
				if p != nil {
					p.Draw(canvases[i][j])
				}
			}
		}
	})
}

// writeFramedSVG makes a white canvas of width w (and the legend's) and
// height h with a grey border, has drawPlots draw in its area left of the
// legend, draws the legend and writes the canvas as SVG. The plots are
// drawn twice: first on a scratch canvas, which places their labels,
// then, the legend naming the labels that are numbers, for real.
func writeFramedSVG(out io.Writer, legend *chartLegend, w, h vg.Length, drawPlots func(draw.Canvas)) error {
	size := func(l plot.Legend) (vg.Length, vg.Length) {
		r := l.Rectangle(draw.Canvas{})
		if r.Size().X <= 0 {
			return 0, 0
		}
		return r.Size().X + vg.Points(24), r.Size().Y + vg.Points(44)
	}
	// The legend's width is first the widest it can be (every label a
	// number); once the labels are placed, the legend takes the width and
	// the height it needs (a taller chart, whose plots have more room and
	// fewer numbers), and they are placed again, until that holds.
	lw, _ := size(legend.build(true))
	hook := labelBoxesHook
	labelBoxesHook = nil // the scratch drawings' labels are not the chart's
	for range 6 {
		drawFrame(newCanvas(w+lw, h), nil, w, lw, drawPlots)
		needW, needH := size(legend.build(false))
		if needW == lw && needH <= h {
			break
		}
		lw, h = needW, max(h, needH)
		for _, l := range legend.layers {
			l.done = false
		}
	}
	drawFrame(newCanvas(w+lw, h), nil, w, lw, drawPlots) // places any label not placed at this size
	labelBoxesHook = hook
	c := newCanvas(w+lw, h)
	leg := legend.build(false)
	drawFrame(c, &leg, w, max(lw, 0), drawPlots)
	return writeCanvasSVG(out, c)
}

// drawFrame draws on c: the white background, the plots, the legend (if
// not nil) in its width lw right of them, and the grey border.
func drawFrame(c canvas, legend *plot.Legend, w, lw vg.Length, drawPlots func(draw.Canvas)) {
	dc := draw.New(c)
	c.SetColor(white)
	c.Fill(dc.Rectangle.Path())
	inner := draw.Crop(dc, vg.Points(8), -vg.Points(8), vg.Points(8), -vg.Points(8))
	drawPlots(draw.Crop(inner, 0, -lw, 0, 0))
	if lw > 0 && legend != nil {
		la := draw.Crop(inner, w-vg.Points(8), 0, 0, -vg.Points(28))
		legend.Draw(la)
	}
	c.SetColor(borderGrey)
	c.SetLineWidth(vg.Points(1))
	c.Stroke(draw.Crop(dc, vg.Points(0.5), -vg.Points(0.5), vg.Points(0.5), -vg.Points(0.5)).Rectangle.Path())
}

// canvas is what a chart is drawn on: an SVG canvas, or in the tests
// that look at the charts a PNG one.
type canvas interface {
	vg.CanvasSizer
	io.WriterTo
}

// newCanvas returns the canvas the charts are drawn on: SVG. (A test
// replaces it to see the charts as PNG.)
var newCanvas = func(w, h vg.Length) canvas { return vgsvg.New(w, h) }

// writeCanvasSVG writes the finished canvas c (as SVG, unless a test
// made it another format).
func writeCanvasSVG(out io.Writer, c canvas) error {
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return err
	}
	// The fonts are not embedded (that would add some 500 kB per chart).
	// Liberation Sans has Arial's metrics, so naming Arial and Helvetica
	// as fallbacks keeps the text the width the layout was computed for.
	svg := bytes.ReplaceAll(buf.Bytes(), []byte("font-family:Liberation Sans;"), []byte("font-family:'Liberation Sans',Arial,Helvetica,sans-serif;"))
	_, err := out.Write(svg)
	return err
}

// typesOf returns the types with at least one measured instance, in
// memprof's order.
func typesOf(rs *results.File) []vocab.Type {
	var out []vocab.Type
	for _, r := range rs.Instances {
		if r.Error == "" && !slices.Contains(out, r.Type) {
			out = append(out, r.Type)
		}
	}
	slices.SortStableFunc(out, func(a, b vocab.Type) int { return results.Compare(results.Key{Type: a}, results.Key{Type: b}) })
	return out
}

// TypesMeasured returns the types of rs that have at least one measured
// instance, in memprof's order.
func TypesMeasured(rs *results.File) []vocab.Type { return typesOf(rs) }

// BytesPerInstanceChart writes a grouped bar chart of bytes per instance as
// SVG: one group per type, one bar per library and representation (and
// layout). The bars are horizontal, so that every bar carries its name and
// value beside it however many there are; their colour is the library's.
// Where the bytes span more than a factor of 100 (a 131,072-byte blob
// beside a 48-byte commitment) the axis is logarithmic, its floor
// standing for 0 (c-kzg's context keeps no Go heap). Failed cases have no
// bar. It returns ErrNoData when rs has no measured instance, and ctx's
// cause, having written nothing, once ctx is done: it looks at ctx at
// every bar.
func BytesPerInstanceChart(ctx context.Context, w io.Writer, rs *results.File) error {
	types := typesOf(rs)
	if len(types) == 0 {
		return fmt.Errorf("bytes per instance chart: %w", ErrNoData)
	}
	instances := append([]results.Row(nil), rs.Instances...)
	SortInstances(instances)
	groups := make([][]results.Row, len(types))
	total := 0
	var values []float64
	for _, r := range instances {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		if r.Error != "" {
			continue
		}
		for i, t := range types {
			if r.Type == t {
				groups[i] = append(groups[i], r)
				values = append(values, r.BytesPerInstance)
				total++
			}
		}
	}

	// Positions in bar units from the top: each group takes one unit per
	// bar and one unit of gap, the first type on top.
	const gap = 1.0
	barWidth := vg.Points(11)
	unit := barWidth + vg.Points(3)
	sc := scaleFor(values...)
	p := newPlot("Bytes per instance (Go heap, holder excluded)", "", "")
	grid := plotter.NewGrid()
	grid.Horizontal.Color = nil
	p.Add(grid)
	labels := &labelLayer{style: text.Style{Font: font.From(sans, 8), Handler: p.Title.TextStyle.Handler}, ctx: ctx}
	var ticks []plot.Tick
	var series []Series
	biggest := 0.0
	y := float64(total) + gap*float64(len(types)-1)
	for gi, g := range groups {
		top := y
		for _, r := range g {
			if ctx.Err() != nil {
				return context.Cause(ctx)
			}
			s := SeriesOf(r)
			series = append(series, s)
			x := sc.at(r.BytesPerInstance)
			biggest = max(biggest, x)
			p.Add(&hbar{y: y - 0.5, value: x, from: sc.at(0), width: barWidth, style: libStyleOf(r.Lib), ctx: ctx})
			labels.items = append(labels.items, labelItem{x: x, y: y - 0.5, text: s.Label() + ": " + Num(r.BytesPerInstance), color: color.Black, only: true, from: sc.at(0)})
			y--
		}
		ticks = append(ticks, plot.Tick{Value: (top + y) / 2, Label: string(types[gi])})
		y -= gap
	}
	p.Add(labels)
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Tick.Length = 0
	p.Y.Padding = vg.Points(6)
	p.Y.Min, p.Y.Max = -gap/2, float64(total)+gap*float64(len(types)-1)+gap/2
	// Room right of the longest bar for its label.
	sc.apply(&p.X, biggest*1.4, "bytes per instance", "B")
	legend := &chartLegend{layers: []*labelLayer{labels}}
	for _, lib := range libsOf(series) {
		legend.add(string(lib), swatch{libStyleOf(lib)})
	}
	height := vg.Length(float64(total)+gap*float64(len(types)))*unit + vg.Points(90)
	return writeLiveSVG(ctx, w, p, legend, vg.Points(620), height)
}

// hbar is one horizontal bar: from (from, y) to (value, y), width
// points thick, in the library's style (outlineBar); not drawn once
// ctx (if not nil) is done.
type hbar struct {
	y, value, from float64
	width          vg.Length
	style          libStyle
	ctx            context.Context
}

// Plot implements plot.Plotter.
func (b *hbar) Plot(c draw.Canvas, p *plot.Plot) {
	if b.ctx != nil && b.ctx.Err() != nil {
		return
	}
	trX, trY := p.Transforms(&c)
	y := trY(b.y)
	r := vg.Rectangle{Min: vg.Point{X: trX(b.from), Y: y - b.width/2}, Max: vg.Point{X: trX(b.value), Y: y + b.width/2}}
	if r.Max.X <= r.Min.X {
		r.Max.X = r.Min.X + vg.Points(1) // a zero, on the floor: a sliver
	}
	c.SetColor(b.style.barFill())
	c.Fill(r.Path())
	outlineBar(&c, b.style, r)
}

// swatch is a legend thumbnail: a filled square with a grey outline, in
// a library's bar style.
type swatch struct{ style libStyle }

// plainSwatch is a swatch of one colour.
func plainSwatch(c color.Color) swatch { return swatch{libStyle{color: c}} }

func (s swatch) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	side := min(r.Size().X, r.Size().Y)
	sq := draw.Canvas{Canvas: c.Canvas, Rectangle: r}
	sq.Min.X = r.Min.X + (r.Size().X-side)/2
	sq.Max.X = sq.Min.X + side
	sq.Min.Y = r.Min.Y + (r.Size().Y-side)/2
	sq.Max.Y = sq.Min.Y + side
	c.SetColor(s.style.barFill())
	c.Fill(sq.Rectangle.Path())
	outlineBar(c, s.style, sq.Rectangle)
}

// outlineBar strokes the outline of a bar r in style s: thin grey round a
// solid bar, the library's colour round a tinted or white one.
func outlineBar(c *draw.Canvas, s libStyle, r vg.Rectangle) {
	if s.round == 0 {
		c.SetColor(borderGrey)
		c.SetLineWidth(vg.Points(0.5))
	} else {
		c.SetColor(s.color)
		c.SetLineWidth(vg.Points(1.5))
	}
	c.Stroke(r.Path())
}

// marker is a legend thumbnail: a library's marker, filled or hollow.
type marker struct {
	style  libStyle
	hollow bool
}

func (m marker) Thumbnail(c *draw.Canvas) {
	ctr := vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: (c.Min.Y + c.Max.Y) / 2}
	c.DrawGlyph(draw.GlyphStyle{Color: m.style.color, Radius: vg.Points(pointRadius), Shape: m.style.glyph(m.hollow)}, ctr)
}
