package memprof

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"

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

// Vocabulary lists the names a results file may use. memprof knows no
// crypto library, so the names come from the caller (the CLI and gate
// pass the suites registry's lists). A nil list accepts any name.
type Vocabulary struct {
	Types, Libs, Reprs, Layouts, Schemes, Ops []string
}

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
// validates a profile. The zero value reads up to DefaultMaxResultsBytes
// and does not check names.
type ResultsReader struct {
	// MaxBytes is the largest file read; 0 means DefaultMaxResultsBytes.
	MaxBytes int64
	// Names, if set, are the names rows may use (see Results.Validate).
	Names *Vocabulary
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
	return DecodeResults(data, name, rd.Names)
}

// DecodeResults decodes and validates a results file held in data; name names it
// in errors. Unknown fields are allowed (later versions add fields). A
// wrong or missing schema, trailing data or a truncated file wraps
// ErrNotResults; a file that breaks the schema's rules (Results.Validate,
// and figures that are missing or null) is an *InvalidError. The returned
// Results does not retain data.
func DecodeResults(data []byte, name string, names *Vocabulary) (*Results, error) {
	var w wireResults
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, fmt.Errorf("%s: %w: %s", readingResults(name), ErrNotResults, jsonError(data, err))
	}
	if w.Schema != Schema {
		return nil, fmt.Errorf("%s: %w: schema is %q, want %q", readingResults(name), ErrNotResults, w.Schema, Schema)
	}
	rs := w.Results
	rs.Instances = make([]Result, len(w.Instances))
	for i, r := range w.Instances {
		rs.Instances[i] = r.Result
		rs.Instances[i].BytesPerInstance = r.BytesPerInstance.v
		rs.Instances[i].AllocsPerInstance = r.AllocsPerInstance.v
	}
	if w.Instances == nil {
		rs.Instances = nil
	}
	rs.Throughput = nil
	for _, t := range w.Throughput {
		row := t.ThroughputRow
		row.NsPerOpMedian = t.NsPerOpMedian.v
		rs.Throughput = append(rs.Throughput, row)
	}
	if probs := rs.problems(names, &w); len(probs) > 0 {
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
//   - every instance row names its case by type, lib, repr and layout
//     (known names, when names is not nil), or is a case of the library
//     API's (name set, no type);
//   - no two rows are the same case: instances by type, lib, repr,
//     layout, scheme and name; operations by type, lib, repr, op and
//     batch;
//   - a measured instance row (no error) has a positive n and non-negative
//     finite bytes and allocations per instance (and sizes, sites); every
//     other figure is finite (off-heap, RSS and unaccounted figures are
//     differences of readings and may be negative);
//   - a measured operation row has non-negative finite times and samples,
//     and its median and quartiles are those of its samples_ns
//     (SummarizeSamples), so that every reader judges the same figure;
//   - an unavailable row names a known case and says why.
//
// Rows with an error are failed measurements: valid without figures.
// Validate cannot tell a figure that is missing from one that is 0; the
// readers (ResultsReader, DecodeResults) check that too.
func (rs *Results) Validate(names *Vocabulary) error {
	if probs := rs.problems(names, nil); len(probs) > 0 {
		return &InvalidError{Problems: probs}
	}
	return nil
}

// wireResults is a results file as decoded, with the presence of the
// figures a measured row must carry.
type wireResults struct {
	Results
	Instances  []wireResult     `json:"instances"`
	Throughput []wireThroughput `json:"throughput"`
}

type wireResult struct {
	Result
	BytesPerInstance  figure `json:"bytes_per_instance"`
	AllocsPerInstance figure `json:"allocs_per_instance"`
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

// Label names an instance row for people: Signature/blst/affine/pointer,
// with /min-sig for that scheme, or the name of a case of the library
// API's.
func (r *Result) Label() string {
	if r.Type == "" && r.Name != "" {
		return r.Name
	}
	s := orUnknown(r.Type) + "/" + orUnknown(r.Lib) + "/" + orUnknown(r.Repr) + "/" + orUnknown(r.Layout)
	if r.Scheme == "min-sig" {
		s += "/min-sig"
	}
	return s
}

// Label names an operation row for people: Signature/blst/affine op=verify.
func (t *ThroughputRow) Label() string {
	return orUnknown(t.Type) + "/" + orUnknown(t.Lib) + "/" + orUnknown(t.Repr) + " op=" + orUnknown(t.Op)
}

func orUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
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

// name checks a name field: required (when want is set) and known.
func (c *checker) name(key, v string, valid []string, required bool) {
	switch {
	case v == "":
		if required {
			c.add("%s is missing", key)
		}
	case valid != nil && !slices.Contains(valid, v):
		c.add("unknown %s %q: valid %ss are %s", key, v, key, strings.Join(valid, ", "))
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

func (rs *Results) problems(names *Vocabulary, w *wireResults) []Problem {
	var v Vocabulary
	if names != nil {
		v = *names
	}
	c := &checker{}
	if rs.Schema != "" && rs.Schema != Schema {
		c.add("schema is %q, want %q", rs.Schema, Schema)
	}
	type instanceKey struct{ typ, lib, repr, layout, scheme, name string }
	seen := map[instanceKey]int{}
	for i := range rs.Instances {
		r := &rs.Instances[i]
		c.at(fmt.Sprintf("instances[%d]", i), r.Label())
		custom := r.Type == "" && r.Name != ""
		switch {
		case r.Type == "" && r.Name == "":
			c.label = ""
			c.add("type is missing: a row names its case by type, lib, repr and layout (or by name, for a case of the library API's)")
		case custom:
			c.name("layout", r.Layout, v.Layouts, false)
		default:
			c.name("type", r.Type, v.Types, true)
			c.name("lib", r.Lib, v.Libs, true)
			c.name("repr", r.Repr, v.Reprs, true)
			c.name("layout", r.Layout, v.Layouts, true)
			c.name("scheme", r.Scheme, v.Schemes, false)
		}
		k := instanceKey{r.Type, r.Lib, r.Repr, r.Layout, r.Scheme, r.Name}
		if j, dup := seen[k]; dup {
			c.add("duplicate of instances[%d]: one case measured twice", j)
		} else {
			seen[k] = i
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
		c.nonNegative("holder_bytes_per_instance", r.HolderBytesPerInstance)
		c.nonNegative("offheap_resolution_bytes_per_instance", r.OffheapResolution)
		c.finite("offheap_bytes_per_instance", r.OffheapBytesPerInstance)
		c.finite("runtime_metadata_bytes_per_instance", r.RuntimeMetadataBytesPerInstance)
		c.finite("heapalloc_bytes_per_instance", r.HeapAllocBytesPerInstance)
		c.finite("rss_bytes_per_instance", r.RSSBytesPerInstance)
		c.finite("unaccounted_bytes_per_instance", r.UnaccountedBytesPerInstance)
		if r.CHeapBytesPerInstance != nil {
			c.finite("cheap_bytes_per_instance", *r.CHeapBytesPerInstance)
		}
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

	type opKey struct {
		typ, lib, repr, op string
		batch              int
	}
	seenOp := map[opKey]int{}
	for i := range rs.Throughput {
		t := &rs.Throughput[i]
		c.at(fmt.Sprintf("throughput[%d]", i), t.Label())
		c.name("type", t.Type, v.Types, true)
		c.name("lib", t.Lib, v.Libs, true)
		c.name("repr", t.Repr, v.Reprs, true)
		c.name("op", t.Op, v.Ops, true)
		if t.Batch < 0 {
			c.add("batch is %d, want a non-negative number", t.Batch)
		}
		k := opKey{t.Type, t.Lib, t.Repr, t.Op, t.Batch}
		if j, dup := seenOp[k]; dup {
			c.add("duplicate of throughput[%d]: one operation (batch %d) timed twice", j, t.Batch)
		} else {
			seenOp[k] = i
		}
		if t.Error != "" {
			continue
		}
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
		label := orUnknown(u.Type) + "/" + orUnknown(u.Lib) + "/" + orUnknown(u.Repr)
		if u.Op != "" {
			label += " op=" + u.Op
		} else {
			label += "/" + orUnknown(u.Layout)
		}
		c.at(fmt.Sprintf("unavailable[%d]", i), label)
		c.name("type", u.Type, v.Types, true)
		c.name("lib", u.Lib, v.Libs, true)
		c.name("repr", u.Repr, v.Reprs, true)
		c.name("layout", u.Layout, v.Layouts, false)
		c.name("op", u.Op, v.Ops, false)
		if strings.TrimSpace(u.Reason) == "" {
			c.add("reason is missing: an unavailable row says why")
		}
	}

	if a := rs.Agreement; a != nil {
		c.at("agreement", "")
		if a.Cases < 0 {
			c.add("cases is %d, want a non-negative number", a.Cases)
		}
		for _, lib := range a.Libs {
			c.name("lib", lib, v.Libs, true)
		}
	}
	return c.probs
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
		for _, embedded := range []string{"Results.", "Result.", "ThroughputRow."} {
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
