package results

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/memprof/memprof/internal/readlimit"
	"github.com/memprof/memprof/measure"
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

func (rs *File) problems() []Problem {
	c := &checker{}
	if rs.Schema != "" && rs.Schema != Schema {
		c.add("schema is %q, want %q", rs.Schema, Schema)
	}
	if rs.Env.GC != "" {
		c.at("env", "")
		checkName(c, "gc", rs.Env.GC, measure.Collectors, false)
	}
	if rs.Env.ScanRule != "" {
		c.at("env", "")
		checkName(c, "scan_rule", rs.Env.ScanRule, measure.ScanRules, false)
	}
	c.instances(rs.Instances)
	c.throughput(rs.Throughput)
	c.unavailable(rs.Unavailable)
	c.tradeoffs(rs.Tradeoff)

	c.at("env", "")
	c.envTime(rs.Env)
	c.envRun(rs.Env)

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

// instances checks the rows of measured instances.
func (c *checker) instances(rows []Row) {
	seen := map[Key]int{}
	for i := range rows {
		c.instance(&rows[i], i, seen)
	}
}

// instance checks one row of measured instances, the i-th; seen holds the
// keys of the rows before it.
func (c *checker) instance(r *Row, i int, seen map[Key]int) {
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
		return // a failed measurement carries no figures
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
		c.sweep(sw)
	}
}

// sweep checks a row's sweep.
func (c *checker) sweep(sw *measure.Sweep) {
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

// throughput checks the rows of timed operations.
func (c *checker) throughput(rows []ThroughputRow) {
	seenOp := map[Key]int{}
	for i := range rows {
		t := &rows[i]
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
}

// unavailable checks the rows of combinations not measured.
func (c *checker) unavailable(rows []Unavailable) {
	for i := range rows {
		u := &rows[i]
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
}

// tradeoffs checks the trade-off tables.
func (c *checker) tradeoffs(tables []Tradeoff) {
	for i, t := range tables {
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
