package export

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"github.com/memprof/memprof/model"
)

// instanceMetric is one figure of an instance row that the dashboards
// chart: its unit (github-action-benchmark's entry is named by it) and
// Bencher measure, and how to read it: the figure, and false when the row
// lacks it (a file older than the figure). A new exact per-instance figure
// is one more line of instanceMetrics.
type instanceMetric struct {
	unit    string
	measure string // Bencher's measure slug
	value   func(*model.Result) (float64, bool)
}

// instanceMetrics are the figures exported per measured instance case, in
// order. They are exact (a heap profile at MemProfileRate 1; the scan
// bytes to their resolution): no range.
var instanceMetrics = []instanceMetric{
	{"B/instance", "bytes-per-instance", func(r *model.Result) (float64, bool) { return r.BytesPerInstance, true }},
	{"allocs/instance", "allocs-per-instance", func(r *model.Result) (float64, bool) { return r.AllocsPerInstance, true }},
	{"scan B/instance", "scan-bytes-per-instance", func(r *model.Result) (float64, bool) {
		return r.ScanBytesPerInstance, r.ScanResolution > 0
	}},
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
	// Range is the first to third quartile of a time; exact figures
	// have none.
	Range string `json:"range,omitempty"`
	// Extra says what the figure is: N, or the number of samples, and
	// the machine when the results name it.
	Extra string `json:"extra,omitempty"`
}

// ActionBenchmarkEntries returns the entries of rs for
// github-action-benchmark, one per figure of each measured case (see
// instanceMetrics) and one per timed operation (its median ns/op), in
// the one ordering of keys.
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
			v, ok := m.value(&r)
			if !ok {
				continue
			}
			out = append(out, ActionBenchmarkEntry{
				Name:  entryName(r.Key, m.unit),
				Unit:  m.unit,
				Value: v,
				Extra: "N=" + strconv.Itoa(r.N) + " instances, exact (heap profile at MemProfileRate=1)" + machine,
			})
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
// its value and, for a time, the quartiles as its bounds.
type BencherMetric struct {
	Value      float64  `json:"value"`
	LowerValue *float64 `json:"lower_value,omitempty"`
	UpperValue *float64 `json:"upper_value,omitempty"`
}

// BencherMetrics returns rs in Bencher Metric Format: for each measured
// case, by its key's bench name, the measures bytes-per-instance,
// allocs-per-instance and, where the row has it, scan-bytes-per-instance
// (see instanceMetrics); for each timed operation,
// Bencher's built-in latency (ns) with the median as value and the first
// and third quartiles as bounds.
func BencherMetrics(rs *model.Results) map[string]map[string]BencherMetric {
	out := map[string]map[string]BencherMetric{}
	for _, r := range sortedInstances(rs) {
		if r.Error != "" {
			continue
		}
		ms := map[string]BencherMetric{}
		for _, m := range instanceMetrics {
			if v, ok := m.value(&r); ok {
				ms[m.measure] = BencherMetric{Value: v}
			}
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
