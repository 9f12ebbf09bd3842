package render

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/cmd/memprof/internal/tabletest"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/stats"
	"github.com/memprof/memprof/vocab"
)

// gcResults holds two PubkeyCache forms with the GC figures: one that
// costs the collector ~0 (pointer-free) and one 13.5 ns per validator; a
// third row, from an older memprof, has none and is left out of the chart.
func gcResults(t *testing.T) *results.File {
	t.Helper()
	row := func(repr vocab.Repr, param results.Param, bytes float64, marks []float64) results.Row {
		r := results.Row{Key: results.Key{Type: vocab.PubkeyCache, Lib: vocab.Gnark, Repr: repr, Layout: measure.Collection, Param: param},
			Measurement: measure.Measurement{N: 1_000_000, BytesPerInstance: bytes, AllocsPerInstance: 1}}
		if marks != nil {
			q, err := stats.SummarizeSamples(marks)
			if err != nil {
				t.Fatal(err)
			}
			r.GCMarkNsPerInstance, r.GCMarkNsPerInstanceQ1, r.GCMarkNsPerInstanceQ3 = q.Median, q.Q1, q.Q3
			r.GCMarkSamplesNs, r.GCMarkResolution, r.ScanResolution = marks, 0.1, 0.008
			r.GCCPUNsPerInstance, r.GCCPUNsPerInstanceQ1, r.GCCPUNsPerInstanceQ3 = q.Median, q.Q1, q.Q3
			r.GCCPUSamplesNs, r.GCCPUResolution = marks, 0.1
		}
		return r
	}
	return &results.File{Schema: results.Schema, Env: measure.Env{GC: measure.GreenTeaGC}, Instances: []results.Row{
		row(vocab.IndexSlice, "", 240, []float64{0.02, -0.01, 0.03, 0, 0.01, 0.05, -0.02}),
		row(vocab.LRU, results.NewParam("population", 100_000), 337, []float64{12.6, 12.9, 13.2, 13.5, 13.8, 14.1, 14.4}),
		row(vocab.MapPointer, "", 230, nil),
	}}
}

// TestGCChart: one labelled point per case with GC figures (the LRU's
// population in its label; the index slice's, within its resolution of
// zero, ~0, the legend saying how it is drawn), deterministic bytes, and
// ErrNoData for results without the figures or with every figure ~0.
func TestGCChart(t *testing.T) {
	rs := gcResults(t)
	texts := svgTexts(t, drawTwice(t, func(w io.Writer) error { return GCChart(context.Background(), w, rs) }))
	for _, want := range []string{"gnark index-slice (collection) ~0", "ring: ~0, bar 0 to its resolution", "gnark lru (collection) population=100000", "Bytes per instance against the GC's CPU time (median, bar Q1 to Q3)"} {
		if !slices.Contains(texts, want) {
			t.Errorf("chart texts %q: want %q", texts, want)
		}
	}
	if slices.Contains(texts, "gnark map-pointer (collection)") {
		t.Errorf("the row without GC figures is charted")
	}
	old := gcResults(t)
	old.Instances = old.Instances[2:]
	if err := GCChart(context.Background(), io.Discard, old); !errors.Is(err, ErrNoData) {
		t.Errorf("results without GC figures: got %v, want ErrNoData", err)
	}
	near := gcResults(t)
	near.Instances = near.Instances[:1]
	if err := GCChart(context.Background(), io.Discard, near); !errors.Is(err, ErrNoData) {
		t.Errorf("results whose every GC figure is ~0: got %v, want ErrNoData", err)
	}
}

// TestParamColumn: rows of one case at several settings (an LRU's
// populations) are told apart in the terminal table by a param column
// (N, one for all, in the heading), in Markdown by their note, which
// names the parameter, and in the CSV by its param column.
func TestParamColumn(t *testing.T) {
	rs := gcResults(t)
	var table, md, csv strings.Builder
	if err := InstancesTableFit(&table, rs, TableOptions{Wide: true}); err != nil {
		t.Fatal(err)
	}
	tables, other := tabletest.Parse(table.String())
	if row, ok := tables[0].Row("lru"); !ok || tables[0].Cell(row, "param") != "population=100000" {
		t.Errorf("table: no param column naming the population:\n%s", table.String())
	}
	if len(other) == 0 || !strings.Contains(other[0], "N=1000000") {
		t.Errorf("table: N is not in the heading:\n%s", table.String())
	}
	if err := Markdown(&md, rs); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "population=100000; n=1000000") {
		t.Errorf("markdown: no note naming the parameter:\n%s", md.String())
	}
	if err := CSV(&csv, rs); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(csv.String(), ",population=100000,") {
		t.Errorf("CSV: no param cell:\n%s", csv.String())
	}
}
