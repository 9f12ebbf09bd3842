package memprof

import (
	"bytes"
	"fmt"
	"regexp"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/memprof/memprof/heapscan"
	"github.com/memprof/memprof/model"
)

// The number of calls ProfileOpSites makes when OpSiteOptions.Calls is 0:
// as many as run in OpSiteTarget (timed in the warm-up, at profile rate
// 1), at least MinOpSiteCalls and at most MaxOpSiteCalls.
const (
	OpSiteTarget   = 20 * time.Millisecond
	MinOpSiteCalls = 8
	MaxOpSiteCalls = 20_000
)

// OpSitesMethod says how ProfileOpSites finds where an operation
// allocates; it is added to the throughput method of results that carry
// sites.
const OpSitesMethod = `Allocation sites (sites): each operation is run again in a child process, not during the timed samples, with runtime.MemProfileRate = 1 so that every allocation is recorded: warmed up, then a loop of calls (as many as take about 20 ms, at least 8), then the same loop with the operation removed (the baseline). ` +
	`A site's figures are the allocations of the whole process during the operation's loop minus those during the baseline, grouped by the allocating function and line (the first frame outside the Go runtime), divided by the calls: so the allocations of worker goroutines an operation starts, whose stacks do not contain the caller, are counted too. ` +
	`Heap profiles count slots (an object's size class, as runtime.MemStats.TotalAlloc does), so a row's sites sum to its bytes_per_op up to what differs between two runs of the operation; tiny allocations (under 16 B, without pointers) share 16-byte blocks, which the profile counts as one object. Where the allocations depend on GOMAXPROCS (a library's worker goroutines), the row says so.`

// OpSiteOptions control ProfileOpSites.
type OpSiteOptions struct {
	// Calls is how many calls the profiled loop makes; 0 chooses them
	// (see OpSiteTarget).
	Calls int
}

// OpSites is where one operation allocates, per call.
type OpSites struct {
	// Calls is the number of calls profiled (and of baseline calls).
	Calls int
	// BytesPerOp and AllocsPerOp are the whole process's allocations
	// during the calls minus the baseline's, per call: the sum over every
	// site, including those the baseline allocated more at.
	BytesPerOp  float64 `json:"bytes_per_op"`
	AllocsPerOp float64 `json:"allocs_per_op"`
	// Sites are the sites that allocated more during the operation's loop
	// than during the baseline, largest first.
	Sites []model.OpSite `json:"sites"`
}

// ProfileOpSites finds where run allocates: it runs it under
// MemProfileRate 1, in a loop of calls, then the same loop with run
// removed, and returns the difference per call by allocation site
// (OpSitesMethod). It holds the engine's process-wide lock and restores
// MemProfileRate after. Every allocation of the process during the loops
// counts, so other goroutines of the caller disturb the figures:
// OpSitesInChild gives a clean process. Nothing run allocates is retained.
func ProfileOpSites(run func() error, o OpSiteOptions) (*OpSites, error) {
	if run == nil {
		return nil, fmt.Errorf("profiling allocation sites: no operation")
	}
	if o.Calls < 0 {
		return nil, fmt.Errorf("profiling allocation sites: calls must be positive, or 0 to choose, got %d", o.Calls)
	}
	measureMu.Lock()
	defer measureMu.Unlock()
	oldRate := runtime.MemProfileRate
	runtime.MemProfileRate = 1
	defer func() { runtime.MemProfileRate = oldRate }()

	// Warm up at rate 1: one-time set-up (a library's tables, a pool of
	// worker goroutines, the profiler's buckets of these stacks) is not
	// charged to the calls, and the warm-up times one call.
	calls := o.Calls
	start := time.Now()
	warm := 0
	for ; warm < MinOpSiteCalls || time.Since(start) < OpSiteTarget/4; warm++ {
		if err := run(); err != nil {
			return nil, fmt.Errorf("profiling allocation sites: warm-up call %d: %w", warm+1, err)
		}
	}
	if calls == 0 {
		perCall := max(time.Since(start)/time.Duration(warm), 1)
		calls = int(min(max(int64(OpSiteTarget/perCall), MinOpSiteCalls), MaxOpSiteCalls))
	}

	// The engine's own allocations while reading the profile happen
	// under allocSnapshot: they are left out of every summary.
	ignore := regexp.MustCompile("^" + regexp.QuoteMeta(funcName(allocSnapshot)) + "$")
	nop := func() error { return nil }
	before, err := allocSnapshot(ignore)
	if err != nil {
		return nil, err
	}
	if err := opLoop(run, calls); err != nil {
		return nil, fmt.Errorf("profiling allocation sites: %w", err)
	}
	mid, err := allocSnapshot(ignore)
	if err != nil {
		return nil, err
	}
	if err := opLoop(nop, calls); err != nil {
		return nil, err
	}
	after, err := allocSnapshot(ignore)
	if err != nil {
		return nil, err
	}
	return opSitesOf(calls, before, mid, after), nil
}

// opLoop calls run n times; the operation's loop and the baseline are the
// same code.
//
//go:noinline
func opLoop(run func() error, n int) error {
	for i := range n {
		if err := run(); err != nil {
			return fmt.Errorf("call %d: %w", i+1, err)
		}
	}
	return nil
}

// siteTotals are the cumulative allocations of a profile by site.
type siteTotals map[string]heapscan.Row

// allocSnapshot completes a GC cycle, so that the heap profile holds
// every allocation made before the call, and returns the profile's
// cumulative allocations by site, without those of the stacks ignore
// matches (the engine's own, under this frame).
//
//go:noinline
func allocSnapshot(ignore *regexp.Regexp) (siteTotals, error) {
	runtime.GC()
	var buf bytes.Buffer
	if err := pprof.Lookup("heap").WriteTo(&buf, 0); err != nil {
		return nil, fmt.Errorf("profiling allocation sites: writing heap profile: %w", err)
	}
	h, err := heapscan.Read(&buf, heapscan.ReadOptions{})
	if err != nil {
		return nil, fmt.Errorf("profiling allocation sites: reading heap profile: %w", err)
	}
	if h.Period != 1 {
		return nil, fmt.Errorf("profiling allocation sites: heap profile has sampling period %d, want 1 (exact)", h.Period)
	}
	s, err := h.Summarize(heapscan.Options{Sample: "alloc", GroupBy: "site", Ignore: ignore})
	if err != nil {
		return nil, fmt.Errorf("profiling allocation sites: %w", err)
	}
	t := make(siteTotals, len(s.Rows))
	for _, r := range s.Rows {
		t[r.Key] = r
	}
	return t, nil
}

// opSitesOf is the operation's loop (mid - before) minus the baseline
// (after - mid), per call.
func opSitesOf(calls int, before, mid, after siteTotals) *OpSites {
	out := &OpSites{Calls: calls}
	n := float64(calls)
	var bytesNet, objectsNet int64
	for key, m := range mid {
		b, a := before[key], after[key]
		opBytes, opObjects := m.Bytes-b.Bytes, m.Objects-b.Objects
		baseBytes, baseObjects := a.Bytes-m.Bytes, a.Objects-m.Objects
		db, do := opBytes-baseBytes, opObjects-baseObjects
		bytesNet += db
		objectsNet += do
		if db > 0 || (db == 0 && do > 0) {
			out.Sites = append(out.Sites, model.OpSite{Function: m.Function, File: m.File, Line: m.Line,
				BytesPerOp: float64(db) / n, AllocsPerOp: float64(do) / n})
		}
	}
	// A site that appears only after the operation's loop is the
	// baseline's own: it counts against the total.
	for key, a := range after {
		if _, ok := mid[key]; !ok {
			bytesNet -= a.Bytes
			objectsNet -= a.Objects
		}
	}
	out.BytesPerOp, out.AllocsPerOp = float64(bytesNet)/n, float64(objectsNet)/n
	slices.SortFunc(out.Sites, func(x, y model.OpSite) int {
		switch {
		case x.BytesPerOp != y.BytesPerOp:
			if x.BytesPerOp > y.BytesPerOp {
				return -1
			}
			return 1
		case x.Function != y.Function:
			return strings.Compare(x.Function, y.Function)
		}
		return int(x.Line - y.Line)
	})
	return out
}
