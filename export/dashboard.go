package export

import (
	"encoding/json"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/memprof/memprof/model"
)

// instanceMetric is one figure of an instance row that the dashboards
// chart: its unit (github-action-benchmark's entry is named by it) and
// Bencher measure, how it was obtained (the exports' label), and how to
// read it: the figure, its resolution (0 for an exact figure), and false
// when the row lacks it (a file older than the figure). A new
// per-instance figure is one more line of instanceMetrics.
type instanceMetric struct {
	unit    string
	measure string // Bencher's measure slug
	how     string
	value   func(*model.Result) (v, resolution float64, ok bool)
	format  func(float64) string // the resolution, for labels
}

// instanceMetrics are the figures exported per measured instance case, in
// order: the bytes and objects, exact (a heap profile at MemProfileRate
// 1); the collector's scan bytes and the CPU time of its collections,
// runtime and system readings known to a resolution. The runtime's
// estimate of mark time is not exported: a busy machine inflates it.
var instanceMetrics = []instanceMetric{
	{"B/instance", "bytes-per-instance", "exact (heap profile at MemProfileRate=1)",
		func(r *model.Result) (float64, float64, bool) { return r.BytesPerInstance, 0, true }, nil},
	{"allocs/instance", "allocs-per-instance", "exact (heap profile at MemProfileRate=1)",
		func(r *model.Result) (float64, float64, bool) { return r.AllocsPerInstance, 0, true }, nil},
	{"scan B/instance", "scan-bytes-per-instance", "runtime/metrics /gc/scan/heap:bytes after forced collections, live minus holder",
		func(r *model.Result) (float64, float64, bool) {
			return r.ScanBytesPerInstance, r.ScanResolution, r.ScanResolution > 0
		}, model.FormatBytes},
	{"GC CPU ns/instance", "gc-cpu-ns-per-instance", "the process's CPU time across forced collections (the OS's accounting), median per cycle, live minus holder",
		func(r *model.Result) (float64, float64, bool) {
			return r.GCCPUNsPerInstance, r.GCCPUResolution, len(r.GCCPUSamplesNs) > 0
		}, model.FormatNs},
}

// Published is the figure v of resolution r as the exports write it: 0
// when it is within its resolution of zero, or below zero (a difference of
// readings a little under the baseline), so that a chart never shows
// noise as a figure nor a ratio to it; v otherwise. An exact figure (r of
// 0) is written as it is.
func Published(v, resolution float64) float64 {
	if resolution > 0 && (v < 0 || math.Abs(v) < resolution) {
		return 0
	}
	return v
}

// label is the entry's account of how m was obtained: exact, or read to
// a resolution of r.
func (m instanceMetric) label(r float64) string {
	if m.format == nil {
		return m.how
	}
	return m.how + ", resolution " + m.format(r) + " per instance"
}

// timeUnit is the unit of an operation's time, and latency Bencher's
// built-in measure of it (in nanoseconds).
const (
	timeUnit = "ns/op"
	latency  = "latency"
)

// ActionBenchmarkEntry is one entry of github-action-benchmark's
// customSmallerIsBetter input.
type ActionBenchmarkEntry struct {
	// Name is the case key's bench name and the unit: "type=Signature/
	// lib=blst/repr=affine/layout=pointer - B/instance".
	Name  string  `json:"name"`
	Unit  string  `json:"unit"`
	Value float64 `json:"value"`
	// Range is the first to third quartile of a time, or a reading's
	// resolution (± R); exact figures have none.
	Range string `json:"range,omitempty"`
	// Extra says what the figure is and how it was obtained: N, or the
	// number of samples, the method and any resolution, and the machine
	// when the results name it.
	Extra string `json:"extra,omitempty"`
}

// ActionBenchmarkEntries returns the entries of rs for
// github-action-benchmark, one per figure of each measured case (see
// instanceMetrics; a figure read to a resolution is Published, with the
// resolution as its range) and one per timed operation (its median
// ns/op), in the one ordering of keys.
func ActionBenchmarkEntries(rs *model.Results) []ActionBenchmarkEntry {
	out := []ActionBenchmarkEntry{}
	machine := ""
	if rs.Env.Machine != "" {
		machine = "; machine " + rs.Env.Machine
	}
	for _, r := range sortedInstances(rs) {
		if r.Error != "" {
			continue
		}
		for _, m := range instanceMetrics {
			v, res, ok := m.value(&r)
			if !ok {
				continue
			}
			e := ActionBenchmarkEntry{
				Name:  entryName(r.Key, m.unit),
				Unit:  m.unit,
				Value: Published(v, res),
				Extra: "N=" + strconv.Itoa(r.N) + " instances, " + m.label(res) + machine,
			}
			if res > 0 {
				e.Range = "± " + m.format(res)
			}
			out = append(out, e)
		}
	}
	for _, t := range sortedThroughput(rs) {
		if t.Error != "" {
			continue
		}
		out = append(out, ActionBenchmarkEntry{
			Name:  entryName(t.Key, timeUnit),
			Unit:  timeUnit,
			Value: t.NsPerOpMedian,
			Range: "Q1–Q3 " + model.FormatNs(t.NsPerOpQ1) + " – " + model.FormatNs(t.NsPerOpQ3),
			Extra: "median of " + samples(t.Samples) + machine,
		})
	}
	return out
}

func entryName(k model.Key, unit string) string { return k.BenchName() + " - " + unit }

func samples(n int) string {
	if n == 1 {
		return "1 sample"
	}
	return strconv.Itoa(n) + " samples"
}

// GitHubActionBenchmarkJSON writes ActionBenchmarkEntries(rs) as the JSON
// array github-action-benchmark reads with tool: customSmallerIsBetter.
func GitHubActionBenchmarkJSON(w io.Writer, rs *model.Results) error {
	return writeJSON(w, ActionBenchmarkEntries(rs))
}

// BencherMetric is one measure of one benchmark in Bencher Metric Format:
// its value and, for a time, the quartiles as its bounds, for a figure
// read to a resolution the value less and plus the resolution (never
// below 0).
type BencherMetric struct {
	Value      float64  `json:"value"`
	LowerValue *float64 `json:"lower_value,omitempty"`
	UpperValue *float64 `json:"upper_value,omitempty"`
}

// BencherMetrics returns rs in Bencher Metric Format: for each measured
// case, by its key's bench name, the measures bytes-per-instance and
// allocs-per-instance, and, where the row has them,
// scan-bytes-per-instance and gc-cpu-ns-per-instance (see
// instanceMetrics: Published, with the resolution as the bounds); for
// each timed operation, Bencher's built-in latency (ns) with the median
// as value and the first and third quartiles as bounds.
func BencherMetrics(rs *model.Results) map[string]map[string]BencherMetric {
	out := map[string]map[string]BencherMetric{}
	for _, r := range sortedInstances(rs) {
		if r.Error != "" {
			continue
		}
		ms := map[string]BencherMetric{}
		for _, m := range instanceMetrics {
			v, res, ok := m.value(&r)
			if !ok {
				continue
			}
			bm := BencherMetric{Value: Published(v, res)}
			if res > 0 {
				lo, hi := max(bm.Value-res, 0), bm.Value+res
				bm.LowerValue, bm.UpperValue = &lo, &hi
			}
			ms[m.measure] = bm
		}
		out[r.Key.BenchName()] = ms
	}
	for _, t := range sortedThroughput(rs) {
		if t.Error != "" {
			continue
		}
		q1, q3 := t.NsPerOpQ1, t.NsPerOpQ3
		out[t.Key.BenchName()] = map[string]BencherMetric{latency: {Value: t.NsPerOpMedian, LowerValue: &q1, UpperValue: &q3}}
	}
	return out
}

// Bencher writes BencherMetrics(rs) as JSON (object keys sorted), for
// bencher run --adapter json.
func Bencher(w io.Writer, rs *model.Results) error {
	return writeJSON(w, BencherMetrics(rs))
}

func writeJSON(w io.Writer, v any) error {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := io.WriteString(w, b.String())
	return err
}
