package results

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/memprof/memprof/internal/readlimit"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/stats"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
)

// DefaultMaxResultsBytes is the largest results file a ResultsReader reads
// unless its MaxBytes says otherwise: 256 MiB.
const DefaultMaxResultsBytes = 256 << 20

// ErrTooLarge is wrapped by the error of a results file larger than the
// reader's limit. It is the same value as gate.ErrTooLarge.
var ErrTooLarge = readlimit.ErrTooLarge

// ErrInvalid is wrapped by the error of a results file that decodes but
// breaks the rules of the schema (see Results.Validate).
var ErrInvalid = errors.New("invalid " + Schema + " file")

// maxReported is how many problems an InvalidError spells out; the rest
// are counted.
const maxReported = 20

// Problem is one rule a results file breaks.
type Problem struct {
	// Path locates the offending part as in the JSON, indexes 0-based:
	// "instances[12]", "throughput[3]", "unavailable[0]", "agreement", or
	// "" for the file as a whole.
	Path string
	// Case names the row's case (Signature/blst/affine/pointer), if any.
	Case string
	Msg  string
}

// String renders p as "instances[12] (Signature/blst/affine/pointer):
// bytes_per_instance is null".
func (p Problem) String() string {
	s := p.Path
	if p.Case != "" {
		s += " (" + p.Case + ")"
	}
	if s == "" {
		return p.Msg
	}
	return s + ": " + p.Msg
}

// InvalidError lists every problem of a results file, in file order. It
// wraps ErrInvalid.
type InvalidError struct {
	// File names the file ("" when it has no name).
	File     string
	Problems []Problem
}

// Error has one line per problem, "FILE: instances[12] (case): message",
// the first 20 of them, then a line counting the rest.
func (e *InvalidError) Error() string {
	prefix := ""
	if e.File != "" {
		prefix = e.File + ": "
	}
	var b strings.Builder
	for i, p := range e.Problems {
		if i == maxReported {
			fmt.Fprintf(&b, "\n%s... and %d more problems (%d in all)", prefix, len(e.Problems)-maxReported, len(e.Problems))
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(prefix + p.String())
	}
	return b.String()
}

// Unwrap returns ErrInvalid.
func (e *InvalidError) Unwrap() error { return ErrInvalid }

// ResultsReader reads results files: bounded (the size is checked while
// reading, the rows while decoding, one row at a time) and validated at
// load, the way pprof's profile.CheckValid validates a profile. The zero
// value reads up to DefaultMaxResultsBytes and DefaultMaxRows.
type Reader struct {
	// MaxBytes is the largest file read; 0 means DefaultMaxResultsBytes.
	MaxBytes int64
	// MaxRows is the most rows read (see DefaultMaxRows); 0 means
	// DefaultMaxRows.
	MaxRows int
}

// ReadFile reads, bounds and validates the results file at path. Errors
// name the file; a file past the byte limit wraps ErrTooLarge, one past
// the row limit ErrTooManyRows, one that is not a results file
// ErrNotResults, one that breaks the schema's rules is an *InvalidError.
// The returned Results is the caller's.
func (rd Reader) ReadFile(path string) (*File, error) {
	return rd.ReadFileContext(context.Background(), path)
}

// Read reads, bounds and validates a results file from r; name names it
// in errors (as ReadFile's path does).
func (rd Reader) Read(r io.Reader, name string) (*File, error) {
	return rd.ReadContext(context.Background(), r, name)
}

// decodedResults checks and converts a results file as decoded (see
// DecodeResults); name names it in errors. Unknown fields are allowed (later versions add
// fields), and fields renamed since are read under their old names
// (cheap_bytes_per_instance, cheap_unavailable; a slice row's slot_bytes,
// now array_slot_bytes_per_instance; a site's slot_bytes, now
// slot_sizes). Each row records the figures the file lacks (missing or
// null): they are unknown, never 0 (see Figure). Keys are normalized: an
// operation of a type with a scheme, written before operations carried
// one, gets the type's default scheme. A wrong or missing schema wraps
// ErrNotResults; a file that breaks the schema's rules (Results.Validate:
// a Required figure missing or null, a figure that is not a number or out
// of its range, ...) is an *InvalidError. The returned Results does not
// retain data.
func decodedResults(rs *File, name string) (*File, error) {
	if rs.Schema != Schema {
		return nil, fmt.Errorf("%s: %w: schema is %q, want %q", readingResults(name), ErrNotResults, rs.Schema, Schema)
	}
	// Every name and text a file holds is printed somewhere: a control
	// character in one is escaped once, here.
	printableStrings(reflect.ValueOf(rs).Elem())
	for i := range rs.Instances {
		rs.Instances[i].Key = rs.Instances[i].Key.Normalize()
	}
	for i := range rs.Throughput {
		rs.Throughput[i].Key = rs.Throughput[i].Key.Normalize()
	}
	for i := range rs.Unavailable {
		rs.Unavailable[i].Key = rs.Unavailable[i].Key.Normalize()
	}
	if probs := rs.problems(); len(probs) > 0 {
		return nil, &InvalidError{File: name, Problems: probs}
	}
	return rs, nil
}

// readingResults is the context of a read error: "reading results NAME".
func readingResults(name string) string {
	if name == "" {
		return "reading results"
	}
	return "reading results " + name
}

// Validate checks rs against the rules of the schema and returns an
// *InvalidError listing every problem, or nil:
//
//   - every instance row names its case by type, lib, repr and layout,
//     known names of the vocabulary, or is a case of the library API's
//     (name set, no type);
//   - no two rows are the same case (the same Key);
//   - every figure of a measured row (no error) is checked by its entry
//     in Figures: the Required ones (bytes and allocations per instance,
//     an operation's median) are present and numbers; every figure
//     present is finite, and not below 0 unless it is a difference of
//     readings (Signed: off-heap, RSS, unaccounted, ...), whole for an
//     integer field; a summary of samples (a median, a quartile) is that
//     of its samples (SummarizeSamples), so that every reader judges the
//     same figure, and each sample is finite and in the same range;
//   - a resolution the engine bounds (Figure.ResolutionBounds: the scan,
//     off-heap and RSS ones) is no wider than the engine writes at the
//     row's n;
//   - a measured instance row has a positive n (1 for the single layout),
//     non-negative sites and sweep points, and attributed_n, where the
//     file has it, in [1, n]; an operation row's samples count its
//     samples_ns, and its samples_iters give one positive count each;
//   - an unavailable row names a known case and says why, with a known
//     kind if it has one (files written before kinds have none).
//
// Rows with an error are failed measurements: valid without figures. Rows read from a file know which figures it lacked (see
// Figure); rows built in memory have every figure.
func (rs *File) Validate() error {
	if probs := rs.problems(); len(probs) > 0 {
		return &InvalidError{Problems: probs}
	}
	return nil
}

// label names a row's key in a problem: as Key.String does, with "?" for
// a name the row lacks.
func label(k Key) string {
	if k.IsCustom() {
		return k.Name
	}
	q := func(s string) string {
		if s == "" {
			return "?"
		}
		return s
	}
	if k.Type == "" && k.Lib == "" && k.Repr == "" {
		return ""
	}
	l := Key{Type: vocab.Type(q(string(k.Type))), Lib: vocab.Lib(q(string(k.Lib))), Repr: vocab.Repr(q(string(k.Repr))), Scheme: k.Scheme, Param: k.Param, Batch: k.Batch}
	if k.Op != "" {
		l.Op = k.Op
	} else {
		l.Layout = measure.Layout(q(string(k.Layout)))
	}
	if k.Scheme != vocab.MinSig {
		l.Scheme = l.Type.DefaultScheme() // shown only when min-sig
	}
	return l.String()
}

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
			if f.Samples == list && f.Summary != SummaryNone {
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
			if want := f.Summary.Of(q); !closeTo(v, want) {
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

func (rs *File) problems() []Problem {
	c := &checker{}
	if rs.Schema != "" && rs.Schema != Schema {
		c.add("schema is %q, want %q", rs.Schema, Schema)
	}
	if rs.Env.GC != "" {
		c.at("env", "")
		checkName(c, "gc", rs.Env.GC, measure.Collectors, false)
	}
	seen := map[Key]int{}
	for i := range rs.Instances {
		r := &rs.Instances[i]
		c.at(fmt.Sprintf("instances[%d]", i), label(r.Key))
		switch {
		case r.Type == "" && r.Name == "":
			c.label = ""
			c.add("type is missing: a row names its case by type, lib, repr and layout (or by name, for a case of the library API's)")
		case r.IsCustom():
			checkName(c, "layout", r.Layout, measure.Layouts, false)
		default:
			c.key(r.Key, false)
		}
		if j, dup := seen[r.Key.Normalize()]; dup {
			c.add("duplicate of instances[%d]: one case measured twice", j)
		} else {
			seen[r.Key.Normalize()] = i
		}
		if r.Error != "" {
			continue // a failed measurement carries no figures
		}
		c.presence(r)
		if r.N <= 0 {
			c.add("n is %d, want a positive number of instances", r.N)
		}
		c.ranges(r)
		c.resolutions(r)
		c.summaries(r, nil)
		if r.BuildNs > 0 && r.Layout != measure.Single {
			c.add("build_ns is %s for layout %q: only a case of the %s layout records its build time", fmtFloat(r.BuildNs), r.Layout, measure.Single)
		}
		if r.Layout == measure.Single && r.N != 1 {
			c.add("n is %d for layout %s, want 1 (one object per process)", r.N, measure.Single)
		}
		c.attributed(&r.Measurement)
		for j, s := range r.Sites {
			// What no site explains may be less than nothing (objects
			// live before the build that it freed).
			check := c.nonNegative
			if s.Function == measure.UnattributedSite {
				check = c.finite
			}
			check(fmt.Sprintf("sites[%d].bytes_per_instance", j), s.BytesPerInstance)
			check(fmt.Sprintf("sites[%d].allocs_per_instance", j), s.AllocsPerInstance)
		}
		if sw := r.Sweep; sw != nil {
			for j, p := range sw.Points {
				if p.N <= 0 {
					c.add("sweep.points[%d].n is %d, want a positive number", j, p.N)
				}
				c.nonNegative(fmt.Sprintf("sweep.points[%d].bytes", j), p.Bytes)
				c.nonNegative(fmt.Sprintf("sweep.points[%d].bytes_per_instance", j), p.BytesPerInstance)
			}
			for _, f := range []struct {
				key string
				v   float64
			}{{"sweep.intercept_bytes", sw.Intercept}, {"sweep.slope_bytes_per_instance", sw.Slope},
				{"sweep.slope_ci95_low", sw.SlopeLow}, {"sweep.slope_ci95_high", sw.SlopeHigh}, {"sweep.r2", sw.R2}} {
				c.finite(f.key, f.v)
			}
		}
	}

	seenOp := map[Key]int{}
	for i := range rs.Throughput {
		t := &rs.Throughput[i]
		c.at(fmt.Sprintf("throughput[%d]", i), label(t.Key))
		c.key(t.Key, true)
		if t.Batch < 0 {
			c.add("batch is %d, want a non-negative number", t.Batch)
		}
		if j, dup := seenOp[t.Key.Normalize()]; dup {
			c.add("duplicate of throughput[%d]: one operation (batch %d) timed twice", j, t.Batch)
		} else {
			seenOp[t.Key.Normalize()] = i
		}
		if t.Error != "" {
			continue
		}
		c.presence(t)
		c.checkOpCost(&t.OpCost)
		c.ranges(t)
		c.summaries(t, func() {
			if samples.Known(t) && t.Samples != len(t.SamplesNs) {
				c.add("samples is %d but samples_ns holds %d", t.Samples, len(t.SamplesNs))
			}
			c.samplesIters(t)
			c.samplesAllocs(t)
		})
	}

	for i := range rs.Unavailable {
		u := &rs.Unavailable[i]
		c.at(fmt.Sprintf("unavailable[%d]", i), label(u.Key))
		checkName(c, "type", u.Type, vocab.Types, true)
		checkName(c, "lib", u.Lib, vocab.Libs, true)
		checkName(c, "repr", u.Repr, vocab.Reprs, true)
		checkName(c, "layout", u.Layout, measure.Layouts, false)
		checkName(c, "scheme", u.Scheme, vocab.Schemes, false)
		checkName(c, "op", u.Op, vocab.Ops, false)
		checkName(c, "kind", u.Kind, vocab.Kinds, false)
		if strings.TrimSpace(u.Reason) == "" {
			c.add("reason is missing: an unavailable row says why")
		}
	}

	for i, t := range rs.Tradeoff {
		c.at(fmt.Sprintf("tradeoff[%d]", i), string(t.Type))
		checkName(c, "type", t.Type, vocab.Types, true)
		if err := t.Param.Check(); err != nil {
			c.add("%v", err)
		}
		for _, o := range t.Ops {
			checkName(c, "op", o.Op, vocab.Ops, true)
		}
		for j, r := range t.Rows {
			checkName(c, "lib", r.Lib, vocab.Libs, true)
			checkName(c, "repr", r.Repr, vocab.Reprs, true)
			c.nonNegative(fmt.Sprintf("rows[%d].bytes_per_instance", j), r.BytesPerInstance)
			if len(r.NsPerUse) != len(t.Ops) {
				c.add("rows[%d] has %d times per use for %d operations", j, len(r.NsPerUse), len(t.Ops))
			}
			for k, v := range r.NsPerUse {
				if v != nil {
					c.nonNegative(fmt.Sprintf("rows[%d].ns_per_use[%d]", j, k), *v)
				}
			}
		}
	}

	c.at("env", "")
	c.envTime(rs.Env)

	if a := rs.Agreement; a != nil {
		c.at("agreement", "")
		if a.Cases < 0 {
			c.add("cases is %d, want a non-negative number", a.Cases)
		}
		for _, lib := range a.Libs {
			checkName(c, "lib", lib, vocab.Libs, true)
		}
		c.checkFamilies(a)
	}
	return c.probs
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

// ErrNotResults is wrapped by the readers' errors for input that is not a
// memprof.results/v1 file.
var ErrNotResults = errors.New("not a " + Schema + " file")

// ReadResults reads, bounds and validates a results file from r with the
// default limit (see ResultsReader).
func Read(r io.Reader) (*File, error) {
	return Reader{}.Read(r, "")
}

// ReadResultsFile reads the results file at path as ReadResults does;
// errors name the file.
func ReadFile(path string) (*File, error) {
	return Reader{}.ReadFile(path)
}
