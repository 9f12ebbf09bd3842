package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/memprof/memprof/internal/readlimit"
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
// reading) and validated at load, the way pprof's profile.CheckValid
// validates a profile. The zero value reads up to DefaultMaxResultsBytes.
type ResultsReader struct {
	// MaxBytes is the largest file read; 0 means DefaultMaxResultsBytes.
	MaxBytes int64
}

// ReadFile reads, bounds and validates the results file at path. Errors
// name the file; a file past the limit wraps ErrTooLarge, one that is not
// a results file ErrNotResults, one that breaks the schema's rules is an
// *InvalidError. The returned Results is the caller's.
func (rd ResultsReader) ReadFile(path string) (*Results, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading results: %w", err)
	}
	defer f.Close()
	return rd.Read(f, path)
}

// Read reads, bounds and validates a results file from r; name names it
// in errors (as ReadFile's path does).
func (rd ResultsReader) Read(r io.Reader, name string) (*Results, error) {
	limit := rd.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxResultsBytes
	}
	data, err := readlimit.ReadAll(r, limit)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", readingResults(name), err)
	}
	return DecodeResults(data, name)
}

// DecodeResults decodes and validates a results file held in data; name
// names it in errors. Unknown fields are allowed (later versions add
// fields), and fields renamed since are read under their old names
// (cheap_bytes_per_instance, cheap_unavailable; a slice row's slot_bytes,
// now array_slot_bytes_per_instance; a site's slot_bytes, now slot_sizes).
// Keys are normalized: an operation of a type with a scheme, written
// before operations carried one, gets the type's default scheme. A wrong
// or missing schema, trailing data or a truncated file wraps
// ErrNotResults; a file that breaks the schema's rules (Results.Validate,
// and figures that are missing or null) is an *InvalidError. The returned
// Results does not retain data.
func DecodeResults(data []byte, name string) (*Results, error) {
	var w wireResults
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, fmt.Errorf("%s: %w: %s", readingResults(name), ErrNotResults, jsonError(data, err))
	}
	if w.Schema != Schema {
		return nil, fmt.Errorf("%s: %w: schema is %q, want %q", readingResults(name), ErrNotResults, w.Schema, Schema)
	}
	rs := w.Results
	rs.Instances = nil
	if w.Instances != nil {
		rs.Instances = make([]Result, len(w.Instances))
	}
	for i, r := range w.Instances {
		res := r.Result
		res.BytesPerInstance = r.BytesPerInstance.v
		res.AllocsPerInstance = r.AllocsPerInstance.v
		if res.CHeapBytesPerInstance == nil {
			res.CHeapBytesPerInstance = r.LegacyCHeap
		}
		if res.CHeapUnavailable == "" {
			res.CHeapUnavailable = r.LegacyCHeapUnavailable
		}
		if res.Layout == Slice && r.ArraySlot == nil {
			// Before array_slot_bytes_per_instance, a slice row's
			// slot_bytes held the backing array's slot over N.
			res.ArraySlotBytesPerInstance, res.SlotBytes = res.SlotBytes, 0
		}
		res.Key = res.Key.Normalize()
		rs.Instances[i] = res
	}
	rs.Throughput = nil
	for _, t := range w.Throughput {
		row := t.ThroughputRow
		row.NsPerOpMedian = t.NsPerOpMedian.v
		row.Key = row.Key.Normalize()
		rs.Throughput = append(rs.Throughput, row)
	}
	for i := range rs.Unavailable {
		rs.Unavailable[i].Key = rs.Unavailable[i].Key.Normalize()
	}
	if probs := rs.problems(&w); len(probs) > 0 {
		return nil, &InvalidError{File: name, Problems: probs}
	}
	return &rs, nil
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
//   - a measured instance row (no error) has a positive n and non-negative
//     finite bytes and allocations per instance (and sizes, sites); every
//     other figure is finite (off-heap, RSS and unaccounted figures are
//     differences of readings and may be negative), and attributed_n,
//     where the file has it, is in [1, n];
//   - a measured operation row has non-negative finite times and samples,
//     and its median and quartiles are those of its samples_ns
//     (SummarizeSamples), so that every reader judges the same figure;
//   - an unavailable row names a known case and says why, with a known
//     kind if it has one (files written before kinds have none).
//
// Rows with an error are failed measurements: valid without figures.
// Validate cannot tell a figure that is missing from one that is 0; the
// readers (ResultsReader, DecodeResults) check that too.
func (rs *Results) Validate() error {
	if probs := rs.problems(nil); len(probs) > 0 {
		return &InvalidError{Problems: probs}
	}
	return nil
}

// wireResults is a results file as decoded, with the presence of the
// figures a measured row must carry and the fields read under old names.
type wireResults struct {
	Results
	Instances  []wireResult     `json:"instances"`
	Throughput []wireThroughput `json:"throughput"`
}

type wireResult struct {
	Result
	BytesPerInstance       figure   `json:"bytes_per_instance"`
	AllocsPerInstance      figure   `json:"allocs_per_instance"`
	ArraySlot              *float64 `json:"array_slot_bytes_per_instance"`
	LegacyCHeap            *float64 `json:"cheap_bytes_per_instance"`
	LegacyCHeapUnavailable string   `json:"cheap_unavailable"`
}

type wireThroughput struct {
	ThroughputRow
	NsPerOpMedian figure `json:"ns_per_op_median"`
}

// figure is a number whose presence matters: missing, null, or not a
// number are problems of their own, not 0.
type figure struct {
	present, null bool
	notNumber     string // the JSON value, when it is not a number
	v             float64
}

func (f *figure) UnmarshalJSON(b []byte) error {
	*f = figure{present: true}
	switch {
	case string(b) == "null":
		f.null = true
	case json.Unmarshal(b, &f.v) != nil:
		f.notNumber = string(b)
		if len(f.notNumber) > 40 {
			f.notNumber = f.notNumber[:40] + "..."
		}
	}
	return nil
}

// problem returns what is wrong with a required figure, or "".
func (f figure) problem(key string) string {
	switch {
	case !f.present:
		return key + " is missing"
	case f.null:
		return key + " is null"
	case f.notNumber != "":
		return fmt.Sprintf("%s is %s, want a number", key, f.notNumber)
	}
	return ""
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
	l := Key{Type: Type(q(string(k.Type))), Lib: Lib(q(string(k.Lib))), Repr: Repr(q(string(k.Repr))), Scheme: k.Scheme, Param: k.Param, Batch: k.Batch}
	if k.Op != "" {
		l.Op = k.Op
	} else {
		l.Layout = Layout(q(string(k.Layout)))
	}
	if k.Scheme != MinSig {
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
func checkName[T Name](c *checker, key string, v T, valid []T, required bool) {
	switch {
	case v == "":
		if required {
			c.add("%s is missing", key)
		}
	case !Known(v, valid):
		c.add("unknown %s %q: valid %ss are %s", key, string(v), key, Join(valid))
	}
}

// key checks the names of a case's key; op says whether it is an
// operation's.
func (c *checker) key(k Key, op bool) {
	checkName(c, "type", k.Type, Types, true)
	checkName(c, "lib", k.Lib, Libs, true)
	checkName(c, "repr", k.Repr, Reprs, true)
	if op {
		checkName(c, "layout", k.Layout, Layouts, false)
		checkName(c, "op", k.Op, Ops, true)
	} else {
		checkName(c, "layout", k.Layout, Layouts, true)
		checkName(c, "op", k.Op, Ops, false)
	}
	checkName(c, "scheme", k.Scheme, Schemes, false)
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

func (rs *Results) problems(w *wireResults) []Problem {
	c := &checker{}
	if rs.Schema != "" && rs.Schema != Schema {
		c.add("schema is %q, want %q", rs.Schema, Schema)
	}
	if rs.Env.GC != "" {
		c.at("env", "")
		checkName(c, "gc", rs.Env.GC, Collectors, false)
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
			checkName(c, "layout", r.Layout, Layouts, false)
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
		if w != nil {
			for _, f := range []struct {
				key string
				f   figure
			}{{"bytes_per_instance", w.Instances[i].BytesPerInstance}, {"allocs_per_instance", w.Instances[i].AllocsPerInstance}} {
				if p := f.f.problem(f.key); p != "" {
					c.add("%s", p)
				}
			}
		}
		if r.N <= 0 {
			c.add("n is %d, want a positive number of instances", r.N)
		}
		c.nonNegative("bytes_per_instance", r.BytesPerInstance)
		c.nonNegative("allocs_per_instance", r.AllocsPerInstance)
		c.nonNegative("sizeof_bytes", float64(r.SizeofBytes))
		c.nonNegative("slot_bytes", r.SlotBytes)
		c.nonNegative("array_slot_bytes_per_instance", r.ArraySlotBytesPerInstance)
		c.nonNegative("holder_bytes_per_instance", r.HolderBytesPerInstance)
		c.nonNegative("offheap_resolution_bytes_per_instance", r.OffheapResolution)
		c.nonNegative("rss_resolution_bytes_per_instance", r.RSSResolution)
		c.finite("offheap_bytes_per_instance", r.OffheapBytesPerInstance)
		c.finite("runtime_metadata_bytes_per_instance", r.RuntimeMetadataBytesPerInstance)
		c.finite("heapalloc_bytes_per_instance", r.HeapAllocBytesPerInstance)
		c.finite("rss_bytes_per_instance", r.RSSBytesPerInstance)
		c.finite("unaccounted_bytes_per_instance", r.UnaccountedBytesPerInstance)
		if r.CHeapBytesPerInstance != nil {
			c.finite("c_heap_bytes_per_instance", *r.CHeapBytesPerInstance)
		}
		c.nonNegative("build_ns", r.BuildNs)
		if r.BuildNs > 0 && r.Layout != Single {
			c.add("build_ns is %s for layout %q: only a case of the %s layout records its build time", fmtFloat(r.BuildNs), r.Layout, Single)
		}
		if r.Layout == Single && r.N != 1 {
			c.add("n is %d for layout %s, want 1 (one object per process)", r.N, Single)
		}
		c.gcFigures(&r.Measurement)
		c.attributed(&r.Measurement)
		for j, s := range r.Sites {
			c.nonNegative(fmt.Sprintf("sites[%d].bytes_per_instance", j), s.BytesPerInstance)
			c.nonNegative(fmt.Sprintf("sites[%d].allocs_per_instance", j), s.AllocsPerInstance)
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
		c.checkOpCost(&t.OpCost)
		medianBad := false
		if w != nil {
			if p := w.Throughput[i].NsPerOpMedian.problem("ns_per_op_median"); p != "" {
				c.add("%s", p)
				medianBad = true
			}
		}
		if t.Samples < 0 {
			c.add("samples is %d, want a non-negative number", t.Samples)
		}
		for _, f := range []struct {
			key string
			v   float64
		}{{"ns_per_op_median", t.NsPerOpMedian}, {"ns_per_op_q1", t.NsPerOpQ1}, {"ns_per_op_q3", t.NsPerOpQ3},
			{"cpu_ns_per_op_median", t.CPUNsPerOpMedian}, {"ops_per_s", t.OpsPerSecond},
			{"bytes_per_op", t.BytesPerOp}, {"allocs_per_op", t.AllocsPerOp}} {
			c.nonNegative(f.key, f.v)
		}
		if t.CHeapBytesPerOp != nil {
			c.finite("c_heap_bytes_per_op", *t.CHeapBytesPerOp)
		}
		before := len(c.probs)
		for j, s := range t.SamplesNs {
			c.nonNegative(fmt.Sprintf("samples_ns[%d]", j), s)
		}
		if len(c.probs) > before || len(t.SamplesNs) == 0 {
			continue
		}
		if t.Samples != len(t.SamplesNs) {
			c.add("samples is %d but samples_ns holds %d", t.Samples, len(t.SamplesNs))
		}
		c.samplesIters(t)
		c.samplesAllocs(t)
		// The summary must be that of the samples: check and compare
		// judge the samples, reports print the summary.
		q, err := SummarizeSamples(t.SamplesNs)
		if err != nil {
			c.add("samples_ns: %v", err)
			continue
		}
		for _, f := range []struct {
			key       string
			got, want float64
		}{{"ns_per_op_median", t.NsPerOpMedian, q.Median}, {"ns_per_op_q1", t.NsPerOpQ1, q.Q1}, {"ns_per_op_q3", t.NsPerOpQ3, q.Q3}} {
			if f.key == "ns_per_op_median" && medianBad {
				continue // reported above
			}
			if !closeTo(f.got, f.want) {
				c.add("%s is %s, but the samples_ns give %s", f.key, fmtFloat(f.got), fmtFloat(f.want))
			}
		}
	}

	for i := range rs.Unavailable {
		u := &rs.Unavailable[i]
		c.at(fmt.Sprintf("unavailable[%d]", i), label(u.Key))
		checkName(c, "type", u.Type, Types, true)
		checkName(c, "lib", u.Lib, Libs, true)
		checkName(c, "repr", u.Repr, Reprs, true)
		checkName(c, "layout", u.Layout, Layouts, false)
		checkName(c, "scheme", u.Scheme, Schemes, false)
		checkName(c, "op", u.Op, Ops, false)
		checkName(c, "kind", u.Kind, Kinds, false)
		if strings.TrimSpace(u.Reason) == "" {
			c.add("reason is missing: an unavailable row says why")
		}
	}

	for i, t := range rs.Tradeoff {
		c.at(fmt.Sprintf("tradeoff[%d]", i), string(t.Type))
		checkName(c, "type", t.Type, Types, true)
		for _, o := range t.Ops {
			checkName(c, "op", o.Op, Ops, true)
		}
		for j, r := range t.Rows {
			checkName(c, "lib", r.Lib, Libs, true)
			checkName(c, "repr", r.Repr, Reprs, true)
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
			checkName(c, "lib", lib, Libs, true)
		}
	}
	return c.probs
}

// checkOpCost checks a row's allocation sites: each names its function
// and allocates a non-negative, finite amount; sites come with the number
// of calls they were profiled over.
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
		c.nonNegative(fmt.Sprintf("sites[%d].bytes_per_op", j), st.BytesPerOp)
		c.nonNegative(fmt.Sprintf("sites[%d].allocs_per_op", j), st.AllocsPerOp)
	}
}

// attributed checks a measured row's attributed_n (absent in files
// written before it): a positive number of instances, at most n.
func (c *checker) attributed(m *Measurement) {
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

// samplesAllocs checks a timed row's samples_bytes_per_op and
// samples_allocs_per_op (absent in files written before them): one
// figure per sample of samples_ns, finite and not negative.
func (c *checker) samplesAllocs(t *ThroughputRow) {
	for _, f := range []struct {
		key string
		vs  []float64
	}{{"samples_bytes_per_op", t.SamplesBytesPerOp}, {"samples_allocs_per_op", t.SamplesAllocsPerOp}} {
		if f.vs == nil {
			continue
		}
		if len(f.vs) != len(t.SamplesNs) {
			c.add("%s holds %d figures but samples_ns %d samples: want one per sample", f.key, len(f.vs), len(t.SamplesNs))
		}
		for j, v := range f.vs {
			c.nonNegative(fmt.Sprintf("%s[%d]", f.key, j), v)
		}
	}
}

// envTime checks env.time, when the file records it: an RFC 3339 time.
func (c *checker) envTime(e Env) {
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

// jsonError turns a decoding error into "LINE:COL: message", with field
// paths as in the file.
func jsonError(data []byte, err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		if se.Offset >= int64(len(data)) && strings.Contains(se.Error(), "unexpected end") {
			return "truncated JSON"
		}
		return position(data, se.Offset) + ": " + strings.TrimPrefix(se.Error(), "json: ")
	case errors.As(err, &te):
		field := te.Field
		for _, embedded := range []string{"Results.", "Result.", "ThroughputRow.", "Measurement.", "Timing.", "Key.", "Why."} {
			field = strings.ReplaceAll(field, embedded, "")
		}
		return fmt.Sprintf("%s: %s is a %s, want %s", position(data, te.Offset), field, te.Value, jsonKind(te.Type))
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "truncated JSON"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// position renders a byte offset as line:column (1-based).
func position(data []byte, off int64) string {
	off = min(off, int64(len(data)))
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := off - int64(bytes.LastIndexByte(data[:off], '\n'))
	return fmt.Sprintf("%d:%d", line, col)
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
func ReadResults(r io.Reader) (*Results, error) {
	return ResultsReader{}.Read(r, "")
}

// ReadResultsFile reads the results file at path as ReadResults does;
// errors name the file.
func ReadResultsFile(path string) (*Results, error) {
	return ResultsReader{}.ReadFile(path)
}
