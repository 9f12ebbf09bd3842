package render

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/results"
)

// TestTradeoffChartContention: the point of a call whose wall time is
// three times its CPU time is labelled with " *" and the legend says
// why; a call whose wall time is its CPU time is not, and a chart with
// no such call has no such line.
func TestTradeoffChartContention(t *testing.T) {
	rs := withThroughput(loadFixture(t))
	quiet := svgTexts(t, drawTwice(t, func(w io.Writer) error { return TradeoffChart(w, rs, "Signature") }))
	if slices.Contains(quiet, contendedLegend) || slices.ContainsFunc(quiet, func(s string) bool { return strings.HasSuffix(s, contendedMark) }) {
		t.Errorf("no call waited, but the chart says one did: %q", quiet)
	}
	i := slices.IndexFunc(rs.Throughput, func(tr results.ThroughputRow) bool { return tr.Type == "Signature" && tr.Error == "" })
	rs.Throughput[i].CPUNsPerOpMedian = rs.Throughput[i].NsPerOpMedian / 3
	busy := svgTexts(t, drawTwice(t, func(w io.Writer) error { return TradeoffChart(w, rs, "Signature") }))
	label := Series{Lib: rs.Throughput[i].Lib, Repr: rs.Throughput[i].Repr, Layout: "pointer"}.Label() + contendedMark
	if !slices.Contains(busy, contendedLegend) || !slices.ContainsFunc(busy, func(s string) bool { return strings.HasSuffix(s, label) }) {
		t.Errorf("one call waited (wall 3 times its CPU): want a label ending %q and the legend line %q; the chart has %q", label, contendedLegend, busy)
	}
	if !Contended(3, 1) || Contended(1, 1) || Contended(1, 0) || Contended(1, 3) {
		t.Error("Contended: want true for wall 3 CPU 1 only of (3,1), (1,1), (1,0), (1,3)")
	}
}
