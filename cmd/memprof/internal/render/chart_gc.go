package render

import (
	"fmt"
	"io"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/memprof/memprof/model"
)

// GCPoints returns the measured instances of rs that carry the GC CPU
// figures (CPU samples), in memprof's order.
func GCPoints(rs *model.Results) []model.Result {
	var out []model.Result
	for _, r := range rs.Instances {
		if r.Error == "" && len(r.GCCPUSamplesNs) > 0 {
			out = append(out, r)
		}
	}
	SortInstances(out)
	return out
}

// GCChart writes, as SVG, bytes per instance against the CPU time of the
// collector's cycles per instance (the median, with a bar from the first
// to the third quartile), one labelled point per measured case that has
// the GC CPU figures: the pointer-free forms sit at the left edge, near
// 0, where a heap of pointers is far to the right. Labels name the type
// when the chart holds more than one. It returns ErrNoData when no case
// has the figures (a results file from before them).
func GCChart(w io.Writer, rs *model.Results) error {
	rows := GCPoints(rs)
	if len(rows) == 0 {
		return fmt.Errorf("GC chart: no case has GC CPU figures: %w", ErrNoData)
	}
	types := map[model.Type]bool{}
	var slowest, biggest float64
	for _, r := range rows {
		types[r.Type] = true
		slowest = max(slowest, r.GCCPUNsPerInstanceQ3, r.GCCPUNsPerInstance)
		biggest = max(biggest, r.BytesPerInstance)
	}
	unit, div := model.NsScale(slowest)
	p := newPlot(
		"Bytes per instance against the GC's CPU time",
		"GC CPU time per instance per cycle ("+unit+"): median, bar from Q1 to Q3",
		"bytes per instance (B)",
	)
	p.Add(plotter.NewGrid())
	var pts []point
	for _, r := range rows {
		label := SeriesOf(r).Label()
		if len(types) > 1 {
			label = string(r.Type) + " " + label
		}
		pts = append(pts, point{x: r.GCCPUNsPerInstance / div, low: r.GCCPUNsPerInstanceQ1 / div, high: r.GCCPUNsPerInstanceQ3 / div,
			y: r.BytesPerInstance, label: label, series: SeriesOf(r)})
	}
	legend, err := addPoints(p, pts)
	if err != nil {
		return fmt.Errorf("GC chart: %w", err)
	}
	lowest := 0.0
	for _, pt := range pts {
		lowest = min(lowest, pt.low, pt.x)
	}
	p.X.Min, p.X.Max = lowest*1.1, max(slowest/div*1.35, 1e-9)
	p.Y.Min, p.Y.Max = 0, biggest*1.15
	p.X.Tick.Marker, p.Y.Tick.Marker = roundTicks{}, roundTicks{}
	return writeSVG(w, p, legend, vg.Points(560), vg.Points(400))
}
