package memprof

import (
	"cmp"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"time"

	"github.com/memprof/memprof/internal/frame"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/units"
)

// The number n of calls ProfileOpSites's figures are over when
// OpSiteOptions.Calls is 0: its loop of 2n calls takes about OpSiteTarget
// (timed in the warm-up, at profile rate 1); n is at least MinOpSiteCalls
// and at most MaxOpSiteCalls.
const (
	OpSiteTarget   = 40 * time.Millisecond
	MinOpSiteCalls = 2
	MaxOpSiteCalls = 20_000
)

// minOpSiteWarmup is the least number of warm-up calls; the warm-up also
// lasts at least a quarter of OpSiteTarget.
const minOpSiteWarmup = 1

// The sites of an operation whose allocations vary from call to call
// (its worker goroutines scheduled one way or another) come from enough
// calls that OpSiteRepeats repeats of its profiled loop agree to within
// OpSiteAgreement of their bytes per call: ProfileOpSites doubles the
// calls until they do, or until the extra time OpSiteOptions.ExtraTime
// allows has gone (OpSitesTask gives each group of operations
// DefaultOpSiteExtraTime).
const (
	OpSiteRepeats          = 3
	OpSiteAgreement        = 0.02
	DefaultOpSiteExtraTime = 2 * time.Second
)

// OpSitesMethod says how ProfileOpSites finds where an operation
// allocates; it is added to the throughput method of results that carry
// sites.
var OpSitesMethod = fmt.Sprintf(`Allocation sites (sites): each operation is run again in a child process, not during the timed samples, with runtime.MemProfileRate = 1 so that every allocation is recorded: warmed up, then a baseline loop of 2n iterations, the same loop with the operation removed from all but its first n calls, then the operation's loop of 2n calls, %s times (n such that a loop takes about %v, at least %d), all with the garbage collector off and each after a collection that publishes the profile. `+
	`A site's figures are the allocations of the whole process during an operation's loop minus those during the baseline, grouped by the allocating function and line (the first frame outside the Go runtime; allocations with no such frame are the runtime's own, as its collector's, and are left out), divided by n (sites_calls): so the allocations of worker goroutines an operation starts, whose stacks do not contain the caller, are counted too, and what the first calls after a collection allocate again (the sync.Pool contents a collection drops, on each P) is left out, as in a long run. `+
	`The %s loops must agree to within %g%% of their bytes per call; where they do not (what a call allocates depends on how its goroutines are scheduled), the calls are doubled until they do, within %v more for the operations compared with one another, and the row says that its allocation depends on scheduling (allocs_depend_on_scheduling). The sites are those of the loop of the median bytes per call. `+
	`Heap profiles count slots (an object's size class, as runtime.MemStats.TotalAlloc does), so a row's sites sum to its bytes_per_op up to what differs between runs of the operation (allocations made on some calls only: a buffer too small, a pool miss, a goroutine's descriptor); where they differ from it by more than %g%% (and a byte per call), the difference is a site of its own, (unattributed). Tiny allocations (under 16 B, without pointers) share 16-byte blocks, which the profile counts as one object. Where the allocations depend on GOMAXPROCS (a library's worker goroutines), the row says so.`,
	units.Count.Format(OpSiteRepeats), OpSiteTarget, MinOpSiteCalls,
	units.Count.Format(OpSiteRepeats), OpSiteAgreement*100, DefaultOpSiteExtraTime, OpSiteAgreement*100)

// OpSiteOptions control ProfileOpSites.
type OpSiteOptions struct {
	// Calls is how many calls the profiled loop makes; 0 chooses them
	// (see OpSiteTarget).
	Calls int
	// ExtraTime is how long ProfileOpSites may spend beyond its first
	// three loops on more calls, when they do not agree; 0 spends none.
	ExtraTime time.Duration
}

// OpSites is where one operation allocates, per call.
type OpSites struct {
	// Calls is the number of calls the figures are per, n: the
	// operation's loop ran 2n, the baseline's first n.
	Calls int
	// BytesPerOp and AllocsPerOp are the whole process's allocations
	// during the calls minus the baseline's, per call: the sum over every
	// site, including those the baseline allocated more at.
	BytesPerOp  float64 `json:"bytes_per_op"`
	AllocsPerOp float64 `json:"allocs_per_op"`
	// Sites are the sites that allocated more during the operation's loop
	// than during the baseline, largest first.
	Sites []measure.OpSite `json:"sites"`
	// RepeatsBytesPerOp are the bytes per call of the repeats of the
	// operation's loop the sites were chosen from (the median).
	RepeatsBytesPerOp []float64 `json:"repeats_bytes_per_op,omitempty"`
	// SchedulingDependent says that the first repeats did not agree (see
	// OpSiteAgreement): what a call allocates varies with how its
	// goroutines are scheduled.
	SchedulingDependent bool `json:"scheduling_dependent,omitempty"`
	// Extra is the time spent beyond the first repeats.
	Extra time.Duration `json:"extra_ns,omitempty"`
}

// ProfileOpSites finds where run allocates: it runs it under
// MemProfileRate 1, in a loop of calls, then the same loop with run
// removed, and returns the difference per call by allocation site
// (OpSitesMethod), from OpSiteRepeats loops that agree (doubling the
// calls, within o.ExtraTime, until they do). It holds the engine's
// process-wide lock and restores MemProfileRate after. Every allocation
// of the process during the loops counts, so other goroutines of the
// caller disturb the figures: OpSitesInChild gives a clean process.
// Nothing run allocates is retained.
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
	// charged to the calls, and the warm-up times one call and counts what
	// it allocates.
	calls := o.Calls
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	start := time.Now()
	warm := 0
	for ; warm < minOpSiteWarmup || time.Since(start) < OpSiteTarget/4; warm++ {
		if err := run(); err != nil {
			return nil, fmt.Errorf("profiling allocation sites: warm-up call %d: %w", warm+1, err)
		}
	}
	elapsed := time.Since(start)
	runtime.ReadMemStats(&m1)
	perCallBytes := (m1.TotalAlloc - m0.TotalAlloc) / uint64(warm)
	if calls == 0 {
		perCall := max(elapsed/time.Duration(warm), 1)
		calls = int(min(max(int64(OpSiteTarget/2/perCall), MinOpSiteCalls), MaxOpSiteCalls))
		// The collector is off during the loops: keep what they allocate
		// (3n calls) under maxOpSiteHeap.
		if perCallBytes > 0 {
			calls = max(min(calls, int(maxOpSiteHeap/3/perCallBytes)), 1)
		}
	}

	var out *OpSites
	var extraStart time.Time
	for round := 0; ; round++ {
		roundStart := time.Now()
		s, err := opSiteRound(run, calls)
		if err != nil {
			return nil, err
		}
		took := time.Since(roundStart)
		if round == 0 {
			extraStart = time.Now()
			s.SchedulingDependent = !s.agree()
		} else {
			s.SchedulingDependent = true
			s.Extra = time.Since(extraStart)
		}
		out = s
		// Another round, of twice the calls, takes about twice as long.
		next := 2 * calls
		if s.agree() || 2*took > o.ExtraTime-time.Since(extraStart) || next > MaxOpSiteCalls || (perCallBytes > 0 && uint64(next)*3*perCallBytes > maxOpSiteHeap) {
			return out, nil
		}
		calls = next
	}
}

// agree reports whether the repeats' bytes per call agree to within
// OpSiteAgreement of their median (and half a byte).
func (s *OpSites) agree() bool {
	lo, hi := slices.Min(s.RepeatsBytesPerOp), slices.Max(s.RepeatsBytesPerOp)
	return hi-lo <= max(OpSiteAgreement*math.Abs(s.BytesPerOp), 0.5)
}

// opSiteRound profiles calls calls: the baseline, then OpSiteRepeats
// loops of the operation, and returns the sites of the loop of the median
// bytes per call, with every loop's bytes per call.
func opSiteRound(run func() error, calls int) (*OpSites, error) {
	// The baseline is the same loop with the operation removed from all
	// but its first calls, as many as the difference is over: they bear
	// what the first calls after a collection allocate (the snapshot's
	// collection empties every sync.Pool, which the calls fill again, on
	// each P they run on), which the operation's loop allocates too.
	left := calls
	firstCalls := func() error {
		if left == 0 {
			return nil
		}
		left--
		return run()
	}
	sites := stackSites
	before, err := allocSnapshot(sites)
	if err != nil {
		return nil, err
	}
	if err := opLoop(firstCalls, 2*calls); err != nil {
		return nil, fmt.Errorf("profiling allocation sites: baseline: %w", err)
	}
	mid, err := allocSnapshot(sites)
	if err != nil {
		return nil, err
	}
	repeats := make([]*OpSites, OpSiteRepeats)
	for k := range repeats {
		a, err := allocSnapshot(sites)
		if err != nil {
			return nil, err
		}
		if err := opLoop(run, 2*calls); err != nil {
			return nil, fmt.Errorf("profiling allocation sites: %w", err)
		}
		b, err := allocSnapshot(sites)
		if err != nil {
			return nil, err
		}
		repeats[k] = opSitesOf(calls, before, mid, a, b)
	}
	slices.SortStableFunc(repeats, func(x, y *OpSites) int { return cmp.Compare(x.BytesPerOp, y.BytesPerOp) })
	s := repeats[len(repeats)/2]
	for _, r := range repeats {
		s.RepeatsBytesPerOp = append(s.RepeatsBytesPerOp, r.BytesPerOp)
	}
	return s, nil
}

// maxOpSiteHeap bounds what the loops of ProfileOpSites may allocate
// when it chooses the number of calls: the collector is off during them.
const maxOpSiteHeap = 256 << 20

// opLoop calls run n times, with the collector off: a cycle started by
// the operation's allocations would allocate the runtime's own objects
// in its loop and not in the baseline's. The operation's loop and the
// baseline are the same code.
//
//go:noinline
func opLoop(run func() error, n int) error {
	gcPercent := debug.SetGCPercent(-1)
	defer debug.SetGCPercent(gcPercent)
	for i := range n {
		if err := run(); err != nil {
			return fmt.Errorf("call %d: %w", i+1, err)
		}
	}
	return nil
}

// siteKey names an allocation site: the allocating function and line (for
// op sites, and across the views of the profiled pass's profiles).
type siteKey struct {
	function, file string
	line           int64
}

// siteTotal is what a site allocated since the process started.
type siteTotal struct {
	bytes, objects int64
}

// stackSites caches the site of each stack the heap profile has shown,
// for every ProfileOpSites of the process (guarded by measureMu): the
// profile keeps every stack ever sampled, and symbolizing one costs.
var stackSites = map[[32]uintptr]siteKey{}

// siteTotals are the cumulative allocations of the heap profile by site.
type siteTotals map[siteKey]siteTotal

// allocSnapshot completes a GC cycle, so that the heap profile holds
// every allocation made before the call, and returns the profile's
// cumulative allocations by site (runtime.MemProfile, every record, the
// freed ones included), without its own (the records it allocates, under
// this frame). It reads the records in this goroutine, so nothing else
// allocates for it; stacks are symbolized once each (sites caches them).
//
//go:noinline
func allocSnapshot(sites map[[32]uintptr]siteKey) (siteTotals, error) {
	runtime.GC()
	n, _ := runtime.MemProfile(nil, true)
	var recs []runtime.MemProfileRecord
	for {
		recs = make([]runtime.MemProfileRecord, n+n/4+64)
		var ok bool
		if n, ok = runtime.MemProfile(recs, true); ok {
			recs = recs[:n]
			break
		}
	}
	self := funcName(allocSnapshot)
	t := make(siteTotals, len(recs))
	for i := range recs {
		r := &recs[i]
		k, ok := sites[r.Stack0]
		if !ok {
			k = stackSite(r.Stack(), self)
			sites[r.Stack0] = k
		}
		if k.function == self || k.function == "" {
			continue // the engine's own, or the runtime's (no frame outside it)
		}
		tot := t[k]
		tot.bytes += r.AllocBytes
		tot.objects += r.AllocObjects
		t[k] = tot
	}
	return t, nil
}

// stackSite returns the site of an allocation's stack: its first frame
// outside the Go runtime; the zero site when every frame is the runtime's
// (its own allocations, such as its collector's: no operation's), or the
// site named self when a frame of the stack is self.
func stackSite(stack []uintptr, self string) siteKey {
	frames := runtime.CallersFrames(stack)
	var site siteKey
	for {
		f, more := frames.Next()
		if f.Function == self {
			return siteKey{function: self}
		}
		if site.function == "" && f.Function != "" && !frame.IsAllocatorFunction(f.Function) {
			site = siteKey{function: f.Function, file: f.File, line: int64(f.Line)}
		}
		if !more {
			break
		}
	}
	return site
}

// opSitesOf is the operation's loop (after - start) minus the baseline
// (mid - before), per call.
func opSitesOf(calls int, before, mid, start, after siteTotals) *OpSites {
	out := &OpSites{Calls: calls}
	n := float64(calls)
	var bytesNet, objectsNet int64
	for k, a := range after {
		b, m, s := before[k], mid[k], start[k]
		db := (a.bytes - s.bytes) - (m.bytes - b.bytes)
		do := (a.objects - s.objects) - (m.objects - b.objects)
		bytesNet += db
		objectsNet += do
		if db > 0 || (db == 0 && do > 0) {
			out.Sites = append(out.Sites, measure.OpSite{Function: k.function, File: k.file, Line: k.line,
				BytesPerOp: float64(db) / n, AllocsPerOp: float64(do) / n})
		}
	}
	out.BytesPerOp, out.AllocsPerOp = float64(bytesNet)/n, float64(objectsNet)/n
	nameOpSites(out.Sites)
	slices.SortFunc(out.Sites, func(x, y measure.OpSite) int {
		switch {
		case x.BytesPerOp != y.BytesPerOp:
			if x.BytesPerOp > y.BytesPerOp {
				return -1
			}
			return 1
		case x.Function != y.Function:
			return cmp.Compare(x.Function, y.Function)
		}
		return int(x.Line - y.Line)
	})
	return out
}

// UnattributedOpSite returns sites with, when they add up to more or less
// than bytesPerOp (the row's B/op, from its timed calls) by more than
// OpSiteAgreement of it and a byte, one more site of the difference, in
// bytes and objects: measure.UnattributedSite. What a call allocates then
// varies between the timed calls and the profiled ones (a pool miss, a
// buffer grown, the scheduling of its goroutines), or the runtime
// allocated for itself meanwhile. sites is not modified.
func UnattributedOpSite(sites []measure.OpSite, bytesPerOp, allocsPerOp float64) []measure.OpSite {
	var b, o float64
	for _, s := range sites {
		b += s.BytesPerOp
		o += s.AllocsPerOp
	}
	if math.Abs(bytesPerOp-b) <= max(OpSiteAgreement*math.Abs(bytesPerOp), 1) {
		return sites
	}
	return append(slices.Clip(sites), measure.OpSite{Function: measure.UnattributedSite, BytesPerOp: bytesPerOp - b, AllocsPerOp: allocsPerOp - o})
}
