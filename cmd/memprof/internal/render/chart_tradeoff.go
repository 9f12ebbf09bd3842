package render

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/memprof/memprof/model"
)

// keyOps lists, per type, the operations whose cost a representation
// changes most, best first (the names are model.Ops): the trade-off
// chart and the report's summary use the first one that was timed.
// Aggregation is where affine and Jacobian storage differ (blst-ts's
// lesson: affine storage pays a conversion per addition); decoding is
// where the compressed encodings pay.
var keyOps = map[model.Type][]model.Op{
	"Signature": {"verify", "aggregate", "decompress-checked", "decompress", "to-affine"},
	"PublicKey": {"verify", "aggregate", "fast-aggregate-verify", "decompress-checked", "decompress", "to-affine"},
	"SecretKey": {"sign"},
	"G1":        {"aggregate", "msm", "to-affine-batch", "to-affine", "decompress-checked", "decompress"},
	"G2":        {"pairing-check", "aggregate", "to-affine-batch", "to-affine", "decompress-checked", "decompress"},
	// secp256k1: an execution client verifies signatures and recovers
	// senders; a key kept compressed or as an address pays at verify.
	model.Secp256k1Signature: {model.Verify, model.Recover, model.RecoverAddress},
	model.Secp256k1PublicKey: {model.Verify, model.ToAddress, model.Decompress},
	model.Secp256k1SecretKey: {model.Sign},
}

// KeyColumn returns the column of t its sentence is about: the first of
// the type's preferred operations (keyOps) among t's columns, else its
// first column.
func KeyColumn(t model.Tradeoff) int {
	for _, op := range keyOps[t.Type] {
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
func ColumnName(c model.TradeoffOp) string {
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
	Op    model.Op
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
// of rs: the first of the type's preferred operations that was timed for
// at least two representations (one when no operation was), else the
// operation timed for the most representations (ties broken by name). For
// an operation timed at several batch sizes it takes the largest. ok is
// false when typ has no timed operation.
func KeyOpOf(rs *model.Results, typ model.Type) (k KeyOp, ok bool) {
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
		for _, op := range keyOps[typ] {
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

// TradeoffChart writes, as SVG, the trade-off of typ (model.TradeoffOf):
// one panel per operation of its table, each with bytes per instance
// against the time of that use from each representation (the median,
// with a bar from the first to the third quartile), one labelled point
// per library and representation; the Pareto-optimal ones are filled. It
// returns ErrNoData when typ has no trade-off table.
func TradeoffChart(w io.Writer, rs *model.Results, typ model.Type) error {
	t, ok := model.TradeoffOf(rs, typ)
	if !ok {
		return fmt.Errorf("trade-off chart of %s: no operation timed from two measured representations: %w", typ, ErrNoData)
	}
	timing := map[tradeoffCell]model.Timing{}
	for _, tr := range rs.Throughput {
		if tr.Type == typ && tr.Error == "" {
			timing[tradeoffCell{tr.Lib, tr.Repr, model.TradeoffOp{Op: tr.Op, Batch: tr.Batch, Param: tr.Param}}] = tr.Timing
		}
	}
	var biggest float64
	for _, r := range t.Rows {
		biggest = max(biggest, r.BytesPerInstance)
	}
	var panels []*plot.Plot
	var libs []model.Lib
	for j, c := range t.Ops {
		p, err := tradeoffPanel(t, j, c, timing, biggest)
		if err != nil {
			return fmt.Errorf("trade-off chart of %s: %w", typ, err)
		}
		panels = append(panels, p)
	}
	for _, r := range t.Rows {
		if !slices.Contains(libs, r.Lib) {
			libs = append(libs, r.Lib)
		}
	}
	legend := newLegend()
	for _, lib := range libsOf(seriesOfLibs(libs)) {
		legend.Add(string(lib), swatch{libColor(lib)})
	}
	legend.Add("filled: Pareto-optimal", swatch{paretoGrey})
	return writePanelsSVG(w, string(typ)+": bytes per instance against the time of each use", panels, legend)
}

// tradeoffCell is one operation from one library and representation.
type tradeoffCell struct {
	lib  model.Lib
	repr model.Repr
	op   model.TradeoffOp
}

// paretoGrey is the legend's swatch for the filled points.
var paretoGrey = rgb(0x555555)

// seriesOfLibs makes the series libsOf orders.
func seriesOfLibs(libs []model.Lib) []Series {
	var out []Series
	for _, l := range libs {
		out = append(out, Series{Lib: l})
	}
	return out
}

// tradeoffPanel is the panel of column j of t: every row timed at it.
func tradeoffPanel(t model.Tradeoff, j int, c model.TradeoffOp, timing map[tradeoffCell]model.Timing, biggest float64) (*plot.Plot, error) {
	var slowest float64
	for _, r := range t.Rows {
		if v := r.NsPerUse[j]; v != nil {
			q3 := timing[tradeoffCell{r.Lib, r.Repr, c}].NsPerOpQ3
			slowest = max(slowest, *v, q3)
		}
	}
	unit, div := model.NsScale(slowest)
	p := newPlot(ColumnName(c), "time per use ("+unit+"): median, bar Q1 to Q3", "bytes per instance (B)")
	setTitleSize(p, 11)
	p.Add(plotter.NewGrid())
	var pts []point
	fastest := slowest
	for _, r := range t.Rows {
		v := r.NsPerUse[j]
		if v == nil {
			continue
		}
		tm := timing[tradeoffCell{r.Lib, r.Repr, c}]
		low, high := *v, *v
		if tm.NsPerOpQ1 > 0 {
			low, high = tm.NsPerOpQ1, tm.NsPerOpQ3
		}
		s := Series{Lib: r.Lib, Repr: r.Repr, Layout: r.Layout}
		pts = append(pts, point{x: *v / div, low: low / div, high: high / div, y: r.BytesPerInstance, label: s.Label(), series: s, ring: !r.Pareto})
		fastest = min(fastest, *v, max(tm.NsPerOpQ1, *v/2))
	}
	if _, err := addPoints(p, pts); err != nil {
		return nil, err
	}
	p.X.Min, p.X.Max = 0, slowest/div*1.3
	p.X.Tick.Marker, p.Y.Tick.Marker = roundTicks{}, roundTicks{}
	// Times a hundred-fold apart (an aggregate from compressed decodes
	// every point) would crowd the fast ones at zero: a log scale then.
	if fastest > 0 && slowest/fastest > 100 {
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{}
		p.X.Min = fastest / div / 1.5
		p.X.Label.Text = "time per use (" + unit + ", log scale): median, bar Q1 to Q3"
	}
	p.Y.Min, p.Y.Max = 0, biggest*1.15
	return p, nil
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

// addPoints draws pts on p, each a dot with its bar and its label, and
// returns the legend of their libraries. Points of equal y sit on one
// line: their labels alternate above and below it, further out the more
// there are, so they do not overlap.
func addPoints(p *plot.Plot, pts []point) (plot.Legend, error) {
	legend := newLegend()
	var seen []Series
	rank := labelRanks(pts)
	for i, pt := range pts {
		xy := plotter.XYs{{X: pt.x, Y: pt.y}}
		eb, err := plotter.NewXErrorBars(struct {
			plotter.XYs
			plotter.XErrors
		}{xy, plotter.XErrors{{Low: max(0, pt.x-pt.low), High: max(0, pt.high-pt.x)}}})
		if err != nil {
			return legend, err
		}
		eb.LineStyle.Color = libColor(pt.series.Lib)
		eb.LineStyle.Width = vg.Points(1)
		p.Add(eb)
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return legend, err
		}
		var shape draw.GlyphDrawer = draw.CircleGlyph{}
		if pt.ring {
			shape = draw.RingGlyph{}
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: libColor(pt.series.Lib), Radius: vg.Points(4), Shape: shape}
		p.Add(sc)
		lbl, err := plotter.NewLabels(plotter.XYLabels{XYs: xy, Labels: []string{pt.label}})
		if err != nil {
			return legend, err
		}
		lbl.TextStyle[0] = labelStyle(p)
		lbl.Offset = vg.Point{X: vg.Points(6), Y: vg.Points(4) + vg.Points(10)*vg.Length(rank[i]/2)}
		if rank[i]%2 == 1 {
			lbl.Offset.Y = -vg.Points(12) - vg.Points(10)*vg.Length(rank[i]/2)
		}
		p.Add(lbl)
		if !slices.Contains(seen, pt.series) {
			seen = append(seen, pt.series)
		}
	}
	for _, lib := range libsOf(seen) {
		legend.Add(string(lib), swatch{libColor(lib)})
	}
	return legend, nil
}

// labelRanks gives each point its rank, by x, among the points of the
// same y.
func labelRanks(points []point) []int {
	ranks := make([]int, len(points))
	for i, p := range points {
		for j, q := range points {
			if j != i && q.y == p.y && (q.x < p.x || q.x == p.x && j < i) {
				ranks[i]++
			}
		}
	}
	return ranks
}

// The size of one panel of a trade-off chart.
const (
	panelWidth  = 400
	panelHeight = 290
)

// writePanelsSVG draws the panels two to a row under title, with the
// legend on the right, and writes them as SVG.
func writePanelsSVG(out io.Writer, title string, panels []*plot.Plot, legend plot.Legend) error {
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
