package heapscan

import (
	"slices"
	"strconv"
	"strings"

	"github.com/memprof/memprof/internal/frame"
	"google.golang.org/protobuf/encoding/protowire"
)

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
