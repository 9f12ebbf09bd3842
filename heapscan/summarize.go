package heapscan

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/google/pprof/profile"

	"github.com/memprof/memprof/internal/frame"
)

// MinSampled is the number of sampled objects below which a row of a
// sampled profile (rate > 1) is flagged as too few to trust: its relative
// error, about 1/sqrt(sampled), is then above 25%.
const MinSampled = 16

// Groupings are the valid values of Options.GroupBy.
var Groupings = []string{"function", "site", "stack", "rule"}

// Samples are the valid values of Options.Sample.
var Samples = []string{"inuse", "alloc"}

// UnmatchedKey is the row of the samples no rule matches.
const UnmatchedKey = "(unmatched)"

// UnknownKey is the row of samples without any frame.
const UnknownKey = "(unknown)"

// Options say which samples a summary reads and how it groups them.
type Options struct {
	// Sample is "inuse" (the default) or "alloc".
	Sample string
	// GroupBy is "function" (the default: the allocating function, the
	// first frame that is not the Go runtime), "site" (function and line),
	// "stack" (the whole stack) or "rule" (the first of Rules that matches
	// a frame of the stack).
	GroupBy string
	// Focus keeps only samples with a frame (any line of any location,
	// inlined frames included) whose function name or file name matches,
	// as pprof's -focus does (pprof also matches the mapping's file, which
	// heapscan does not keep).
	Focus *regexp.Regexp
	// Ignore drops samples with a frame whose function name or file name
	// matches.
	Ignore *regexp.Regexp
	// FocusFunction, when set, keeps only samples with a frame whose
	// function name is exactly this. The engine uses it to attribute its
	// own profiles to the instance constructor.
	FocusFunction string
	// Rules name the groups of GroupBy "rule".
	Rules *Rules
}

// Row is one group of samples.
type Row struct {
	// Key names the group: a function, "function file:line", a stack of
	// functions joined by " <- " (leaf first), or a rule's name.
	Key string
	// Function, File and Line are the allocating frame for function and
	// site grouping; File is module-relative (frame.SourcePath), as the key
	// shows it.
	Function string
	File     string
	Line     int64
	// Objects and Bytes are the row's figures as the profile states them
	// (for a sampled profile, the runtime's scaled estimates).
	Objects int64
	Bytes   int64
	// Sizes are the distinct object slot sizes seen (the "bytes" label),
	// ascending.
	Sizes []int64
	// Sampled is the number of objects actually sampled behind the row,
	// recovered from the runtime's scaling, sample by sample (line by line
	// for a legacy text profile); it equals Objects at rate 1.
	// Summary.Sampled says whether it is known.
	Sampled int64
	// RelError estimates the relative error of Objects and Bytes for a
	// sampled profile (1/sqrt(Sampled)); 0 for an exact profile.
	// Summary.RelError says whether it is known.
	RelError float64
	// LowSamples flags a row of a sampled profile with fewer than
	// MinSampled sampled objects.
	LowSamples bool

	// BaseObjects and BaseBytes are the row's figures in the base profile
	// of a diff.
	BaseObjects int64
	BaseBytes   int64
	// Status is "new" for a row absent from the base profile, "vanished"
	// for one absent from the current profile, and "" otherwise; it is
	// set only in a diff.
	Status string
}

// BytesPerObject is Bytes/Objects, or 0 for a row without objects (see
// Summary.BytesPerObject for whether it is known).
func (r *Row) BytesPerObject() float64 {
	if r.Objects == 0 {
		return 0
	}
	return float64(r.Bytes) / float64(r.Objects)
}

// DeltaBytes and DeltaObjects are the change from the base profile.
func (r *Row) DeltaBytes() int64   { return r.Bytes - r.BaseBytes }
func (r *Row) DeltaObjects() int64 { return r.Objects - r.BaseObjects }

// Summary is a grouped view of one heap profile (or of the difference of
// two). It owns its rows and retains nothing of the profile it was made
// from.
type Summary struct {
	// Period is the profile's sampling period (runtime.MemProfileRate):
	// 1 means every allocation was recorded and the figures are exact.
	Period int64
	// Sample is "inuse" or "alloc"; GroupBy the grouping.
	Sample  string
	GroupBy string
	// TotalBytes and TotalObjects sum the whole profile, before focus.
	TotalBytes   int64
	TotalObjects int64
	// Rows are sorted by bytes, largest first, then by key (in a diff: by
	// the absolute change in bytes, then in objects, then by key).
	Rows []Row

	// Diff is set by Diff; BasePeriod and the base totals describe the
	// base profile.
	Diff             bool
	BasePeriod       int64
	BaseTotalBytes   int64
	BaseTotalObjects int64

	// OmittedRows and OmittedBytes count the rows Top dropped.
	OmittedRows  int
	OmittedBytes int64

	// NoObjects is set when the profile does not count objects (a single
	// sample type, inuse_space, as continuous-profiling agents write
	// them): every Objects is 0 and unknown, and so is bytes per object.
	NoObjects bool
	// NoSamplingError is set when the profile's figures carry no
	// sampling error to estimate: its period is 0 (unknown), or it is not
	// a Go runtime heap profile (its period type is not space/bytes).
	NoSamplingError bool
	// Delta is set for a profile of changes rather than of what the heap
	// held: one with duration_nanos (/debug/pprof/heap?seconds=N) or with
	// negative values (a difference of two profiles, as pprof -diff_base
	// saves it). DeltaReason says which. Totals are then net sums;
	// AbsTotalBytes is the sum of absolute values, pprof's total, and
	// shares are of it; rows are sorted by absolute bytes.
	Delta       bool
	DeltaReason string
	// AbsTotalBytes sums the absolute value of every sample's bytes.
	AbsTotalBytes int64
	// Notes say, in words, what a reader of the figures must know: a
	// delta profile, unknown object counts, no symbols, no sampling error.
	Notes []string
}

// BytesPerObject returns r's bytes per object, and whether it is known:
// the profile counts objects and r's count is positive.
func (s *Summary) BytesPerObject(r *Row) (float64, bool) {
	if s.NoObjects || r.Objects <= 0 {
		return 0, false
	}
	return r.BytesPerObject(), true
}

// RelError returns r's estimated relative error and whether it is known:
// not for a profile without a sampling error (NoSamplingError), not for
// a sampled profile without object counts, not for a row of a delta
// profile whose count is not positive.
func (s *Summary) RelError(r *Row) (float64, bool) {
	if s.NoSamplingError || (s.NoObjects && !s.Exact()) || s.deltaCountless(r) {
		return 0, false
	}
	return r.RelError, true
}

// Sampled returns the objects actually sampled behind r and whether the
// number is known (as for RelError, and the profile counts objects).
func (s *Summary) Sampled(r *Row) (int64, bool) {
	if s.NoSamplingError || s.NoObjects || s.deltaCountless(r) {
		return 0, false
	}
	return r.Sampled, true
}

// deltaCountless reports whether r is a row of a delta profile whose
// count (its base count, for a row that vanished in a diff) is not
// positive.
func (s *Summary) deltaCountless(r *Row) bool {
	n := r.Objects
	if r.Status == "vanished" {
		n = r.BaseObjects
	}
	return s.Delta && n <= 0
}

// Exact reports whether every figure is exact: the profile (and the base
// profile of a diff) is a Go heap profile that recorded every allocation.
func (s *Summary) Exact() bool {
	return s.Period == 1 && !s.NoSamplingError && (!s.Diff || s.BasePeriod == 1)
}

// Share is the row's part of the profile's total bytes (of the sum of
// absolute values, for a delta profile).
func (s *Summary) Share(r *Row) float64 {
	total := s.TotalBytes
	if s.Delta {
		total = s.AbsTotalBytes
	}
	if total == 0 {
		return 0
	}
	return float64(r.Bytes) / float64(total)
}

// Top keeps the first n rows (n <= 0 keeps all) and counts the others.
func (s *Summary) Top(n int) {
	if n <= 0 || n >= len(s.Rows) {
		return
	}
	for _, r := range s.Rows[n:] {
		s.OmittedRows++
		s.OmittedBytes += r.Bytes
	}
	s.Rows = s.Rows[:n:n]
}

// Validate checks the options without reading a profile.
func (o Options) Validate() error {
	_, err := o.normalize()
	return err
}

// normalize fills the defaults and checks the options.
func (o Options) normalize() (Options, error) {
	if o.Sample == "" {
		o.Sample = "inuse"
	}
	if !slices.Contains(Samples, o.Sample) {
		return o, fmt.Errorf("sample %q must be one of: %s", o.Sample, strings.Join(Samples, ", "))
	}
	if o.GroupBy == "" {
		o.GroupBy = "function"
	}
	if !slices.Contains(Groupings, o.GroupBy) {
		return o, fmt.Errorf("group-by %q must be one of: %s", o.GroupBy, strings.Join(Groupings, ", "))
	}
	if o.GroupBy == "rule" && (o.Rules == nil || len(o.Rules.List) == 0) {
		return o, fmt.Errorf("group-by rule needs rules")
	}
	return o, nil
}

// Summarize groups the samples of a heap profile p, read with the pprof
// model. p is read, not changed or retained.
func Summarize(p *profile.Profile, opts Options) (*Summary, error) {
	h, err := FromProfile(p)
	if err != nil {
		return nil, err
	}
	return h.Summarize(opts)
}

// Frame flags of a location, for filtering.
const (
	flagFocus  = 1 << iota // a frame matches Focus
	flagIgnore             // a frame matches Ignore
	flagExact              // a frame is FocusFunction
)

// rowName is what names a row while samples are added.
type rowName struct {
	Key, Function, File string
	Line                int64
}

// rowAcc accumulates the figures of one row. The first distinct sizes
// are kept inline, beside the counts, so the per-sample loop touches one
// small region of memory per row.
type rowAcc struct {
	objects, bytes, sampled int64
	nsizes                  int
	sizes                   [inlineSizes]int64
	more                    map[int64]struct{} // distinct sizes beyond the inline ones
}

const inlineSizes = 16

func (a *rowAcc) addSize(b int64) {
	for _, s := range a.sizes[:a.nsizes] {
		if s == b {
			return
		}
	}
	if a.nsizes < inlineSizes {
		a.sizes[a.nsizes] = b
		a.nsizes++
		return
	}
	if a.more == nil {
		a.more = map[int64]struct{}{}
	}
	a.more[b] = struct{}{}
}

// sortedSizes returns the distinct sizes, ascending (never nil).
func (a *rowAcc) sortedSizes() []int64 {
	out := make([]int64, 0, a.nsizes+len(a.more))
	out = append(out, a.sizes[:a.nsizes]...)
	for b := range a.more {
		out = append(out, b)
	}
	slices.Sort(out)
	return out
}

// grouper holds the per-function and per-location facts one summary
// needs, computed once so the per-sample loop only looks them up, and the
// rows the summary accumulates.
type grouper struct {
	h        *Heap
	opts     Options
	oi, si   int     // indexes of the objects (-1: none) and bytes values
	locFlags []uint8 // focus and ignore matches of each location
	locRule  []int32 // first rule matching a frame of the location, or -1
	filter   bool
	canon    []int32 // stack grouping: function index -> first index with its name
	s        *Summary

	rows     []rowName
	accs     []rowAcc
	byKey    map[string]int32
	fnRow    []int32 // function grouping: function index -> row+1
	siteRow  map[siteKey]int32
	ruleRow  map[int32]int32
	stackRow map[string]int32
	names    []string
	compact  []byte
}

// siteKey names a site: a function and a line.
type siteKey struct {
	fn   int32
	line int64
}

// allocLines returns, for each location of h, its first line that is not
// the Go runtime's, or -1: the allocating frame of a sample is the first
// such line of its stack. Every summary of h shares it.
func allocLines(h *Heap) []int32 {
	nloc := max(len(h.locLines)-1, 0)
	fnRuntime := make([]bool, len(h.funcs))
	for i, f := range h.funcs {
		fnRuntime[i] = f.runtime || frame.IsRuntimeFunction(f.name)
	}
	locAlloc := make([]int32, nloc)
	for li := range locAlloc {
		locAlloc[li] = -1
		for j := h.locLines[li]; j < h.locLines[li+1]; j++ {
			if !fnRuntime[h.lines[j].fn] {
				locAlloc[li] = int32(j)
				break
			}
		}
	}
	return locAlloc
}

// newGrouper prepares one summary of h with opts, which are normalized.
func newGrouper(h *Heap, opts Options) (*grouper, error) {
	oi, si, err := h.sampleIndexes(opts.Sample)
	if err != nil {
		return nil, err
	}
	g := &grouper{h: h, opts: opts, oi: oi, si: si, byKey: map[string]int32{}}
	g.s = &Summary{Period: h.Period, Sample: opts.Sample, GroupBy: opts.GroupBy, NoObjects: oi < 0}
	nloc := max(len(h.locLines)-1, 0)
	g.filter = opts.Focus != nil || opts.Ignore != nil || opts.FocusFunction != ""
	var fnFlags []uint8
	if g.filter {
		fnFlags = make([]uint8, len(h.funcs))
		for i, f := range h.funcs {
			// As pprof's -focus and -ignore: the function's name or its
			// file name.
			if opts.Focus != nil && (opts.Focus.MatchString(f.name) || opts.Focus.MatchString(f.file)) {
				fnFlags[i] |= flagFocus
			}
			if opts.Ignore != nil && (opts.Ignore.MatchString(f.name) || opts.Ignore.MatchString(f.file)) {
				fnFlags[i] |= flagIgnore
			}
			if opts.FocusFunction != "" && f.name == opts.FocusFunction {
				fnFlags[i] |= flagExact
			}
		}
		g.locFlags = make([]uint8, nloc)
	}
	var fnRule []int32
	switch opts.GroupBy {
	case "function":
		g.fnRow = make([]int32, len(h.funcs))
	case "site":
		g.siteRow = map[siteKey]int32{}
	case "rule":
		g.ruleRow = map[int32]int32{}
		fnRule = make([]int32, len(h.funcs))
		for i, f := range h.funcs {
			fnRule[i] = int32(opts.Rules.match(f.name))
		}
		g.locRule = make([]int32, nloc)
	case "stack":
		g.stackRow = map[string]int32{}
		g.canon = make([]int32, len(h.funcs))
		first := make(map[string]int32, len(h.funcs))
		for i, f := range h.funcs {
			c, ok := first[f.name]
			if !ok {
				c = int32(i)
				first[f.name] = c
			}
			g.canon[i] = c
		}
	}
	if g.filter || fnRule != nil {
		for li := 0; li < nloc; li++ {
			rule := int32(-1)
			for j := h.locLines[li]; j < h.locLines[li+1]; j++ {
				fn := h.lines[j].fn
				if g.filter {
					g.locFlags[li] |= fnFlags[fn]
				}
				if fnRule != nil && fnRule[fn] >= 0 && (rule < 0 || fnRule[fn] < rule) {
					rule = fnRule[fn]
				}
			}
			if g.locRule != nil {
				g.locRule[li] = rule
			}
		}
	}
	return g, nil
}

// needsStack reports whether the grouper reads every location of a
// sample's stack, not only the allocating frame.
func (g *grouper) needsStack() bool {
	return g.filter || g.opts.GroupBy == "stack" || g.opts.GroupBy == "rule"
}

// Summarize groups the samples of the profile. h is read, not changed.
func (h *Heap) Summarize(opts Options) (*Summary, error) {
	s, err := h.SummarizeEach(opts)
	if err != nil {
		return nil, err
	}
	return s[0], nil
}

// SummarizeEach makes one summary of the profile for each of opts, in
// order, each the one Summarize would make, in one pass over the samples:
// a sample's values and stack are decoded once and added to every summary
// that keeps it. A caller that needs several views of one profile (the
// memprof engine: its instances by site, and its holder) reads and
// decodes the profile once. An invalid option, or a sample kind the
// profile lacks, is an error that names the option's position; no option
// at all is an error. h is read, not changed; the summaries share
// nothing with h or with one another.
func (h *Heap) SummarizeEach(opts ...Options) ([]*Summary, error) {
	if len(opts) == 0 {
		return nil, errors.New("summarizing: no options given")
	}
	groupers := make([]*grouper, len(opts))
	need, needStack := 0, false
	for i, o := range opts {
		o, err := o.normalize()
		if err == nil {
			groupers[i], err = newGrouper(h, o)
		}
		if err != nil {
			if len(opts) > 1 {
				err = fmt.Errorf("summary %d of %d: %w", i+1, len(opts), err)
			}
			return nil, err
		}
		need = max(need, groupers[i].oi+1, groupers[i].si+1)
		needStack = needStack || groupers[i].needsStack()
	}
	locAlloc := allocLines(h)
	vals := make([]int64, need)
	keeps := make([]bool, len(groupers))
	var locs []int32
	for i := 0; i < h.nsamples; i++ {
		vb := h.sampleValues(i)
		for j := 0; j < need; j++ {
			v, n := protowire.ConsumeVarint(vb)
			vb = vb[n:]
			vals[j] = int64(v)
		}
		kept := false
		for k, g := range groupers {
			objects, bytes := g.values(vals)
			g.s.TotalObjects += objects
			g.s.TotalBytes += bytes
			g.s.AbsTotalBytes += abs(bytes)
			keeps[k] = objects != 0 || bytes != 0
			kept = kept || keeps[k]
		}
		if !kept {
			continue
		}
		stack := h.sampleStack(i)
		locs = locs[:0]
		alloc, first := int32(-1), int32(-1)
		for len(stack) > 0 {
			id, n := protowire.ConsumeVarint(stack)
			stack = stack[n:]
			li, _ := h.locIndex(id) // checked when the profile was read
			if first < 0 {
				first = int32(h.locLines[li])
			}
			if alloc < 0 {
				alloc = locAlloc[li]
			}
			if needStack {
				locs = append(locs, li)
			} else if alloc >= 0 {
				break
			}
		}
		if alloc < 0 {
			alloc = first
		}
		for k, g := range groupers {
			if keeps[k] && (!g.filter || g.keep(locs)) {
				g.add(i, vals, locs, alloc)
			}
		}
	}
	out := make([]*Summary, len(groupers))
	for k, g := range groupers {
		out[k] = g.finish()
	}
	return out, nil
}

// values returns a sample's objects and bytes of the grouper's kind.
func (g *grouper) values(vals []int64) (objects, bytes int64) {
	if g.oi >= 0 {
		objects = vals[g.oi]
	}
	return objects, vals[g.si]
}

// newRow adds a row named key.
func (g *grouper) newRow(key string) int32 {
	g.rows = append(g.rows, rowName{Key: key})
	g.accs = append(g.accs, rowAcc{})
	return int32(len(g.rows) - 1)
}

// rowFor returns the row named key, adding it (and filling its name)
// when it is new.
func (g *grouper) rowFor(key string, fill func(*rowName)) int32 {
	if i, ok := g.byKey[key]; ok {
		return i
	}
	i := g.newRow(key)
	if fill != nil {
		fill(&g.rows[i])
	}
	g.byKey[key] = i
	return i
}

// add adds sample i, with values vals, stack locs (every location, when
// the grouper needs them) and allocating line alloc (-1: none), to its
// row.
func (g *grouper) add(i int, vals []int64, locs []int32, alloc int32) {
	h := g.h
	var ri int32
	switch g.opts.GroupBy {
	case "function", "site":
		if alloc < 0 {
			ri = g.rowFor(UnknownKey, nil)
			break
		}
		fi := h.lines[alloc].fn
		if g.opts.GroupBy == "function" {
			if g.fnRow[fi] == 0 {
				f, line := h.funcs[fi], h.lines[alloc].line
				g.fnRow[fi] = 1 + g.rowFor(f.name, func(r *rowName) { r.Function, r.File, r.Line = f.name, frame.SourcePath(f.name, f.file, ""), line })
			}
			ri = g.fnRow[fi] - 1
			break
		}
		k := siteKey{fi, h.lines[alloc].line}
		var ok bool
		if ri, ok = g.siteRow[k]; !ok {
			f := h.funcs[fi]
			file := frame.SourcePath(f.name, f.file, "")
			ri = g.rowFor(f.name+" "+file+":"+strconv.FormatInt(k.line, 10), func(r *rowName) { r.Function, r.File, r.Line = f.name, file, k.line })
			g.siteRow[k] = ri
		}
	case "stack":
		// Look the stack up by its function names' indexes (a few bytes
		// a frame); build the name key once per new stack.
		g.compact = g.compact[:0]
		for _, li := range locs {
			for j := h.locLines[li]; j < h.locLines[li+1]; j++ {
				g.compact = protowire.AppendVarint(g.compact, uint64(g.canon[h.lines[j].fn]))
			}
		}
		var ok bool
		if ri, ok = g.stackRow[string(g.compact)]; !ok {
			g.names = g.names[:0]
			for _, li := range locs {
				for j := h.locLines[li]; j < h.locLines[li+1]; j++ {
					g.names = append(g.names, h.funcs[h.lines[j].fn].name)
				}
			}
			key := strings.Join(g.names, " <- ")
			if key == "" {
				key = UnknownKey
			}
			// Distinct compact keys have distinct names: no lookup by
			// name needed.
			ri = g.newRow(key)
			g.stackRow[string(g.compact)] = ri
		}
	case "rule":
		rule := int32(-1)
		for _, li := range locs {
			if r := g.locRule[li]; r >= 0 && (rule < 0 || r < rule) {
				rule = r
			}
		}
		var ok bool
		if ri, ok = g.ruleRow[rule]; !ok {
			key := UnmatchedKey
			if rule >= 0 {
				key = g.opts.Rules.List[rule].Name
			}
			ri = g.rowFor(key, nil)
			g.ruleRow[rule] = ri
		}
	}
	objects, bytes := g.values(vals)
	a := &g.accs[ri]
	a.objects += objects
	a.bytes += bytes
	if h.rawSampled != nil {
		a.sampled += h.rawSampled[i*len(h.SampleTypes)+g.oi]
	} else {
		a.sampled += sampledAt(objects, bytes, h.Period)
	}
	for _, b := range h.sampleSizes(i) {
		a.addSize(b)
	}
}

// finish sorts the grouper's rows and returns its summary.
func (g *grouper) finish() *Summary {
	s, rows, accs := g.s, g.rows, g.accs
	s.describe(g.h)
	// Sort an index, not the rows: rows are large and may be many.
	order := make([]int32, len(rows))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(x, y int32) int {
		a, b := accs[x].bytes, accs[y].bytes
		if s.Delta {
			a, b = abs(a), abs(b)
		}
		if a != b {
			if a > b {
				return -1
			}
			return 1
		}
		return strings.Compare(rows[x].Key, rows[y].Key)
	})
	s.Rows = make([]Row, len(rows))
	for j, i := range order {
		a, n := &accs[i], &rows[i]
		r := &s.Rows[j]
		r.Key, r.Function, r.File, r.Line = n.Key, n.Function, n.File, n.Line
		r.Objects, r.Bytes, r.Sampled = a.objects, a.bytes, a.sampled
		r.Sizes = a.sortedSizes()
		r.RelError, r.LowSamples = sampling(r.Sampled, g.h.Period)
	}
	return s
}

// describe sets what the summary says about its profile as a whole:
// whether it is a delta profile, whether its sampling error can be
// estimated, and the notes that say so.
func (s *Summary) describe(h *Heap) {
	s.Notes = append(s.Notes, h.Notes...)
	switch {
	case h.DurationNanos > 0:
		s.Delta = true
		s.DeltaReason = fmt.Sprintf("duration_nanos is %s: the figures are what changed over that time (as /debug/pprof/heap?seconds=N serves them)", time.Duration(h.DurationNanos))
	case h.negatives > 0:
		s.Delta = true
		s.DeltaReason = "samples have negative values: the figures are a difference of two profiles (as pprof -diff_base saves it)"
	}
	if s.Delta {
		s.Notes = append(s.Notes,
			"delta profile: "+s.DeltaReason+"; they are changes, not what the heap held",
			fmt.Sprintf("totals are net sums (gains minus losses); pprof's total is the sum of absolute values, %d B, of which shares are given; rows are sorted by absolute bytes; bytes per object and sampling errors are omitted for rows whose counts are not positive", s.AbsTotalBytes))
	}
	if s.NoObjects {
		s.Notes = append(s.Notes, fmt.Sprintf("the profile counts no objects (sample types %s): objects and bytes per object are unknown", h.sampleTypeList()))
	}
	switch {
	case h.PeriodType != (ValueType{"space", "bytes"}):
		s.NoSamplingError = true
		s.Notes = append(s.Notes, fmt.Sprintf("period type %s/%s is not the Go runtime's (space/bytes): no sampling error is estimated", h.PeriodType.Type, h.PeriodType.Unit))
	case h.Period <= 0:
		s.NoSamplingError = true
		s.Notes = append(s.Notes, fmt.Sprintf("sampling period %d (unknown): no sampling error is estimated", h.Period))
	}
}

// keep applies the focus and ignore filters to one sample's locations.
func (g *grouper) keep(locs []int32) bool {
	var flags uint8
	for _, li := range locs {
		flags |= g.locFlags[li]
	}
	if flags&flagIgnore != 0 {
		return false
	}
	if g.opts.Focus != nil && flags&flagFocus == 0 {
		return false
	}
	if g.opts.FocusFunction != "" && flags&flagExact == 0 {
		return false
	}
	return true
}

// sampledObjects recovers how many objects the runtime actually sampled
// behind a sample of a profile with the given period. The Go runtime
// scales a sample of count objects of average size s by
// 1/(1-exp(-s/period)) (runtime/pprof scaleHeapSample); this inverts it.
func sampledObjects(objects, bytes, period int64) int64 {
	if objects <= 0 {
		return 0
	}
	if period <= 1 || bytes <= 0 {
		return objects
	}
	avg := float64(bytes) / float64(objects)
	keep := 1 - math.Exp(-avg/float64(period))
	n := int64(math.Ceil(float64(objects)*keep - 1e-6))
	return max(n, 1)
}

// sampledAt is the number of objects the runtime sampled behind a
// sample of a profile with the given period.
func sampledAt(objects, bytes, period int64) int64 {
	if period > 1 {
		return sampledObjects(objects, bytes, period)
	}
	return max(objects, 0)
}

// sampling estimates a row's relative error from its sampled objects:
// the count of a Poisson process has relative standard error
// 1/sqrt(count).
func sampling(sampled, period int64) (relError float64, low bool) {
	if period <= 1 {
		return 0, false
	}
	if sampled <= 0 {
		return 1, true
	}
	return 1 / math.Sqrt(float64(sampled)), sampled < MinSampled
}
