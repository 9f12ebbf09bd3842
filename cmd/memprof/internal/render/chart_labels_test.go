package render

import (
	"context"
	"io"
	"math"
	"slices"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
	"gonum.org/v1/plot/vg"
)

// withGC returns a copy of rs whose every measured case has GC mark
// figures made up from its position: the pointer-free forms (no scan
// bytes) within their resolution of zero, some of them negative, the
// others a few nanoseconds a cycle, a third of them 0.1 ns apart, so
// that labels crowd where a real run's do.
func withGC(rs *results.File) *results.File {
	c := *rs
	c.Instances = slices.Clone(rs.Instances)
	for i := range c.Instances {
		// A row built anew: every figure present (the fixture predates
		// the GC figures, which its rows record as absent): the mark estimate
		// and the CPU time alike.
		old := c.Instances[i]
		c.Instances[i] = results.Row{Key: old.Key, Constructor: old.Constructor, Measurement: old.Measurement, Error: old.Error}
		r := &c.Instances[i]
		if r.Error != "" {
			continue
		}
		med := float64(i%5) * 0.1
		if i%3 == 0 {
			med = -0.02 * float64(i%4) // within the resolution of 0.1: drawn at 0
		}
		if r.Repr == vocab.Jacobian || r.Repr == vocab.Affine {
			med = 8 + float64(i%3)*0.1
		}
		r.GCMarkSamplesNs = []float64{med - 0.05, med, med + 0.05}
		r.GCMarkNsPerInstance, r.GCMarkNsPerInstanceQ1, r.GCMarkNsPerInstanceQ3 = med, med-0.05, med+0.05
		r.GCMarkResolution, r.ScanResolution = 0.1, 0.01
		r.GCCPUSamplesNs = []float64{med - 0.05, med, med + 0.05}
		r.GCCPUNsPerInstance, r.GCCPUNsPerInstanceQ1, r.GCCPUNsPerInstanceQ3 = med, med-0.05, med+0.05
		r.GCCPUResolution = 0.1
	}
	return &c
}

// withKZG returns a copy of rs with cases from 0 B (a context that keeps
// its setup in C memory) to 131,072 B (a blob), so that the bytes axis
// spans more than a factor of 100.
func withKZG(rs *results.File) *results.File {
	c := *rs
	c.Instances = slices.Clone(rs.Instances)
	for i, b := range []float64{0, 48, 96, 131072, 131096} {
		c.Instances = append(c.Instances, results.Row{Key: results.Key{Type: vocab.Blob, Lib: []vocab.Lib{vocab.CKZG, vocab.GoKZG}[i%2], Repr: vocab.Repr("r" + string(rune('a'+i))), Layout: measure.Pointer},
			Measurement: measure.Measurement{N: 1000, BytesPerInstance: b, AllocsPerInstance: 1}})
	}
	return &c
}

// labelLayers draws a chart and returns the label layers it drew, with
// the area of each.
func labelLayers(t *testing.T, draw func(io.Writer) error) (layers []*labelLayer, areas []vg.Rectangle) {
	t.Helper()
	labelBoxesHook = func(l *labelLayer, area vg.Rectangle) {
		layers, areas = append(layers, l), append(areas, area)
	}
	defer func() { labelBoxesHook = nil }()
	if err := draw(io.Discard); err != nil {
		t.Fatal(err)
	}
	if len(layers) == 0 {
		t.Fatal("the chart drew no labels")
	}
	return layers, areas
}

// TestChartLabelsDoNotOverlap renders every chart from fixtures of many
// cases (the real run's, with GC figures and KZG sizes added) and checks
// that no two labels of a plot overlap, each lies inside the plot, and
// every point is named: by its label, or by a number the legend
// explains.
func TestChartLabelsDoNotOverlap(t *testing.T) {
	rs := withKZG(withGC(withThroughput(loadFixture(t))))
	charts := map[string]func(io.Writer) error{
		"bytes": func(w io.Writer) error { return BytesPerInstanceChart(context.Background(), w, rs) },
		"gc":    func(w io.Writer) error { return GCChart(context.Background(), w, rs) },
	}
	for _, typ := range TypesMeasured(rs) {
		if _, ok := results.TradeoffOf(rs, typ); ok {
			charts["tradeoff "+string(typ)] = func(w io.Writer) error { return TradeoffChart(w, rs, typ) }
		}
	}
	for name, draw := range charts {
		t.Run(name, func(t *testing.T) {
			layers, areas := labelLayers(t, draw)
			for li, l := range layers {
				if len(l.placed) != len(l.items) {
					t.Fatalf("%d placements for %d labels", len(l.placed), len(l.items))
				}
				named := 0
				for i, a := range l.placed {
					if a.text == "" && a.number == 0 {
						t.Errorf("%q is neither labelled nor numbered", l.items[i].text)
					}
					if a.text != "" || a.number > 0 {
						named++
					}
					if a.text == "" {
						continue
					}
					if !inside(a.box, areas[li]) {
						t.Errorf("label %q at %v is outside the plot %v", a.text, a.box, areas[li])
					}
					for j, b := range l.placed[i+1:] {
						if b.text != "" && overlaps(a.box, b.box) {
							t.Errorf("labels %q and %q overlap: %v, %v", a.text, b.text, a.box, l.placed[i+1+j].box)
						}
					}
				}
				if named != len(l.items) {
					t.Errorf("%d of %d points named", named, len(l.items))
				}
			}
		})
	}
}

// TestChartScales: an axis whose positive values span more than a factor
// of 100 is logarithmic, its floor a power of ten below the smallest
// standing for zero; no value is drawn below zero (a figure within its
// resolution is drawn at zero); and the GC chart puts its pointer-free
// forms, whose medians are within their resolution or below zero, on the
// floor of its log axis.
func TestChartScales(t *testing.T) {
	for _, tt := range []struct {
		values []float64
		log    bool
		floor  float64
	}{
		{[]float64{32, 96, 288}, false, 0},
		{[]float64{0, 48, 96, 131072}, true, 10},
		{[]float64{0.2, 13.5, 1600}, true, 0.1},
		{[]float64{100, 20000}, true, 10},
		{[]float64{0, 0}, false, 0},
	} {
		s := scaleFor(tt.values...)
		if s.log != tt.log || math.Abs(s.floor-tt.floor) > 1e-12 {
			t.Errorf("scaleFor(%v) = %+v, want log %v floor %v", tt.values, s, tt.log, tt.floor)
		}
		for _, v := range append(tt.values, -3) {
			if at := s.at(v); at < 0 || s.log && at < s.floor {
				t.Errorf("scaleFor(%v).at(%v) = %v: below the axis", tt.values, v, at)
			}
		}
	}
	rs := withGC(withKZG(loadFixture(t)))
	layers, _ := labelLayers(t, func(w io.Writer) error { return GCChart(context.Background(), w, rs) })
	for _, it := range layers[0].items {
		if it.x < 0 || it.xLow < 0 {
			t.Errorf("%s drawn at %v (bar from %v): negative", it.text, it.x, it.xLow)
		}
	}
	texts := svgTexts(t, drawTwice(t, func(w io.Writer) error { return BytesPerInstanceChart(context.Background(), w, rs) }))
	if !slices.Contains(texts, "bytes per instance (B, log scale, 0 at the floor)") || !slices.Contains(texts, "0") || !slices.Contains(texts, "100000") {
		t.Errorf("bytes chart of 0 to 131,072 B: want a log axis with its floor labelled 0; texts %q", texts)
	}
	for _, s := range texts {
		if slices.Contains([]string{"1e+01", "1e+02", "1e+03", "1e+04", "1e+05"}, s) {
			t.Errorf("tick label %q: ticks are written as figures", s)
		}
	}
}
