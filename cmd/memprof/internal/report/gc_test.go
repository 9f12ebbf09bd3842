package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/stats"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
)

// TestReadmeGCSummary: the summary gives each case's GC scan and CPU
// time at 1M instances (× 10⁶: MB and ms per cycle), ~0 within the
// figure's resolution and n/a where the results have no GC figures; the
// review holds the GC chart and the environment names the collector.
func TestReadmeGCSummary(t *testing.T) {
	row := func(repr vocab.Repr, scan float64, cpus []float64) results.Row {
		r := results.Row{Key: results.Key{Type: vocab.PubkeyCache, Lib: vocab.Blst, Repr: repr, Layout: measure.Collection},
			Measurement: measure.Measurement{N: 1_000_000, BytesPerInstance: 240, AllocsPerInstance: 1}}
		if cpus != nil {
			q, _ := stats.SummarizeSamples(cpus)
			r.ScanBytesPerInstance, r.ScanResolution = scan, 0.008
			r.GCCPUNsPerInstance, r.GCCPUNsPerInstanceQ1, r.GCCPUNsPerInstanceQ3 = q.Median, q.Q1, q.Q3
			r.GCCPUSamplesNs, r.GCCPUResolution = cpus, 0.2
			// The runtime's estimate, inflated: the summary does not show it.
			r.GCMarkNsPerInstance, r.GCMarkNsPerInstanceQ1, r.GCMarkNsPerInstanceQ3 = 3*q.Median, 3*q.Q1, 3*q.Q3
			r.GCMarkSamplesNs, r.GCMarkResolution = []float64{3 * q.Median}, 0.6
		}
		return r
	}
	rs := &results.File{Schema: results.Schema, Env: measure.Env{GoVersion: "go1.26.8", GC: measure.GreenTeaGC}, Instances: []results.Row{
		row(vocab.IndexSlice, 0.0004, []float64{0.02, -0.01, 0.03, 0, 0.01, 0.05, -0.02}),
		row(vocab.InterfaceMap, 126.04, []float64{12.6, 12.9, 13.2, 13.5, 13.8, 14.1, 14.4}),
		row(vocab.MapPointer, 0, nil),
	}}
	files, err := Render(rs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Cells compared without their padding.
	squeeze := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	readme := squeeze(string(files[0].Data))
	for _, want := range []string{
		"| GC scan MB at 1M instances | GC CPU ms per cycle at 1M instances |",
		"| blst index-slice (collection)     |        240 |              240.0 |    cheapest |                         ~0 |                                ~0 |",
		"| blst interface-map (collection)   |        240 |              240.0 |    cheapest |                      126.0 |                              13.5 |",
		"| blst map-pointer (collection)     |        240 |              240.0 |    cheapest |                        n/a |                               n/a |",
		"](" + GCChart + ")",
		"| garbage collector | greenteagc |",
	} {
		if want = squeeze(want); !strings.Contains(readme, want) {
			t.Errorf("README lacks %q:\n%s", want, readme)
		}
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	if !strings.Contains(strings.Join(names, " "), GCChart) || !isReviewFile(GCChart) {
		t.Errorf("review files %v: want %s, a review file", names, GCChart)
	}
}

// TestTradeoffScan: where the results carry the collector's scan bytes,
// the trade-off table has a scan column with each row's figure, and the
// sentence says what the larger form makes the collector scan more per
// instance and per cycle at 1M instances: the difference of the two rows'
// own figures.
func TestTradeoffScan(t *testing.T) {
	rs := withThroughput(loadFixture(t))
	scan := map[vocab.Repr]float64{}
	for i := range rs.Instances {
		r := &rs.Instances[i]
		if r.Type != "Signature" || r.Error != "" {
			continue
		}
		// Made-up figures that differ by representation.
		results.FigureNamed("scan_bytes_per_instance").Set(r, float64(len(r.Repr)))
		results.FigureNamed("scan_resolution_bytes_per_instance").Set(r, 0.01)
		scan[r.Repr] = r.ScanBytesPerInstance
	}
	tr, ok := results.TradeoffOf(rs, "Signature")
	if !ok {
		t.Fatal("no trade-off for Signature")
	}
	tb := tradeoffTable(tr)
	col := slices.Index(tb.Header, "scan B/instance")
	if col < 0 {
		t.Fatalf("header %q: no scan column", tb.Header)
	}
	for i, r := range tr.Rows {
		if got, want := tb.Rows[i][col], units.FormatFigure(scan[r.Repr]); got != want {
			t.Errorf("%s %s: scan cell %q, want %q", r.Lib, r.Repr, got, want)
		}
	}
	got := tradeoffSentence(rs, tr, builtinKeyOps())
	if !strings.Contains(got, "makes the collector scan") || !strings.Contains(got, "MB per cycle at 1M instances") {
		t.Errorf("sentence %q: want what the larger form costs the collector", got)
	}
}
