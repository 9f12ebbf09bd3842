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
	var points []tradeoffPoint
	for _, r := range t.Rows {
		if v := r.NsPerUse[j]; v != nil {
			points = append(points, tradeoffPoint{row: r, ns: *v, timing: timing[tradeoffCell{r.Lib, r.Repr, c}]})
		}
	}
	rank := labelRanks(points)
	for i, pt := range points {
		xy := plotter.XYs{{X: pt.ns / div, Y: pt.row.BytesPerInstance}}
		lowErr, highErr := 0.0, 0.0
		if pt.timing.NsPerOpQ1 > 0 {
			lowErr = max(0, pt.ns-pt.timing.NsPerOpQ1) / div
			highErr = max(0, pt.timing.NsPerOpQ3-pt.ns) / div
		}
		eb, err := plotter.NewXErrorBars(struct {
			plotter.XYs
			plotter.XErrors
		}{xy, plotter.XErrors{{Low: lowErr, High: highErr}}})
		if err != nil {
			return nil, err
		}
		eb.LineStyle.Color = libColor(pt.row.Lib)
		eb.LineStyle.Width = vg.Points(1)
		p.Add(eb)
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return nil, err
		}
		var shape draw.GlyphDrawer = draw.RingGlyph{}
		if pt.row.Pareto {
			shape = draw.CircleGlyph{}
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: libColor(pt.row.Lib), Radius: vg.Points(4), Shape: shape}
		p.Add(sc)
		lbl, err := plotter.NewLabels(plotter.XYLabels{XYs: xy, Labels: []string{Series{Lib: pt.row.Lib, Repr: pt.row.Repr, Layout: pt.row.Layout}.Label()}})
		if err != nil {
			return nil, err
		}
		lbl.TextStyle[0] = labelStyle(p)
		lbl.Offset = vg.Point{X: vg.Points(6), Y: vg.Points(4) + vg.Points(10)*vg.Length(rank[i]/2)}
		if rank[i]%2 == 1 {
			lbl.Offset.Y = -vg.Points(12) - vg.Points(10)*vg.Length(rank[i]/2)
		}
		p.Add(lbl)
	}
	p.X.Min, p.X.Max = 0, slowest/div*1.3
	p.X.Tick.Marker, p.Y.Tick.Marker = roundTicks{}, roundTicks{}
	// Times a hundred-fold apart (an aggregate from compressed decodes
	// every point) would crowd the fast ones at zero: a log scale then.
	fastest := slowest
	for _, pt := range points {
		fastest = min(fastest, pt.ns, max(pt.timing.NsPerOpQ1, pt.ns/2))
	}
	if fastest > 0 && slowest/fastest > 100 {
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{}
		p.X.Min = fastest / div / 1.5
		p.X.Label.Text = "time per use (" + unit + ", log scale): median, bar Q1 to Q3"
	}
	p.Y.Min, p.Y.Max = 0, biggest*1.15
	return p, nil
}

// tradeoffPoint is one row of a panel.
type tradeoffPoint struct {
	row    model.TradeoffRow
	ns     float64
	timing model.Timing
}

// labelRanks gives each point its rank, by time, among the points of the
// same bytes per instance.
func labelRanks(points []tradeoffPoint) []int {
	ranks := make([]int, len(points))
	for i, p := range points {
		for j, q := range points {
			if j != i && q.row.BytesPerInstance == p.row.BytesPerInstance &&
				(q.ns < p.ns || q.ns == p.ns && j < i) {
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
