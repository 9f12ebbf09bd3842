package render

import (
	"context"
	"fmt"
	"io"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// chartFigure is a per-instance time the GC chart plots against bytes per
// instance: the results columns of its median and quartiles (read through
// results.Columns, each cell with its state: a median within its resolution
// is drawn at zero), the chart's title and the axis's words.
type chartFigure struct {
	median, q1, q3 string // column names
	title, axis    string
}

// gcFigure is the GC chart's figure: the CPU time of the collector's
// cycles per instance (not the runtime's mark estimate, which a busy
// machine inflates).
var gcFigure = chartFigure{
	median: "gc_cpu_ns_per_instance", q1: "gc_cpu_ns_per_instance_q1", q3: "gc_cpu_ns_per_instance_q3",
	title: "Bytes per instance against the GC's CPU time (median, bar Q1 to Q3)", axis: "GC CPU time per instance per cycle",
}

// columns returns the figure's columns: median, first and third
// quartiles.
func (f chartFigure) columns() (median, q1, q3 results.Column, err error) {
	for _, c := range []struct {
		name string
		col  *results.Column
	}{{f.median, &median}, {f.q1, &q1}, {f.q3, &q3}} {
		if *c.col, err = results.LookupColumn(c.name); err != nil {
			return median, q1, q3, err
		}
	}
	return median, q1, q3, nil
}

// GCPoints returns the measured instances of rs that carry the GC
// chart's figure, in memprof's order.
func GCPoints(rs *results.File) []results.Row {
	median, _, _, err := gcFigure.columns()
	if err != nil {
		return nil
	}
	var out []results.Row
	for _, r := range rs.Instances {
		if c := median.ReadInstance(&r); r.Error == "" && c.State != results.Unknown && c.State != results.NotApplicable {
			out = append(out, r)
		}
	}
	SortInstances(out)
	return out
}

// GCChart writes, as SVG, bytes per instance against the collector's
// time per instance per cycle (gcFigure: the median, with a bar from the
// first to the third quartile), one point per measured case that has the
// figure, each labelled where its label overlaps nothing (else numbered,
// the legend naming it). A median within its resolution is drawn at zero
// (no time is negative), with its range; an axis whose values span more
// than a factor of 100 is logarithmic, its floor standing for zero: the
// pointer-free forms on it, a heap of pointers far to the right. Labels
// name the type when the chart holds more than one. Of more than
// maxNamedPoints points it names the extreme ones, and its legend counts
// the others. It returns ErrNoData when no case has the figure (a
// results file from before it), and ctx's cause, having written nothing,
// once ctx is done: it looks at ctx at every point.
func GCChart(ctx context.Context, w io.Writer, rs *results.File) error {
	rows := GCPoints(rs)
	if len(rows) == 0 {
		return fmt.Errorf("GC chart: no case has the %s figures: %w", gcFigure.median, ErrNoData)
	}
	median, q1, q3, err := gcFigure.columns()
	if err != nil {
		return fmt.Errorf("GC chart: %w", err)
	}
	types := map[vocab.Type]bool{}
	var times, bytes []float64
	at := func(c results.Cell) float64 {
		if c.State == results.NearZero {
			return 0
		}
		return max(c.Value, 0)
	}
	for _, r := range rows {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		types[r.Type] = true
		times = append(times, at(median.ReadInstance(&r)), at(q3.ReadInstance(&r)))
		bytes = append(bytes, r.BytesPerInstance)
	}
	unit, div := units.NsScale(times...)
	for i := range times {
		times[i] /= div
	}
	xs, ys := scaleFor(times...), scaleFor(bytes...)
	p := newPlot(gcFigure.title, "", "")
	p.Add(plotter.NewGrid())
	var pts []point
	slowest, biggest := 0.0, 0.0
	for _, r := range rows {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		label := SeriesOf(r).Label()
		if len(types) > 1 {
			label = string(r.Type) + " " + label
		}
		x := at(median.ReadInstance(&r)) / div
		low, high := min(x, at(q1.ReadInstance(&r))/div), max(x, at(q3.ReadInstance(&r))/div)
		slowest, biggest = max(slowest, high), max(biggest, r.BytesPerInstance)
		pts = append(pts, point{x: xs.at(x), low: xs.at(low), high: xs.at(high), y: ys.at(r.BytesPerInstance), label: label, series: SeriesOf(r)})
	}
	legend, err := addPoints(ctx, p, pts)
	if err != nil {
		return fmt.Errorf("GC chart: %w", err)
	}
	xs.apply(&p.X, slowest*1.3, gcFigure.axis, unit)
	ys.apply(&p.Y, biggest, "bytes per instance", "B")
	return writeLiveSVG(ctx, w, p, legend, vg.Points(560), vg.Points(400))
}
