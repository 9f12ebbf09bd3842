package render

import (
	"fmt"
	"image/color"
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/memprof/memprof/model"
)

// BytesPerInstanceChart writes a grouped bar chart of bytes per instance as
// SVG: one group per type, one bar per library and representation (and
// layout). The bars are horizontal, so that every bar carries its name and
// value beside it however many there are; their colour is the library's.
// Failed cases have no bar. It returns ErrNoData when rs has no measured
// instance.
func BytesPerInstanceChart(w io.Writer, rs *model.Results) error {
	types := typesOf(rs)
	if len(types) == 0 {
		return fmt.Errorf("bytes per instance chart: %w", ErrNoData)
	}
	instances := append([]model.Result(nil), rs.Instances...)
	SortInstances(instances)
	groups := make([][]model.Result, len(types))
	total := 0
	for _, r := range instances {
		if r.Error != "" {
			continue
		}
		for i, t := range types {
			if r.Type == t {
				groups[i] = append(groups[i], r)
				total++
			}
		}
	}

	// Positions in bar units from the top: each group takes one unit per
	// bar and one unit of gap, the first type on top.
	const gap = 1.0
	barWidth := vg.Points(11)
	unit := barWidth + vg.Points(3)
	p := newPlot("Bytes per instance (Go heap, holder excluded)", "bytes per instance (B)", "")
	grid := plotter.NewGrid()
	grid.Horizontal.Color = nil
	p.Add(grid)
	var ticks []plot.Tick
	var series []Series
	y := float64(total) + gap*float64(len(types)-1)
	for gi, g := range groups {
		top := y
		for _, r := range g {
			s := SeriesOf(r)
			series = append(series, s)
			bc, err := plotter.NewBarChart(plotter.Values{r.BytesPerInstance}, barWidth)
			if err != nil {
				return fmt.Errorf("bytes per instance chart: %w", err)
			}
			bc.Horizontal = true
			bc.XMin = y - 0.5
			bc.Color = libColor(r.Lib)
			bc.LineStyle.Color = borderGrey
			bc.LineStyle.Width = vg.Points(0.5)
			p.Add(bc)
			lbl, err := plotter.NewLabels(plotter.XYLabels{
				XYs:    plotter.XYs{{X: r.BytesPerInstance, Y: y - 0.5}},
				Labels: []string{s.Label() + ": " + Num(r.BytesPerInstance)},
			})
			if err != nil {
				return fmt.Errorf("bytes per instance chart: %w", err)
			}
			lbl.TextStyle[0] = text.Style{Font: font.From(sans, 8), YAlign: draw.YCenter, Handler: p.Title.TextStyle.Handler}
			lbl.Offset = vg.Point{X: vg.Points(3)}
			p.Add(lbl)
			y--
		}
		ticks = append(ticks, plot.Tick{Value: (top + y) / 2, Label: string(types[gi])})
		y -= gap
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Tick.Length = 0
	p.Y.Padding = vg.Points(6)
	p.Y.Min, p.Y.Max = -gap/2, float64(total)+gap*float64(len(types)-1)+gap/2
	p.X.Min = 0
	legend := newLegend()
	for _, lib := range libsOf(series) {
		legend.Add(string(lib), swatch{libColor(lib)})
	}
	height := vg.Length(float64(total)+gap*float64(len(types)))*unit + vg.Points(90)
	return writeSVG(w, p, legend, vg.Points(620), height)
}

// swatch is a legend thumbnail: a filled square with a grey outline.
type swatch struct{ color color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	side := min(r.Size().X, r.Size().Y)
	sq := draw.Canvas{Canvas: c.Canvas, Rectangle: r}
	sq.Min.X = r.Min.X + (r.Size().X-side)/2
	sq.Max.X = sq.Min.X + side
	sq.Min.Y = r.Min.Y + (r.Size().Y-side)/2
	sq.Max.Y = sq.Min.Y + side
	c.SetColor(s.color)
	c.Fill(sq.Rectangle.Path())
	c.SetColor(borderGrey)
	c.SetLineWidth(vg.Points(0.5))
	c.Stroke(sq.Rectangle.Path())
}
