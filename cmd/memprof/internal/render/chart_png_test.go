package render

import (
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/memprof/memprof/results"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"
)

var chartsPNG = flag.String("charts.png", "", "write every chart of the tests' fixtures as PNG into `dir`, to look at them")

// pngCanvas makes the charts PNG for the rest of the test.
func pngCanvas(t *testing.T) {
	old := newCanvas
	newCanvas = func(w, h vg.Length) canvas {
		return vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(110))}
	}
	t.Cleanup(func() { newCanvas = old })
}

// TestChartsPNG writes, with -charts.png DIR, every chart of the fixtures
// (and of the results file $MEMPROF_CHART_RESULTS) as PNG, to be looked
// at during development.
func TestChartsPNG(t *testing.T) {
	if *chartsPNG == "" {
		t.Skip("-charts.png DIR writes the charts to look at")
	}
	pngCanvas(t)
	write := func(name string, draw func(io.Writer) error) {
		f, err := os.Create(filepath.Join(*chartsPNG, name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := draw(f); err != nil {
			t.Logf("%s: %v", name, err)
		}
	}
	sets := map[string]*results.File{"fixture": loadFixture(t), "madeup": withThroughput(loadFixture(t)), "gc": gcResults(t)}
	if p := os.Getenv("MEMPROF_CHART_RESULTS"); p != "" {
		rs, err := results.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sets["results"] = rs
	}
	for name, rs := range sets {
		write(name+"-bytes", func(w io.Writer) error { return BytesPerInstanceChart(context.Background(), w, rs) })
		write(name+"-gc", func(w io.Writer) error { return GCChart(context.Background(), w, rs) })
		for _, typ := range TypesMeasured(rs) {
			write(name+"-tradeoff-"+string(typ), func(w io.Writer) error { return TradeoffChart(w, rs, typ) })
		}
	}
}

// TestChartsPNGOfManyCases writes, with -charts.png DIR, the charts of
// TestChartLabelsDoNotOverlap's crowded fixture.
func TestChartsPNGOfManyCases(t *testing.T) {
	if *chartsPNG == "" {
		t.Skip("-charts.png DIR writes the charts to look at")
	}
	pngCanvas(t)
	rs := withKZG(withGC(withThroughput(loadFixture(t))))
	for name, draw := range map[string]func(io.Writer) error{
		"many-bytes":              func(w io.Writer) error { return BytesPerInstanceChart(context.Background(), w, rs) },
		"many-gc":                 func(w io.Writer) error { return GCChart(context.Background(), w, rs) },
		"many-tradeoff-Signature": func(w io.Writer) error { return TradeoffChart(w, rs, "Signature") },
	} {
		f, err := os.Create(filepath.Join(*chartsPNG, name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		if err := draw(f); err != nil {
			t.Error(err)
		}
		f.Close()
	}
}
