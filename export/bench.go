package export

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
	"golang.org/x/perf/benchfmt"
)

// BenchUnits are the units of the instances lines (the Bench units of
// results.Figures' instance figures), with their metadata: the figures are
// exact (a repeated run does not add confidence), and lower is better.
var BenchUnits = benchUnits(results.RowInstances)

// benchFigures are the figures of kind with a unit in the Go benchmark
// format (results.Figure.Bench).
func benchFigures(kind results.RowKind) []*results.Figure {
	return results.FiguresWhere(kind, func(f *results.Figure) bool { return f.Bench != "" })
}

func benchUnits(kind results.RowKind) []string {
	var out []string
	for _, f := range benchFigures(kind) {
		out = append(out, f.Bench)
	}
	return out
}

// benchValues are the values of the figures of row among figs that row
// has, in order.
func benchValues(figs []*results.Figure, row results.FigureRow) []benchfmt.Value {
	var out []benchfmt.Value
	for _, f := range figs {
		if v, ok := f.Value(row); ok {
			out = append(out, benchfmt.Value{Value: v, Unit: f.Bench})
		}
	}
	return out
}

// EstimatedSample is the sample duration Bench assumes for a results file
// written before samples_iters was recorded, to estimate each sample's
// calls: the sampler's default minimum sample duration
// (memprof.DefaultMinSample; a sample lasts at least that, and at most
// about a twentieth longer).
const EstimatedSample = 100 * time.Millisecond

// Bench writes rs in the Go benchmark format, as go test -count=N would
// write it, so that benchstat can compare two runs:
//
//   - configuration lines: goos, goarch, cpu, go, gomaxprocs, cgo, the
//     version of each measured library's module (its module path as key),
//     and machine and commit when the results record them;
//   - one line per measured case, named
//     BenchmarkInstances/type=T/lib=L/repr=R/layout=Y[/scheme=min-sig],
//     with its N as the iteration count and the units B/instance and
//     allocs/instance, which are exact (the "Unit ... assume=exact" lines
//     say so, and benchstat then reports any difference);
//   - one line per sample of each timed operation, named
//     BenchmarkThroughput/type=T/lib=L/repr=R/op=O[/batch=B], with that
//     sample's calls (samples_iters) as the iteration count and its
//     ns/op. benchstat therefore sees every sample and can find a change
//     significant. Every line of an operation has its B/op and
//     allocs/op too, as go test writes them, so that benchstat compares
//     them from as many values as the time: each sample's
//     (samples_bytes_per_op and samples_allocs_per_op,
//     results.Figure.PerSample), or, in a file written before them, the
//     operation's one figure on every line. An operation that allocates
//     the same in every sample of two runs is then "~" (p=1.000) where
//     the figures are equal and a significant change where they differ.
//     The median CPU time per op has no line: the results keep no CPU
//     time per sample, and one value would read as one sample.
//
// For a results file written before samples_iters, each sample's calls
// are estimated as EstimatedSample divided by its ns/op, and a comment
// line says so; one written before samples_bytes_per_op has a comment
// line saying its B/op and allocs/op are one figure, repeated (benchstat's statistics do not read the iteration count).
// An operation row without samples_ns (older still) gets one line holding
// its median, and a comment line says benchstat sees one sample for it.
//
// The result lines are written with benchfmt.Writer. The two unit
// metadata lines ("Unit B/instance assume=exact better=lower") are written
// first (when there are instance lines), each with both keys on one line,
// which benchfmt.Writer cannot do (it writes one key per line);
// benchfmt.Reader reads them back as the same metadata. Failed cases and
// unavailable combinations have no line: the format has no way to say
// "not measured". Two cases with one name are an error
// (ErrAmbiguousNames).
func Bench(w io.Writer, rs *results.File) error {
	if err := checkNames(rs); err != nil {
		return err
	}
	if slices.ContainsFunc(rs.Instances, func(r results.Row) bool { return r.Error == "" }) {
		for _, u := range BenchUnits {
			if _, err := fmt.Fprintf(w, "Unit %s assume=exact better=lower\n", u); err != nil {
				return err
			}
		}
	}
	if err := benchComments(w, rs.Throughput); err != nil {
		return err
	}
	config := benchConfig(rs.Env)
	bw := benchfmt.NewWriter(w)
	for _, r := range sortedInstances(rs) {
		if r.Error != "" {
			continue
		}
		res := &benchfmt.Result{
			Config: config,
			Name:   benchfmt.Name("Instances/" + r.Key.BenchName()),
			Iters:  r.N,
			Values: benchValues(benchFigures(results.RowInstances), &r),
		}
		if err := bw.Write(res); err != nil {
			return err
		}
	}
	for _, t := range sortedThroughput(rs) {
		if t.Error != "" {
			continue
		}
		name := benchfmt.Name("Throughput/" + t.Key.BenchName())
		samples := benchSamples(&t)
		// The time has one line per sample; the other figures (what one
		// call allocates) are on every line too, as go test writes them.
		var others [][]benchfmt.Value
		var time *results.Figure
		for _, f := range benchFigures(results.RowThroughput) {
			if time == nil && sampledTime(f) {
				time = f
				continue
			}
			others = append(others, benchPerLine(f, &t, len(samples)))
		}
		if time == nil {
			return errors.New("export: no figure of an operation's time has a unit in the benchmark format")
		}
		for i, s := range samples {
			res := &benchfmt.Result{
				Config: config,
				Name:   name,
				Iters:  s.iters,
				Values: []benchfmt.Value{{Value: s.ns, Unit: time.Bench}},
			}
			for _, vs := range others {
				if vs != nil {
					res.Values = append(res.Values, vs[i])
				}
			}
			if err := bw.Write(res); err != nil {
				return err
			}
		}
	}
	return nil
}

// benchPerLine is the value of figure f of t on each of t's lines (lines
// of them): each sample's where t records one per sample
// (results.Figure.PerSample), else the operation's on every line (a
// figure the same in every sample, or a file written before the samples'
// figures); nil where t has no value of f (results.Figure.Value: an
// unknown figure is not written, though its samples are recorded).
func benchPerLine(f *results.Figure, t *results.ThroughputRow, lines int) []benchfmt.Value {
	v, ok := f.Value(t)
	if !ok {
		return nil
	}
	out := make([]benchfmt.Value, lines)
	if vs := f.PerSampleOf(t); len(vs) == lines {
		for i, v := range vs {
			out[i] = benchfmt.Value{Value: v, Unit: f.Bench}
		}
		return out
	}
	for i := range out {
		out[i] = benchfmt.Value{Value: v, Unit: f.Bench}
	}
	return out
}

// sampledTime reports whether f is the figure of an operation's lines:
// the median of its timed samples, one line per sample.
func sampledTime(f *results.Figure) bool {
	return f.Summary == measure.SummaryMedian && f.Unit == units.Nanoseconds
}

// benchSample is one line of an operation: its iterations and ns/op.
type benchSample struct {
	iters int
	ns    float64
}

// benchSamples are the lines of an operation: one per sample, with its
// recorded calls or, for a file without them, calls estimated from
// EstimatedSample; one holding the median for a row without samples.
func benchSamples(t *results.ThroughputRow) []benchSample {
	if len(t.SamplesNs) == 0 {
		return []benchSample{{max(t.Samples, 1), t.NsPerOpMedian}}
	}
	out := make([]benchSample, len(t.SamplesNs))
	for i, ns := range t.SamplesNs {
		if len(t.SamplesIters) == len(t.SamplesNs) {
			out[i] = benchSample{int(t.SamplesIters[i]), ns}
		} else {
			out[i] = benchSample{estimatedIters(ns), ns}
		}
	}
	return out
}

// estimatedIters is the calls of a sample of ns per call that lasted
// EstimatedSample: at least one.
func estimatedIters(ns float64) int {
	if !(ns > 0) {
		return 1
	}
	return int(max(1, math.Round(float64(EstimatedSample.Nanoseconds())/ns)))
}

// benchComments writes the comment lines that say where the benchmark
// lines are not what the sampler measured: estimated iteration counts,
// and operations with a single line.
func benchComments(w io.Writer, rows []results.ThroughputRow) error {
	var estimated, single, repeated []string
	for _, t := range rows {
		switch {
		case t.Error != "":
		case len(t.SamplesNs) == 0:
			single = append(single, t.Key.String())
		default:
			if len(t.SamplesIters) != len(t.SamplesNs) {
				estimated = append(estimated, t.Key.String())
			}
			if len(t.SamplesBytesPerOp) != len(t.SamplesNs) || len(t.SamplesAllocsPerOp) != len(t.SamplesNs) {
				repeated = append(repeated, t.Key.String())
			}
		}
	}
	if len(estimated) > 0 {
		if _, err := fmt.Fprintf(w, "# samples_iters not recorded (results written before it): the iteration counts of %s are estimated as %v / the sample's ns/op\n",
			operations(len(estimated)), EstimatedSample); err != nil {
			return err
		}
	}
	if len(repeated) > 0 {
		if _, err := fmt.Fprintf(w, "# samples_bytes_per_op not recorded (results written before it): the B/op and allocs/op of %s are the operation's figure over all samples, on every line\n",
			operations(len(repeated))); err != nil {
			return err
		}
	}
	if len(single) > 0 {
		_, err := fmt.Fprintf(w, "# samples_ns not recorded for %s: one line each, holding the median (benchstat sees one sample): %s\n",
			operations(len(single)), strings.Join(single, ", "))
		return err
	}
	return nil
}

// operations counts operations: "1 operation", "2 operations".
func operations(n int) string {
	if n == 1 {
		return "1 operation"
	}
	return strconv.Itoa(n) + " operations"
}

// benchConfig returns the file configuration of env, in a fixed order.
func benchConfig(env measure.Env) []benchfmt.Config {
	var cfg []benchfmt.Config
	add := func(k, v string) {
		if v = strings.TrimSpace(v); v != "" {
			cfg = append(cfg, benchfmt.Config{Key: k, Value: []byte(v), File: true})
		}
	}
	add("goos", env.GOOS)
	add("goarch", env.GOARCH)
	// The cpu line is go test's, byte for byte (a brand string can end in
	// spaces, which benchfmt.Reader keeps): trimmed, it would put
	// memprof's lines and go test's in two configurations.
	if strings.TrimSpace(env.CPU) != "" {
		cfg = append(cfg, benchfmt.Config{Key: "cpu", Value: []byte(env.CPU), File: true})
	}
	add("go", env.GoVersion)
	if env.GOMAXPROCS > 0 {
		add("gomaxprocs", strconv.Itoa(env.GOMAXPROCS))
	}
	add("cgo", strconv.FormatBool(env.Cgo))
	mods := make([]string, 0, len(env.Modules))
	for m := range env.Modules {
		mods = append(mods, m)
	}
	slices.Sort(mods)
	for _, m := range mods {
		// A config key starts with a lower-case letter and holds no space
		// or upper-case letter; module paths are lower case.
		add(strings.ToLower(m), env.Modules[m])
	}
	add("machine", strings.Join(strings.Fields(env.Machine), "_"))
	add("commit", env.Commit)
	return cfg
}

// sortedInstances returns the instance rows of rs in the one ordering of
// keys (results.Compare); rs is not modified.
func sortedInstances(rs *results.File) []results.Row {
	out := slices.Clone(rs.Instances)
	slices.SortStableFunc(out, func(a, b results.Row) int { return results.Compare(a.Key, b.Key) })
	return out
}

// sortedThroughput returns the operation rows of rs in the one ordering.
func sortedThroughput(rs *results.File) []results.ThroughputRow {
	out := slices.Clone(rs.Throughput)
	slices.SortStableFunc(out, func(a, b results.ThroughputRow) int { return results.Compare(a.Key, b.Key) })
	return out
}
