package export

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"iter"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
)

// streamBuffer is the buffer through which the JSON exports write their
// entries one at a time: what is held of the output at once.
const streamBuffer = 64 << 10

// The figures the dashboards chart are those of results.Figures with a
// Dashboard unit (github-action-benchmark's entry is named by it) or a
// Bencher measure, read with results.Figure.Value: a figure a row lacks (a
// file older than it) has no entry. Each is labelled with how it was
// obtained (its entry's Obtained). The exact per-instance figures have no
// range; a figure read to a resolution (the GC scan bytes and CPU time)
// is Published, with the resolution as its range; an operation's time,
// the median of samples, has its quartiles as its range.

// Published is the figure v of resolution r as the exports write it: 0
// when it is within its resolution of zero, or below zero (a difference
// of readings a little under the baseline), so that a chart never shows
// noise as a figure nor a ratio to it; v otherwise. An exact figure (r of
// 0) is written as it is.
func Published(v, resolution float64) float64 {
	if resolution > 0 && (v < 0 || math.Abs(v) < resolution) {
		return 0
	}
	return v
}

// obtained says how f was obtained in a row where its resolution is res:
// exact, or a reading known to res per instance. It never calls a figure
// with a resolution exact.
func obtained(f *results.Figure, res float64) string {
	if f.Resolution == "" || res <= 0 {
		return "exact: " + f.Obtained
	}
	return f.Obtained + "; resolution " + f.Unit.Format(res) + " per instance"
}

// dashboardFigures are the figures of kind with a Dashboard unit, or
// with a Bencher measure (bencher set), of part.
func dashboardFigures(kind results.RowKind, bencher bool, part Part) []*results.Figure {
	return results.FiguresWhere(kind, func(f *results.Figure) bool {
		return part.Has(f) && (!bencher && f.Dashboard != "" || bencher && f.Bencher != "")
	})
}

// quartilesOf returns the first and third quartiles of the samples f is
// the median of in row, where row has them.
func quartilesOf(f *results.Figure, row results.FigureRow) (q1, q3 float64, ok bool) {
	if f.Summary != measure.SummaryMedian {
		return 0, 0, false
	}
	f1, f3 := f.Sibling(measure.SummaryQ1), f.Sibling(measure.SummaryQ3)
	if f1 == nil || f3 == nil {
		return 0, 0, false
	}
	q1, ok1 := f1.Value(row)
	q3, ok3 := f3.Value(row)
	return q1, q3, ok1 && ok3
}

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

// actionBenchmarkEntries yields the entries of rs for
// github-action-benchmark, one per figure with a Dashboard unit of each
// measured case (bytes and allocations per instance, and the GC scan
// bytes and CPU time where the row has them: Published, with their
// resolution as range) and of each timed operation (its median ns/op), in
// the one ordering of keys, of the figures of part only, one at a time,
// so that a writer need not hold them all.
func actionBenchmarkEntries(rs *results.File, part Part) iter.Seq[ActionBenchmarkEntry] {
	return func(yield func(ActionBenchmarkEntry) bool) {
		machine := ""
		if rs.Env.Machine != "" {
			machine = "; machine " + rs.Env.Machine
		}
		for _, r := range sortedInstances(rs) {
			for _, f := range dashboardFigures(results.RowInstances, false, part) {
				v, ok := f.Value(&r)
				if !ok {
					continue
				}
				res := f.ResolutionOf(&r)
				e := ActionBenchmarkEntry{
					Name:  entryName(r.Key, f.Dashboard),
					Unit:  f.Dashboard,
					Value: Published(v, res),
					Extra: "N=" + strconv.Itoa(r.N) + " instances, " + obtained(f, res) + machine,
				}
				if res > 0 {
					e.Range = "± " + f.Unit.Format(res)
				}
				if !yield(e) {
					return
				}
			}
		}
		for _, t := range sortedThroughput(rs) {
			for _, f := range dashboardFigures(results.RowThroughput, false, part) {
				v, ok := f.Value(&t)
				if !ok {
					continue
				}
				e := ActionBenchmarkEntry{Name: entryName(t.Key, f.Dashboard), Unit: f.Dashboard, Value: v, Extra: strings.TrimPrefix(machine, "; ")}
				if q1, q3, ok := quartilesOf(f, &t); ok {
					e.Range = "Q1–Q3 " + f.Unit.Format(q1) + " – " + f.Unit.Format(q3)
				}
				if f.Summary == measure.SummaryMedian {
					e.Extra = "median of " + samples(t.Samples) + machine
				}
				if !yield(e) {
					return
				}
			}
		}
	}
}

func entryName(k results.Key, unit string) string { return k.BenchName() + " - " + unit }

func samples(n int) string {
	if n == 1 {
		return "1 sample"
	}
	return strconv.Itoa(n) + " samples"
}

func gitHubActionBenchmarkJSON(w io.Writer, rs *results.File, part Part) error {
	if err := checkNames(rs); err != nil {
		return err
	}
	// Written entry by entry, as json.Encoder with SetIndent("", "  ")
	// writes the whole array: a file at the row limit has some hundred
	// thousand entries, which need not be held at once.
	bw := bufio.NewWriterSize(w, streamBuffer)
	var entry bytes.Buffer
	enc := json.NewEncoder(&entry)
	enc.SetIndent("  ", "  ")
	enc.SetEscapeHTML(false)
	n := 0
	for e := range actionBenchmarkEntries(rs, part) {
		entry.Reset()
		if err := enc.Encode(e); err != nil {
			return err
		}
		sep := ",\n  "
		if n == 0 {
			sep = "[\n  "
		}
		bw.WriteString(sep)
		bw.Write(bytes.TrimSuffix(entry.Bytes(), []byte("\n")))
		n++
	}
	if n == 0 && part != All {
		return noFigureOf(part)
	}
	if n == 0 {
		bw.WriteString("[]\n")
	} else {
		bw.WriteString("\n]\n")
	}
	return bw.Flush()
}

// BencherMetric is one measure of one benchmark in Bencher Metric Format:
// its value and, for a time, the quartiles as its bounds; for a figure
// read to a resolution, the value less and plus the resolution, never
// below 0.
type BencherMetric struct {
	Value      float64  `json:"value"`
	LowerValue *float64 `json:"lower_value,omitempty"`
	UpperValue *float64 `json:"upper_value,omitempty"`
}

// BencherMetrics returns rs in Bencher Metric Format: for each measured
// case, by its key's bench name, the measures of its figures with a
// Bencher measure that the row has (bytes-per-instance,
// allocs-per-instance, scan-bytes-per-instance, gc-cpu-ns-per-instance:
// the last two Published, their resolution as bounds); for each timed
// operation, Bencher's built-in latency (ns) with the median as value and
// the first and third quartiles as bounds.
func BencherMetrics(rs *results.File) map[string]map[string]BencherMetric {
	return BencherMetricsOf(rs, All)
}

// BencherMetricsOf is BencherMetrics of the figures of part only: a case
// none of whose figures is of part has no benchmark.
func BencherMetricsOf(rs *results.File, part Part) map[string]map[string]BencherMetric {
	out := map[string]map[string]BencherMetric{}
	for name, r := range bencherRows(rs, part) {
		out[name] = bencherMeasures(r.kind, r.row, part)
	}
	return out
}

// bencherRow is the row a benchmark's measures come from, and its kind.
type bencherRow struct {
	kind results.RowKind
	row  results.FigureRow
}

// bencherRows are the rows of BencherMetricsOf(rs, part), by benchmark
// name: every measured row, or with part only those with a figure of
// it; of two rows of one name, the later in the one ordering.
func bencherRows(rs *results.File, part Part) map[string]bencherRow {
	out := map[string]bencherRow{}
	add := func(kind results.RowKind, k results.Key, row results.FigureRow) {
		if part == All || len(bencherMeasures(kind, row, part)) > 0 {
			out[k.BenchName()] = bencherRow{kind, row}
		}
	}
	instances := sortedInstances(rs)
	for i := range instances {
		if instances[i].Error == "" {
			add(results.RowInstances, instances[i].Key, &instances[i])
		}
	}
	throughput := sortedThroughput(rs)
	for i := range throughput {
		if throughput[i].Error == "" {
			add(results.RowThroughput, throughput[i].Key, &throughput[i])
		}
	}
	return out
}

// bencherMeasures are the measures of row, a row of kind, of part.
func bencherMeasures(kind results.RowKind, row results.FigureRow, part Part) map[string]BencherMetric {
	ms := map[string]BencherMetric{}
	for _, f := range dashboardFigures(kind, true, part) {
		v, ok := f.Value(row)
		if !ok {
			continue
		}
		res := f.ResolutionOf(row)
		m := BencherMetric{Value: Published(v, res)}
		if res > 0 {
			lo, hi := max(m.Value-res, 0), m.Value+res
			m.LowerValue, m.UpperValue = &lo, &hi
		} else if q1, q3, ok := quartilesOf(f, row); ok {
			m.LowerValue, m.UpperValue = &q1, &q3
		}
		ms[f.Bencher] = m
	}
	return ms
}

// bencher writes BencherMetricsOf(rs, part) byte for byte as
// json.Encoder (indented, HTML left alone) writes the map, benchmark by
// benchmark: it holds the names and rows, never the whole output, of a
// file at the row limit.
func bencher(w io.Writer, rs *results.File, part Part) error {
	if err := checkNames(rs); err != nil {
		return err
	}
	rows := bencherRows(rs, part)
	if len(rows) == 0 && part != All {
		return noFigureOf(part)
	}
	bw := bufio.NewWriterSize(w, streamBuffer)
	if len(rows) == 0 {
		bw.WriteString("{}\n")
		return bw.Flush()
	}
	var entry bytes.Buffer
	enc := json.NewEncoder(&entry)
	enc.SetIndent("  ", "  ")
	enc.SetEscapeHTML(false)
	// json.Encoder writes a map's keys in byte order: so does this.
	for i, name := range slices.Sorted(maps.Keys(rows)) {
		sep := ",\n  "
		if i == 0 {
			sep = "{\n  "
		}
		bw.WriteString(sep)
		r := rows[name]
		for j, v := range []any{name, bencherMeasures(r.kind, r.row, part)} {
			entry.Reset()
			if err := enc.Encode(v); err != nil {
				return err
			}
			if j > 0 {
				bw.WriteString(": ")
			}
			bw.Write(bytes.TrimSuffix(entry.Bytes(), []byte("\n")))
		}
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}
