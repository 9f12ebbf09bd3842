package render

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// KeyOps lists, per type, the operations whose cost a representation
// changes most, best first: KeyColumn and KeyOpOf take the first one that
// was timed. The families give them (suites.Registry.KeyOps).
type KeyOps map[vocab.Type][]vocab.Op

// KeyColumn returns the column of t its sentence is about: the first of
// the preferred operations (keys) of the type whose operations the
// columns are among t's columns, else its first column.
func KeyColumn(t results.Tradeoff, keys KeyOps) int {
	for _, op := range keys[t.OpType()] {
		for i, c := range t.Ops {
			if c.Op == op {
				return i
			}
		}
	}
	return 0
}

// ColumnName names a column of a trade-off table for a reader: "verify",
// "aggregate (batch 128)", "msm (batch 64, tasks=1)".
func ColumnName(c results.TradeoffOp) string {
	var extra []string
	if c.Batch > 1 {
		extra = append(extra, "batch "+strconv.Itoa(c.Batch))
	}
	if c.Param != "" {
		extra = append(extra, string(c.Param))
	}
	if len(extra) == 0 {
		return string(c.Op)
	}
	return string(c.Op) + " (" + strings.Join(extra, ", ") + ")"
}

// KeyOp is the operation a type's trade-off is judged on, with its batch.
type KeyOp struct {
	Op    vocab.Op
	Batch int
}

// String names the operation for a reader: "aggregate (batch 128)".
func (k KeyOp) String() string {
	if k.Batch > 1 {
		return string(k.Op) + " (batch " + strconv.Itoa(k.Batch) + ")"
	}
	return string(k.Op)
}

// KeyOpOf chooses the key operation of typ among the timed throughput rows
// of rs: the first of the type's preferred operations (keys) that was timed for
// at least two representations (one when no operation was), else the
// operation timed for the most representations (ties broken by name). For
// an operation timed at several batch sizes it takes the largest. ok is
// false when typ has no timed operation.
func KeyOpOf(rs *results.File, typ vocab.Type, keys KeyOps) (k KeyOp, ok bool) {
	count := map[KeyOp]int{}
	for _, t := range rs.Throughput {
		if t.Type == typ && t.Error == "" && t.NsPerOpMedian > 0 {
			count[KeyOp{t.Op, t.Batch}]++
		}
	}
	if len(count) == 0 {
		return KeyOp{}, false
	}
	var cands []KeyOp
	for c := range count {
		cands = append(cands, c)
	}
	slices.SortFunc(cands, func(a, b KeyOp) int {
		if a.Op != b.Op {
			return strings.Compare(string(a.Op), string(b.Op))
		}
		return b.Batch - a.Batch
	})
	for _, need := range []int{2, 1} {
		for _, op := range keys[typ] {
			for _, c := range cands {
				if c.Op == op && count[c] >= need {
					return c, true
				}
			}
		}
	}
	best := cands[0]
	for _, c := range cands[1:] {
		if count[c] > count[best] {
			best = c
		}
	}
	return best, true
}

// TradeoffChart writes, as SVG, the trade-off of typ (results.TradeoffOf):
// one panel per operation of its table, each with bytes per instance
// against the time of that use from each representation (the median,
// with a bar from the first to the third quartile), one labelled point
// per library and representation; the Pareto-optimal ones are filled, and
// the label of one whose call waited for a CPU (Contended) ends in " *",
// the legend saying so. It returns ErrNoData when typ has no trade-off
// table.
func TradeoffChart(w io.Writer, rs *results.File, typ vocab.Type) error {
	t, ok := results.TradeoffOf(rs, typ)
	if !ok {
		return fmt.Errorf("trade-off chart of %s: no operation timed from two measured representations: %w", typ, ErrNoData)
	}
	timing := map[tradeoffCell]measure.Timing{}
	for _, tr := range rs.Throughput {
		if tr.Type == typ && tr.Error == "" {
			timing[tradeoffCell{tr.Lib, tr.Repr, results.TradeoffOp{Op: tr.Op, Batch: tr.Batch, Param: tr.Param}}] = tr.Timing
		}
	}
	var biggest float64
	for _, r := range t.Rows {
		biggest = max(biggest, r.BytesPerInstance)
	}
	// One time unit for every panel: that of the slowest time drawn.
	var slowest float64
	for j, c := range t.Ops {
		for _, r := range t.Rows {
			if v := r.NsPerUse[j]; v != nil {
				slowest = max(slowest, *v, timing[tradeoffCell{r.Lib, r.Repr, c}].NsPerOpQ3)
			}
		}
	}
	unit, div := units.NsScale(slowest)
	var panels []*plot.Plot
	var libs []vocab.Lib
	panelLabels := map[*plot.Plot]*labelLayer{}
	for j, c := range t.Ops {
		p, labels, err := tradeoffPanel(t, j, c, timing, biggest, unit, div)
		if err != nil {
			return fmt.Errorf("trade-off chart of %s: %w", typ, err)
		}
		panels = append(panels, p)
		panelLabels[p] = labels
	}
	for _, r := range t.Rows {
		if !slices.Contains(libs, r.Lib) {
			libs = append(libs, r.Lib)
		}
	}
	legend := &chartLegend{}
	for _, lib := range libsOf(seriesOfLibs(libs)) {
		legend.add(string(lib), marker{libStyleOf(lib), false})
	}
	legend.add("filled: Pareto-optimal", plainSwatch(paretoGrey))
	contended := false
	for j, c := range t.Ops {
		for _, r := range t.Rows {
			tm := timing[tradeoffCell{r.Lib, r.Repr, c}]
			contended = contended || r.NsPerUse[j] != nil && Contended(*r.NsPerUse[j], tm.CPUNsPerOpMedian)
		}
	}
	if contended {
		legend.add(contendedLegend, plainSwatch(white))
	}
	for _, p := range panels {
		legend.layers = append(legend.layers, panelLabels[p])
	}
	return writePanelsSVG(w, string(typ)+": bytes per instance against the time of each use (median, bar Q1 to Q3)", panels, legend)
}

// Contention is the ratio of a call's wall time to its CPU time from
// which the trade-offs flag it: a call that runs on one thread, and the
// garbage collector's work it causes, take about as much wall time as CPU
// time on a quiet machine (a call on several threads takes less), so half
// again as much says it waited for a CPU.
const Contention = 1.5

// Contended reports whether a call of wall ns and cpu ns waited for a CPU
// (Contention).
func Contended(wall, cpu float64) bool { return cpu > 0 && wall >= Contention*cpu }

// contendedMark ends the label of a point whose call waited for a CPU;
// contendedLegend says so.
const contendedMark = " *"

var contendedLegend = "*: wall time at least " + strconv.FormatFloat(Contention, 'g', -1, 64) + " times the CPU time (waited for a CPU)"

// tradeoffCell is one operation from one library and representation.
type tradeoffCell struct {
	lib  vocab.Lib
	repr vocab.Repr
	op   results.TradeoffOp
}

// paretoGrey is the legend's swatch for the filled points.
var paretoGrey = rgb(0x555555)

// seriesOfLibs makes the series libsOf orders.
func seriesOfLibs(libs []vocab.Lib) []Series {
	var out []Series
	for _, l := range libs {
		out = append(out, Series{Lib: l})
	}
	return out
}

// tradeoffPanel is the panel of column j of t: every row timed at it,
// its times in unit (div nanoseconds), and the layer of its labels. An
// axis whose values span more than a factor of 100 (an aggregate from
// compressed decodes every point) is logarithmic.
func tradeoffPanel(t results.Tradeoff, j int, c results.TradeoffOp, timing map[tradeoffCell]measure.Timing, biggest float64, unit string, div float64) (*plot.Plot, *labelLayer, error) {
	var slowest float64
	var times, bytes []float64
	for _, r := range t.Rows {
		if v := r.NsPerUse[j]; v != nil {
			tm := timing[tradeoffCell{r.Lib, r.Repr, c}]
			slowest = max(slowest, *v, tm.NsPerOpQ3)
			times = append(times, *v, max(tm.NsPerOpQ1, 0), tm.NsPerOpQ3)
			bytes = append(bytes, r.BytesPerInstance)
		}
	}
	for i := range times {
		times[i] /= div
	}
	xs, ys := scaleFor(times...), scaleFor(bytes...)
	p := newPlot(ColumnName(c), "", "")
	setTitleSize(p, 11)
	p.Add(plotter.NewGrid())
	var pts []point
	for _, r := range t.Rows {
		v := r.NsPerUse[j]
		if v == nil {
			continue
		}
		tm := timing[tradeoffCell{r.Lib, r.Repr, c}]
		low, high := *v, *v
		if tm.NsPerOpQ1 > 0 {
			low, high = min(*v, tm.NsPerOpQ1), max(*v, tm.NsPerOpQ3)
		}
		s := Series{Lib: r.Lib, Repr: r.Repr, Layout: r.Layout}
		label := s.Label()
		if Contended(*v, tm.CPUNsPerOpMedian) {
			label += contendedMark
		}
		pts = append(pts, point{x: xs.at(*v / div), low: xs.at(low / div), high: xs.at(high / div), y: ys.at(r.BytesPerInstance), label: label, series: s, ring: !r.Pareto})
	}
	legend, err := addPoints(context.Background(), p, pts)
	if err != nil {
		return nil, nil, err
	}
	xs.apply(&p.X, slowest/div*1.3, "time per use", unit)
	ys.apply(&p.Y, biggest, "bytes per instance", "B")
	return p, legend.layers[0], nil
}

// point is one labelled point of a scatter chart: its x with a bar from
// low to high (a median and its quartiles), its y, and its series, whose
// library colours it; a ring instead of a dot when ring is set (a
// trade-off point that is not Pareto-optimal).
type point struct {
	x, low, high, y float64
	label           string
	series          Series
	ring            bool
}

// pointRadius is the radius of a scatter chart's points.
const pointRadius = 4

// maxNamedPoints is the most points a scatter chart names (by a label,
// a number or a line of its legend): a legend longer than the plot is
// tall names nothing a reader finds. Beyond it, the extreme points are
// named and the legend counts the rest.
const maxNamedPoints = 60

// addPoints draws pts on p, each a dot with its bar, and their labels
// (a labelLayer places them where they overlap nothing, and stops
// placing once ctx is done), and returns the chart's legend: the
// libraries of the points and the labels' layer. It returns ctx's cause
// once ctx is done.
func addPoints(ctx context.Context, p *plot.Plot, pts []point) (*chartLegend, error) {
	var seen []Series
	seenSet := map[Series]bool{}
	labels := &labelLayer{style: labelStyle(p), radius: vg.Points(pointRadius), limit: maxNamedPoints, ctx: ctx}
	for _, pt := range pts {
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		xy := plotter.XYs{{X: pt.x, Y: pt.y}}
		eb, err := plotter.NewXErrorBars(struct {
			plotter.XYs
			plotter.XErrors
		}{xy, plotter.XErrors{{Low: max(0, pt.x-pt.low), High: max(0, pt.high-pt.x)}}})
		if err != nil {
			return nil, err
		}
		eb.LineStyle.Color = libColor(pt.series.Lib)
		eb.LineStyle.Width = vg.Points(1)
		p.Add(liveErrorBars{eb, ctx})
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return nil, err
		}
		st := libStyleOf(pt.series.Lib)
		sc.GlyphStyle = draw.GlyphStyle{Color: st.color, Radius: vg.Points(pointRadius), Shape: st.glyph(pt.ring)}
		p.Add(liveScatter{sc, ctx})
		labels.items = append(labels.items, labelItem{x: pt.x, y: pt.y, xLow: pt.low, xHigh: pt.high, text: pt.label, color: libColor(pt.series.Lib)})
		if !seenSet[pt.series] {
			seenSet[pt.series] = true
			seen = append(seen, pt.series)
		}
	}
	p.Add(labels)
	legend := &chartLegend{layers: []*labelLayer{labels}}
	for _, lib := range libsOf(seen) {
		legend.add(string(lib), marker{libStyleOf(lib), false})
	}
	return legend, nil
}

// liveScatter and liveErrorBars draw a point's dot and bar (and range
// the axes, and pad them for the dot, as the plotter they hold does)
// until ctx is done, and nothing after: a chart of many points stops
// drawing at an interrupt.
type liveScatter struct {
	*plotter.Scatter
	ctx context.Context
}

func (s liveScatter) Plot(c draw.Canvas, p *plot.Plot) {
	if s.ctx.Err() == nil {
		s.Scatter.Plot(c, p)
	}
}

type liveErrorBars struct {
	*plotter.XErrorBars
	ctx context.Context
}

func (b liveErrorBars) Plot(c draw.Canvas, p *plot.Plot) {
	if b.ctx.Err() == nil {
		b.XErrorBars.Plot(c, p)
	}
}

// The size of one panel of a trade-off chart.
const (
	panelWidth  = 400
	panelHeight = 290
)

// writePanelsSVG draws the panels two to a row under title, with the
// legend on the right, and writes them as SVG.
func writePanelsSVG(out io.Writer, title string, panels []*plot.Plot, legend *chartLegend) error {
	cols := min(2, len(panels))
	rows := (len(panels) + cols - 1) / cols
	grid := make([][]*plot.Plot, rows)
	for i := range grid {
		grid[i] = make([]*plot.Plot, cols)
	}
	for i, p := range panels {
		grid[i/cols][i%cols] = p
	}
	frame := newPlot(title, "", "")
	frame.HideAxes()
	return writeTiledSVG(out, frame, grid, legend, vg.Points(panelWidth)*vg.Length(cols), vg.Points(panelHeight)*vg.Length(rows)+vg.Points(36))
}
