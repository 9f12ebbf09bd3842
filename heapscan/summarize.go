package heapscan

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/google/pprof/profile"
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
