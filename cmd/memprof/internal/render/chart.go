package render

import (
	"bytes"
	"errors"
	"image/color"
	"io"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/memprof/memprof/model"
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
	Lib    model.Lib
	Repr   model.Repr
	Layout model.Layout
	Scheme model.Scheme
}

// Label is the series as the charts and the report name it: "blst affine",
// "gnark jacobian (slice)", "blst affine min-sig".
func (s Series) Label() string {
	l := string(s.Lib) + " " + string(s.Repr)
	if s.Layout != "" && s.Layout != model.Pointer {
		l += " (" + string(s.Layout) + ")"
	}
	if s.Scheme != "" && s.Scheme != model.MinPk {
		l += " " + string(s.Scheme)
	}
	return l
}

// SeriesOf returns the series a result belongs to.
func SeriesOf(r model.Result) Series {
	return Series{Lib: r.Lib, Repr: r.Repr, Layout: r.Layout, Scheme: r.Scheme}
}

// libColor is the colour of a library in every chart: Okabe and Ito's
// blue, orange and green, distinguishable with the common colour-vision
// deficiencies and dark enough to read on white. Other names get grey.
func libColor(lib model.Lib) color.Color {
	switch lib {
	case "blst":
		return rgb(0x0072B2)
	case "gnark":
		return rgb(0xE69F00)
	case "circl":
		return rgb(0x009E73)
	}
	return rgb(0x999999)
}

// libsOf returns the libraries of the given series, in memprof's order.
func libsOf(all []Series) []model.Lib {
	var libs []model.Lib
	for _, s := range all {
		if !slices.Contains(libs, s.Lib) {
			libs = append(libs, s.Lib)
		}
	}
	slices.SortStableFunc(libs, func(a, b model.Lib) int { return model.Compare(model.Key{Lib: a}, model.Key{Lib: b}) })
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

// newLegend returns a legend in memprof's styling, drawn beside the plot.
func newLegend() plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font = font.From(sans, 10)
	l.Top = true
	l.Left = true
	l.Padding = vg.Points(2)
	return l
}

// writeSVG draws p, and the legend to its right, on a white canvas of
// width w and height h with a grey border, and writes it as SVG.
func writeSVG(out io.Writer, p *plot.Plot, legend plot.Legend, w, h vg.Length) error {
	var lw vg.Length
	if lr := legend.Rectangle(draw.Canvas{}); lr.Size().X > 0 {
		lw = lr.Size().X + vg.Points(24)
	}
	c := vgsvg.New(w+lw, h)
	dc := draw.New(c)
	c.SetColor(white)
	c.Fill(dc.Rectangle.Path())
	inner := draw.Crop(dc, vg.Points(8), -vg.Points(8), vg.Points(8), -vg.Points(8))
	p.Draw(draw.Crop(inner, 0, -lw, 0, 0))
	if lw > 0 {
		la := draw.Crop(inner, w-vg.Points(8), 0, 0, -vg.Points(28))
		legend.Draw(la)
	}
	c.SetColor(borderGrey)
	c.SetLineWidth(vg.Points(1))
	c.Stroke(draw.Crop(dc, vg.Points(0.5), -vg.Points(0.5), vg.Points(0.5), -vg.Points(0.5)).Rectangle.Path())
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
func typesOf(rs *model.Results) []model.Type {
	var out []model.Type
	for _, r := range rs.Instances {
		if r.Error == "" && !slices.Contains(out, r.Type) {
			out = append(out, r.Type)
		}
	}
	slices.SortStableFunc(out, func(a, b model.Type) int { return model.Compare(model.Key{Type: a}, model.Key{Type: b}) })
	return out
}

// TypesMeasured returns the types of rs that have at least one measured
// instance, in memprof's order.
func TypesMeasured(rs *model.Results) []model.Type { return typesOf(rs) }
