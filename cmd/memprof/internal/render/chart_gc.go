package render

import (
	"context"
	"fmt"
	"io"
	"slices"

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
	median, q1, q3, resolution string // column names
	title, axis                string
}

// gcFigure is the GC chart's figure: the CPU time of the collector's
// cycles per instance (not the runtime's mark estimate, which a busy
// machine inflates).
var gcFigure = chartFigure{
	median: "gc_cpu_ns_per_instance", q1: "gc_cpu_ns_per_instance_q1", q3: "gc_cpu_ns_per_instance_q3", resolution: "gc_cpu_resolution_ns_per_instance",
	title: "Bytes per instance against the GC's CPU time (median, bar Q1 to Q3)", axis: "GC CPU time per instance per cycle",
}

// figureColumns are the columns of a chart's figure.
type figureColumns struct{ median, q1, q3, resolution results.Column }

// columns returns the figure's columns: median, first and third
// quartiles, resolution.
func (f chartFigure) columns() (figureColumns, error) {
	var fc figureColumns
	for _, c := range []struct {
		name string
		col  *results.Column
	}{{f.median, &fc.median}, {f.q1, &fc.q1}, {f.q3, &fc.q3}, {f.resolution, &fc.resolution}} {
		var err error
		if *c.col, err = results.LookupColumn(c.name); err != nil {
			return fc, err
		}
	}
	return fc, nil
}

// resolved reports whether a cell holds a figure beyond its resolution
// (neither ~0 nor unresolved).
func resolved(c results.Cell) bool {
	return c.State != results.NearZero && c.State != results.Unresolved
}

// GCPoints returns the measured instances of rs that carry the GC
// chart's figure, in memprof's order.
func GCPoints(rs *results.File) []results.Row {
	fc, err := gcFigure.columns()
	if err != nil {
		return nil
	}
	var out []results.Row
	for _, r := range rs.Instances {
		if c := fc.median.ReadInstance(&r); r.Error == "" && c.State != results.Unknown && c.State != results.NotApplicable {
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
// the legend naming it). A median within its resolution of zero (~0),
// or one the resolution leaves unresolved, is a ring at zero with a bar
// from zero to the resolution (where the figure may be, no time being
// negative), its label ending in ~0, and the legend says so. An axis whose values span more than a factor of 100 is
// logarithmic, its floor standing for zero: the pointer-free forms on
// it, a heap of pointers far to the right. Labels name the type when the
// chart holds more than one. Of more than maxNamedPoints points it names
// the extreme ones, and its legend counts the others. It returns
// ErrNoData when no case has the figure (a results file from before it)
// or every case's is ~0 (nothing to tell apart), and ctx's cause, having
// written nothing, once ctx is done: it looks at ctx at every point.
func GCChart(ctx context.Context, w io.Writer, rs *results.File) error {
	rows := GCPoints(rs)
	if len(rows) == 0 {
		return fmt.Errorf("GC chart: no case has the %s figures: %w", gcFigure.median, ErrNoData)
	}
	fc, err := gcFigure.columns()
	if err != nil {
		return fmt.Errorf("GC chart: %w", err)
	}
	if !slices.ContainsFunc(rows, func(r results.Row) bool { return resolved(fc.median.ReadInstance(&r)) }) {
		return fmt.Errorf("GC chart: every case's %s is within its resolution of zero: %w", gcFigure.median, ErrNoData)
	}
	// span is where a case's figure lies: its median and quartiles, or,
	// ~0, from zero to the resolution.
	span := func(r *results.Row) (x, low, high float64, near bool) {
		m := fc.median.ReadInstance(r)
		if !resolved(m) {
			res := max(fc.resolution.ReadInstance(r).Value, 0)
			return 0, 0, res, true
		}
		at := func(c results.Cell) float64 {
			if !resolved(c) {
				return 0
			}
			return max(c.Value, 0)
		}
		x = max(m.Value, 0)
		return x, min(x, at(fc.q1.ReadInstance(r))), max(x, at(fc.q3.ReadInstance(r))), false
	}
	types := map[vocab.Type]bool{}
	var times, bytes []float64
	for _, r := range rows {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		types[r.Type] = true
		x, _, high, _ := span(&r)
		times = append(times, x, high)
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
		x, low, high, near := span(&r)
		if near {
			label += " ~0"
		}
		slowest, biggest = max(slowest, high/div), max(biggest, r.BytesPerInstance)
		pts = append(pts, point{x: xs.at(x / div), low: xs.at(low / div), high: xs.at(high / div), y: ys.at(r.BytesPerInstance), label: label, series: SeriesOf(r), ring: near})
	}
	legend, err := addPoints(ctx, p, pts)
	if err != nil {
		return fmt.Errorf("GC chart: %w", err)
	}
	if slices.ContainsFunc(pts, func(pt point) bool { return pt.ring }) {
		legend.add("ring: ~0, bar 0 to its resolution", marker{libStyle{color: paretoGrey}, true})
	}
	xs.apply(&p.X, slowest*1.3, gcFigure.axis, unit)
	ys.apply(&p.Y, biggest, "bytes per instance", "B")
	return writeLiveSVG(ctx, w, p, legend, vg.Points(560), vg.Points(400))
}
