package heapscan

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/google/pprof/profile"
)

// Options say which samples a summary reads and how it groups them.
type Options struct {
	// Sample is "inuse" (the default) or "alloc".
	Sample string
	// GroupBy is "function" (the default: the allocating function, the
	// first frame that is not the Go runtime), "site" (function and line)
	// or "stack" (the whole stack).
	GroupBy string
	// Focus keeps only samples with a frame (any line of any location,
	// inlined frames included) whose function name matches.
	Focus *regexp.Regexp
	// Ignore drops samples with a frame whose function name matches.
	Ignore *regexp.Regexp
	// FocusFunction, when set, keeps only samples with a frame whose
	// function name is exactly this. The engine uses it to attribute its
	// own profiles to the instance constructor.
	FocusFunction string
}

// Row is one group of samples.
type Row struct {
	// Key names the group: a function, "function file:line", or a stack
	// of functions joined by " <- " (leaf first).
	Key      string `json:"key"`
	Function string `json:"-"`
	File     string `json:"-"`
	Line     int64  `json:"-"`
	Objects  int64  `json:"objects"`
	Bytes    int64  `json:"bytes"`
	// Sizes are the distinct object slot sizes seen (the "bytes" label),
	// ascending.
	Sizes []int64 `json:"sizes"`
}

// BytesPerObject is Bytes/Objects, or 0 for a row without objects.
func (r *Row) BytesPerObject() float64 {
	if r.Objects == 0 {
		return 0
	}
	return float64(r.Bytes) / float64(r.Objects)
}

// Summary is a grouped view of one heap profile. It owns its rows and
// retains nothing of the profile it was made from.
type Summary struct {
	// Period is the profile's sampling period (runtime.MemProfileRate):
	// 1 means every allocation was recorded and the figures are exact.
	Period int64
	// Sample is "inuse" or "alloc".
	Sample string
	// TotalBytes and TotalObjects sum the whole profile, before focus.
	TotalBytes   int64
	TotalObjects int64
	// Rows are sorted by bytes, largest first, then by key.
	Rows []Row
}

// sampleIndexes finds the objects and space sample types for kind.
func sampleIndexes(types []*profile.ValueType, kind string) (objects, space int, err error) {
	objects, space = -1, -1
	for i, st := range types {
		switch st.Type {
		case kind + "_objects":
			objects = i
		case kind + "_space":
			space = i
		}
	}
	if objects < 0 || space < 0 {
		var names []string
		for _, st := range types {
			names = append(names, st.Type)
		}
		return 0, 0, fmt.Errorf("not a heap profile: no %s_objects/%s_space sample types (has %s)", kind, kind, strings.Join(names, ", "))
	}
	return objects, space, nil
}

// normalize fills the defaults and checks the options.
func (o Options) normalize() (Options, error) {
	if o.Sample == "" {
		o.Sample = "inuse"
	}
	if o.Sample != "inuse" && o.Sample != "alloc" {
		return o, fmt.Errorf("sample %q must be one of: inuse, alloc", o.Sample)
	}
	if o.GroupBy == "" {
		o.GroupBy = "function"
	}
	switch o.GroupBy {
	case "function", "site", "stack":
	default:
		return o, fmt.Errorf("group-by %q must be one of: function, site, stack", o.GroupBy)
	}
	return o, nil
}

// isRuntime reports whether fn belongs to the Go runtime's allocator path.
func isRuntime(fn string) bool {
	return strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "internal/runtime/")
}

// Summarize groups the samples of a heap profile p. p is read, not changed
// or retained.
func Summarize(p *profile.Profile, opts Options) (*Summary, error) {
	opts, err := opts.normalize()
	if err != nil {
		return nil, err
	}
	oi, si, err := sampleIndexes(p.SampleType, opts.Sample)
	if err != nil {
		return nil, err
	}
	s := &Summary{Period: p.Period, Sample: opts.Sample}
	rows := map[string]*Row{}
	sizes := map[string]map[int64]bool{}
	for _, smp := range p.Sample {
		objects, bytes := smp.Value[oi], smp.Value[si]
		s.TotalObjects += objects
		s.TotalBytes += bytes
		if !keep(smp, opts) {
			continue
		}
		if objects == 0 && bytes == 0 {
			continue
		}
		key, fn, file, line := groupKey(smp, opts.GroupBy)
		r := rows[key]
		if r == nil {
			r = &Row{Key: key, Function: fn, File: file, Line: line}
			rows[key] = r
			sizes[key] = map[int64]bool{}
		}
		r.Objects += objects
		r.Bytes += bytes
		if v, ok := smp.NumLabel["bytes"]; ok {
			for _, b := range v {
				sizes[key][b] = true
			}
		}
	}
	for key, r := range rows {
		for b := range sizes[key] {
			r.Sizes = append(r.Sizes, b)
		}
		sort.Slice(r.Sizes, func(i, j int) bool { return r.Sizes[i] < r.Sizes[j] })
		s.Rows = append(s.Rows, *r)
	}
	sort.Slice(s.Rows, func(i, j int) bool {
		if s.Rows[i].Bytes != s.Rows[j].Bytes {
			return s.Rows[i].Bytes > s.Rows[j].Bytes
		}
		return s.Rows[i].Key < s.Rows[j].Key
	})
	return s, nil
}

// keep applies the focus and ignore filters to one sample's frames.
func keep(smp *profile.Sample, opts Options) bool {
	if opts.Focus == nil && opts.Ignore == nil && opts.FocusFunction == "" {
		return true
	}
	focused := opts.Focus == nil
	exact := opts.FocusFunction == ""
	for _, loc := range smp.Location {
		for _, ln := range loc.Line {
			if ln.Function == nil {
				continue
			}
			name := ln.Function.Name
			if opts.Ignore != nil && opts.Ignore.MatchString(name) {
				return false
			}
			if !focused && opts.Focus.MatchString(name) {
				focused = true
			}
			if !exact && name == opts.FocusFunction {
				exact = true
			}
		}
	}
	return focused && exact
}

// groupKey returns the group of one sample and, for function and site
// grouping, its allocating frame.
func groupKey(smp *profile.Sample, groupBy string) (key, fn, file string, line int64) {
	if groupBy == "stack" {
		var names []string
		for _, loc := range smp.Location {
			for _, ln := range loc.Line {
				if ln.Function != nil {
					names = append(names, ln.Function.Name)
				}
			}
		}
		return strings.Join(names, " <- "), "", "", 0
	}
	var first *profile.Line
	for _, loc := range smp.Location {
		for i := range loc.Line {
			ln := &loc.Line[i]
			if ln.Function == nil {
				continue
			}
			if first == nil {
				first = ln
			}
			if !isRuntime(ln.Function.Name) {
				return frameKey(ln, groupBy)
			}
		}
	}
	if first != nil {
		return frameKey(first, groupBy)
	}
	return "(unknown)", "(unknown)", "", 0
}

func frameKey(ln *profile.Line, groupBy string) (key, fn, file string, line int64) {
	fn, file, line = ln.Function.Name, ln.Function.Filename, ln.Line
	if groupBy == "site" {
		return fn + " " + file + ":" + strconv.FormatInt(line, 10), fn, file, line
	}
	return fn, fn, file, line
}
