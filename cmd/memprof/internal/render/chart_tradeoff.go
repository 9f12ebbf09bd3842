package render

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
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
	"Signature": {"aggregate", "verify", "decompress-checked", "decompress", "to-affine"},
	"PublicKey": {"aggregate", "fast-aggregate-verify", "verify", "decompress-checked", "decompress", "to-affine"},
	"SecretKey": {"sign"},
	"G1":        {"aggregate", "to-affine-batch", "to-affine", "decompress-checked", "decompress"},
	"G2":        {"aggregate", "to-affine-batch", "to-affine", "decompress-checked", "decompress"},
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
	sort.Slice(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.Op != b.Op {
			return a.Op < b.Op
		}
		return a.Batch > b.Batch
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

// TradeoffPoint is one library and representation of a type: its bytes per
// instance beside the time of the type's key operation.
type TradeoffPoint struct {
	Series   Series
	Instance model.Result
	Op       model.ThroughputRow
}

// TradeoffPoints pairs the measured instances of typ with the timings of
// op, by library and representation. When a representation was measured
// in several layouts, the pointer layout (how constructors return values)
// is used.
func TradeoffPoints(rs *model.Results, typ model.Type, op KeyOp) []TradeoffPoint {
	var out []TradeoffPoint
	for _, t := range SortedThroughput(rs.Throughput) {
		if t.Type != typ || t.Op != op.Op || t.Batch != op.Batch || t.Error != "" {
			continue
		}
		var match *model.Result
		for i := range rs.Instances {
			r := &rs.Instances[i]
			if r.Type != typ || r.Lib != t.Lib || r.Repr != t.Repr || r.Error != "" {
				continue
			}
			if match == nil || (r.Layout == model.Pointer && match.Layout != model.Pointer) {
				match = r
			}
		}
		if match == nil {
			continue
		}
		out = append(out, TradeoffPoint{Series: SeriesOf(*match), Instance: *match, Op: t})
	}
	return out
}

// TradeoffChart writes, as SVG, bytes per instance of typ against the time
// per operation of its key operation (the median, with a bar from the first
// to the third quartile), one labelled point per library and
// representation. It returns ErrNoData when typ has no timed operation
// that matches a measured instance.
func TradeoffChart(w io.Writer, rs *model.Results, typ model.Type) error {
	op, ok := KeyOpOf(rs, typ)
	if !ok {
		return fmt.Errorf("trade-off chart of %s: no throughput: %w", typ, ErrNoData)
	}
	points := TradeoffPoints(rs, typ, op)
	if len(points) == 0 {
		return fmt.Errorf("trade-off chart of %s: no %s timing matches a measured instance: %w", typ, op, ErrNoData)
	}
	var slowest, biggest float64
	for _, pt := range points {
		slowest = max(slowest, pt.Op.NsPerOpQ3, pt.Op.NsPerOpMedian)
		biggest = max(biggest, pt.Instance.BytesPerInstance)
	}
	unit, div := model.NsScale(slowest)
	p := newPlot(
		string(typ)+": bytes per instance against "+op.String(),
		op.String()+", time per op ("+unit+"): median, bar from Q1 to Q3",
		"bytes per instance (B)",
	)
	p.Add(plotter.NewGrid())
	var pts []point
	for _, pt := range points {
		pts = append(pts, point{x: pt.Op.NsPerOpMedian / div, low: pt.Op.NsPerOpQ1 / div, high: pt.Op.NsPerOpQ3 / div,
			y: pt.Instance.BytesPerInstance, label: pt.Series.Label(), series: pt.Series})
	}
	legend, err := addPoints(p, pts)
	if err != nil {
		return fmt.Errorf("trade-off chart of %s: %w", typ, err)
	}
	p.X.Min, p.X.Max = 0, slowest/div*1.25
	p.Y.Min, p.Y.Max = 0, biggest*1.15
	p.X.Tick.Marker, p.Y.Tick.Marker = roundTicks{}, roundTicks{}
	return writeSVG(w, p, legend, vg.Points(480), vg.Points(340))
}

// point is one labelled point of a scatter chart: its x with a bar from
// low to high (a median and its quartiles), its y, and its series, whose
// library colours it.
type point struct {
	x, low, high, y float64
	label           string
	series          Series
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
		sc.GlyphStyle = draw.GlyphStyle{Color: libColor(pt.series.Lib), Radius: vg.Points(4), Shape: draw.CircleGlyph{}}
		p.Add(sc)
		lbl, err := plotter.NewLabels(plotter.XYLabels{XYs: xy, Labels: []string{pt.label}})
		if err != nil {
			return legend, err
		}
		lbl.TextStyle[0] = text.Style{Font: font.From(sans, 8), Handler: p.Title.TextStyle.Handler}
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
