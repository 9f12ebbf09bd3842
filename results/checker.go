package results

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/stats"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
)

type checker struct {
	probs []Problem
	path  string
	label string
}

func (c *checker) at(path, label string) { c.path, c.label = path, label }

func (c *checker) add(format string, a ...any) {
	c.probs = append(c.probs, Problem{Path: c.path, Case: c.label, Msg: fmt.Sprintf(format, a...)})
}

// name checks a name field: required (when required is set) and known.
func checkName[T vocab.Name](c *checker, key string, v T, valid []T, required bool) {
	switch {
	case v == "":
		if required {
			c.add("%s is missing", key)
		}
	case !vocab.Known(v, valid):
		c.add("unknown %s %q: valid %ss are %s", key, string(v), key, vocab.Join(valid))
	}
}

// key checks the names of a case's key; op says whether it is an
// operation's.
func (c *checker) key(k Key, op bool) {
	checkName(c, "type", k.Type, vocab.Types, true)
	checkName(c, "lib", k.Lib, vocab.Libs, true)
	checkName(c, "repr", k.Repr, vocab.Reprs, true)
	if op {
		checkName(c, "layout", k.Layout, measure.Layouts, false)
		checkName(c, "op", k.Op, vocab.Ops, true)
	} else {
		checkName(c, "layout", k.Layout, measure.Layouts, true)
		checkName(c, "op", k.Op, vocab.Ops, false)
	}
	checkName(c, "scheme", k.Scheme, vocab.Schemes, false)
	if k.Scheme != "" && vocab.Known(k.Type, vocab.Types) && !k.Type.HasScheme() {
		var with []vocab.Type
		for _, t := range vocab.Types {
			if t.HasScheme() {
				with = append(with, t)
			}
		}
		c.add("%s has no scheme, but the row says scheme %q: only %s have one", k.Type, string(k.Scheme), vocab.Join(with))
	}
	if why := k.FamilyMismatch(); why != "" {
		c.add("%s", why)
	}
	if err := k.Param.Check(); err != nil {
		c.add("%v", err)
	}
}

// nonNegative checks a figure that cannot be below zero.
func (c *checker) nonNegative(key string, v float64) {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		c.add("%s is %v, want a finite number", key, v)
	case v < 0:
		c.add("%s is %s, want a non-negative number", key, fmtFloat(v))
	}
}

// finite checks a figure that may be negative (a difference of readings).
func (c *checker) finite(key string, v float64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		c.add("%s is %v, want a finite number", key, v)
	}
}

// presence reports the figures of a measured row that are not numbers,
// and the Required ones it lacks (missing, or null).
func (c *checker) presence(row FigureRow) {
	_, st, _ := row.figureRow()
	for _, f := range rowFigures(row) {
		if i := slices.IndexFunc(st.bad, func(b badFigure) bool { return b.f == f }); i >= 0 {
			c.add("%s is %s, want %s", f.Name, st.bad[i].text, st.bad[i].want)
			continue
		}
		switch {
		case !f.Required:
		case st.null.has(f):
			c.add("%s is null", f.Name)
		case st.absent.has(f):
			c.add("%s is missing", f.Name)
		}
	}
}

// ranges checks every figure a measured row has: finite, and not below 0
// unless the figure is Signed.
func (c *checker) ranges(row FigureRow) {
	rv, st, _ := row.figureRow()
	for _, f := range rowFigures(row) {
		if st.absent.has(f) {
			continue
		}
		v, ok := f.raw(rv)
		switch {
		case !ok:
		case f.Signed:
			c.finite(f.Name, v)
		default:
			c.nonNegative(f.Name, v)
		}
	}
}

// resolutions checks each resolution of a measured instance row that the
// engine bounds (Figure.ResolutionBounds): not above the most it writes
// at the row's n, so that a resolution cannot widen a figure's warning
// band past what memprof can measure.
func (c *checker) resolutions(r *Row) {
	for _, f := range instanceFigures {
		b, ok := f.ResolutionBounds(r)
		if !ok {
			continue
		}
		if v, known := f.Value(r); known && v > b.Most {
			c.add("%s is %s, wider than memprof writes at n %d: at most %s", f.Name, fmtFloat(v), r.N, units.FormatBytes(b.Most))
		}
	}
}

// summaries checks each list of samples of a measured row and the figures
// that summarize it: every sample finite (and not below 0 unless its
// figures are Signed), and each summary the statistic of the samples
// (SummarizeSamples) it says it is, so that every reader judges the same
// figure; a summary that needs its samples is 0 without them. also, when
// set, checks more of a list of samples of the row's own (their count)
// before the summaries are.
func (c *checker) summaries(row FigureRow, also func()) {
	rv, st, _ := row.figureRow()
	figs := rowFigures(row)
	var lists []string
	for _, f := range figs {
		if f.Samples != "" && !slices.Contains(lists, f.Samples) {
			lists = append(lists, f.Samples)
		}
	}
	for _, list := range lists {
		var summary []*Figure
		signed := false
		for _, f := range figs {
			if f.Samples == list && f.Summary != measure.SummaryNone {
				summary = append(summary, f)
				signed = signed || f.Signed
			}
		}
		if len(summary) == 0 {
			continue
		}
		samples := summary[0].samples(rv)
		before := len(c.probs)
		for j, s := range samples {
			key := fmt.Sprintf("%s[%d]", list, j)
			if signed {
				c.finite(key, s)
			} else {
				c.nonNegative(key, s)
			}
		}
		if len(c.probs) > before {
			continue
		}
		if len(samples) == 0 {
			for _, f := range summary {
				if v, ok := f.raw(rv); ok && f.NeedsSamples && !st.absent.has(f) && v != 0 {
					c.add("%s is %s without %s: the summary must be that of its samples", f.Name, fmtFloat(v), list)
					break
				}
			}
			continue
		}
		if also != nil && list == nsMedian.Samples {
			also()
		}
		// The summary must be that of the samples: check and compare
		// judge the samples, reports print the summary.
		q, err := stats.SummarizeSamples(samples)
		if err != nil {
			c.add("%s: %v", list, err)
			continue
		}
		for _, f := range summary {
			v, ok := f.raw(rv)
			if !ok || st.absent.has(f) || math.IsNaN(v) || math.IsInf(v, 0) || !f.Signed && v < 0 {
				continue // reported above
			}
			if want := f.Summary.Of(q.Q1, q.Median, q.Q3); !closeTo(v, want) {
				got := "is " + fmtFloat(v)
				if st.omitted.has(f) {
					got = "is missing"
				}
				c.add("%s %s, but the %s give %s", f.Name, got, list, fmtFloat(want))
			}
		}
	}
}

// rowFigures returns the figures of row's kind.
func rowFigures(row FigureRow) []*Figure {
	if _, ok := row.(*Row); ok {
		return instanceFigures
	}
	return throughputFigures
}

// checkOpCost checks a row's allocation sites: each names its function
// and allocates a non-negative, finite amount (what no site explains,
// UnattributedSite, a finite one); sites come with the number of calls
// they were profiled over.
func (c *checker) checkOpCost(o *OpCost) {
	if o.SitesCalls < 0 {
		c.add("sites_calls is %d, want a non-negative number", o.SitesCalls)
	}
	if len(o.Sites) > 0 && o.SitesCalls == 0 {
		c.add("sites without sites_calls: the number of calls they were profiled over is missing")
	}
	for j, st := range o.Sites {
		if strings.TrimSpace(st.Function) == "" {
			c.add("sites[%d].function is missing", j)
		}
		if st.Line < 0 {
			c.add("sites[%d].line is %d, want a non-negative number", j, st.Line)
		}
		check := c.nonNegative
		if st.Function == measure.UnattributedSite {
			check = c.finite // what the sites leave of B/op, more or less
		}
		check(fmt.Sprintf("sites[%d].bytes_per_op", j), st.BytesPerOp)
		check(fmt.Sprintf("sites[%d].allocs_per_op", j), st.AllocsPerOp)
	}
}

// attributed checks a measured row's attributed_n (absent in files
// written before it): a positive number of instances, at most n.
func (c *checker) attributed(m *measure.Measurement) {
	switch {
	case m.AttributedN == 0:
	case m.AttributedN < 0:
		c.add("attributed_n is %d, want a positive number of instances", m.AttributedN)
	case m.AttributedN > m.N:
		c.add("attributed_n is %d, more than the row's n %d: the sites come from at most the instances measured", m.AttributedN, m.N)
	}
}

// samplesIters checks a timed row's samples_iters (absent in files
// written before it): one positive count of calls per sample of
// samples_ns.
func (c *checker) samplesIters(t *ThroughputRow) {
	if t.SamplesIters == nil {
		return
	}
	if len(t.SamplesIters) != len(t.SamplesNs) {
		c.add("samples_iters holds %d counts but samples_ns %d samples: want one count of calls per sample", len(t.SamplesIters), len(t.SamplesNs))
	}
	for j, n := range t.SamplesIters {
		if n < 1 {
			c.add("samples_iters[%d] is %d, want a positive number of calls", j, n)
		}
	}
}

// samplesAllocs checks the per-sample lists of a timed row's figures
// (Figure.PerSample: samples_bytes_per_op, samples_allocs_per_op; absent
// in files written before them): one value per sample of samples_ns, in
// the figure's range.
func (c *checker) samplesAllocs(t *ThroughputRow) {
	for _, f := range throughputFigures {
		vs := f.PerSampleOf(t)
		if f.PerSample == "" || vs == nil {
			continue
		}
		if len(vs) != len(t.SamplesNs) {
			c.add("%s holds %d figures but samples_ns %d samples: want one per sample", f.PerSample, len(vs), len(t.SamplesNs))
		}
		for j, v := range vs {
			key := fmt.Sprintf("%s[%d]", f.PerSample, j)
			if f.Signed {
				c.finite(key, v)
			} else {
				c.nonNegative(key, v)
			}
		}
	}
}

// envTime checks env.time, when the file records it: an RFC 3339 time.
func (c *checker) envTime(e measure.Env) {
	if e.Time == "" {
		return
	}
	if _, err := time.Parse(time.RFC3339, e.Time); err != nil {
		c.add("time is %q, want an RFC 3339 time such as 2026-11-29T10:04:05Z", e.Time)
	}
}

// envRun checks the run's load averages and times, where the file
// records them: finite and not negative.
func (c *checker) envRun(e measure.Env) {
	for _, f := range []struct {
		key string
		v   *float64
	}{{"load_average_start", e.LoadStart}, {"load_average_end", e.LoadEnd}, {"run_wall_s", e.RunWallSeconds}, {"run_cpu_s", e.RunCPUSeconds}} {
		if f.v != nil {
			c.nonNegative(f.key, *f.v)
		}
	}
}

// closeTo reports whether a equals b up to float rounding (a summary
// written by another JSON encoder may differ in the last bits).
func closeTo(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-9*max(math.Abs(a), math.Abs(b))
}

func fmtFloat(v float64) string {
	if math.Abs(v) < 1e21 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func jsonKind(t reflect.Type) string {
	if t == nil {
		return "another type"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Float64, reflect.Float32, reflect.Int32, reflect.Uint64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		return "a list"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return t.String()
}
