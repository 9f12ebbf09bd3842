package workflow

import (
	"cmp"
	"context"
	"slices"
	"strconv"

	"golang.org/x/perf/benchunit"

	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
)

// What a run will need at its peak is estimated before anything is
// allocated, from the registry's per-instance sizes and each case's N: a
// run over LargeRun bytes is announced (the MemoryEstimated event), one
// over the memory available is refused unless Options.Force.

// LargeRun is the estimated peak, in bytes, above which a workflow
// announces its estimate before it runs (1 GB).
const LargeRun = 1e9

// heapGoal is how far the Go heap of a child may grow past what its
// instances keep before a collection: GOGC's default of 100 lets it reach
// twice the live heap.
const heapGoal = 2

// holderBytes is what the harness's holder keeps per instance beside it
// (a pointer in a slice of pointers, or an interface's two words).
const holderBytes = 16

// Estimate is what a run is expected to need at its peak, from the
// registry's per-instance sizes and what a few instances' constructors
// allocate: an estimate, not a bound (a library's C heap, a fallback to a
// profile of all N and the runtime's own memory are beside it).
type Estimate struct {
	// PeakBytes is the sum of the Jobs largest cases' estimates: the
	// children measuring at the same time.
	PeakBytes float64
	// Jobs is how many cases are measured at once.
	Jobs int
	// Largest is the case needing the most, at its N, and its estimate.
	Largest      results.Key
	LargestN     int
	LargestBytes float64
	// AvailableBytes is the memory the peak is checked against
	// (Options.MemoryAvailable, or the machine's); 0 when unknown.
	AvailableBytes float64
	// ProbeFailed says why the constructors could not be probed, where
	// they could not: the estimate then has the per-instance sizes alone,
	// without what a constructor drops.
	ProbeFailed string
}

// Large reports whether the run is announced before it starts.
func (e Estimate) Large() bool { return e.PeakBytes > LargeRun }

// TooLarge reports whether the estimate exceeds the memory available.
func (e Estimate) TooLarge() bool { return e.AvailableBytes > 0 && e.PeakBytes > e.AvailableBytes }

// String says the estimate in a sentence's words, an estimate's "about"
// included: "about 4.1GB at the peak (2 cases at a time; the largest MLDSAPublicKey/circl/... at
// N=100000, 3.2GB)".
func (e Estimate) String() string {
	s := "about " + bytesText(e.PeakBytes) + " at the peak (" + cases(e.Jobs) + " at a time; the largest " +
		e.Largest.String() + " at N=" + strconv.Itoa(e.LargestN) + ", " + bytesText(e.LargestBytes)
	if e.ProbeFailed != "" {
		s += "; from the sizes alone, the constructors' garbage unknown"
	}
	return s + ")"
}

// WithAvailable is String followed by the memory available, where it is
// known: "...; 16.4GB available".
func (e Estimate) WithAvailable() string {
	if e.AvailableBytes == 0 {
		return e.String()
	}
	return e.String() + "; " + bytesText(e.AvailableBytes) + " available"
}

// cases writes "1 case", "2 cases".
func cases(n int) string {
	if n == 1 {
		return "1 case"
	}
	return strconv.Itoa(n) + " cases"
}

// bytesText writes a size in decimal units: "4.1GB".
func bytesText(b float64) string { return benchunit.Scale(b, benchunit.Decimal) + "B" }

// perInstance is what one instance of e is expected to keep: its
// BytesHint where the suite gives one (what it points to included), else
// its SizeHint, and the holder's share.
func perInstance(e suites.Entry) float64 {
	return float64(max(e.BytesHint, uint64(e.SizeHint), 1) + holderBytes)
}

// largestN is the largest N e is measured at, its sweep included.
func (o Options) largestN(e suites.Entry) int {
	n := o.nFor(e)
	if e.FixedN == 0 {
		for _, s := range o.Sweep {
			n = max(n, s)
		}
	}
	return n
}

// uncollected is what the profiled pass of e at n keeps with the
// collector off, per.Bytes and per.Objects allocated per instance (its
// constructor's garbage included, from memprof.ProbeAlloc): every object
// allocated and its profile record (memprof.ProfileRecordBytes), for the
// instances it builds at once (memprof.ProfiledInstances), and the
// holder of all n.
func uncollected(e suites.Entry, n int, per memprof.Alloc) float64 {
	built := float64(memprof.ProfiledInstances(e.Layout, n))
	return built*(per.Bytes+per.Objects*memprof.ProfileRecordBytes) + float64(n)*holderBytes
}

// probeEntries is what one instance of each of entries allocates, by its
// BenchName, probed in one child process (memprof.ProbeAllocInChild),
// and the child's error where it failed (the estimate then has the sizes
// alone, and says so; a case whose constructor crashed the probe fails
// again in its own child, which says why).
func probeEntries(ctx context.Context, entries []suites.Entry, opts Options) (map[string]memprof.Alloc, error) {
	var names []string
	for _, e := range entries {
		if e.Case != nil && e.Unavailable.IsZero() {
			names = append(names, e.BenchName())
		}
	}
	return memprof.ProbeAllocInChild(ctx, opts.Child, names)
}

// probedEstimate is estimateMemory with the probes of entries, and the
// probe's failure in the estimate where it failed.
func probedEstimate(ctx context.Context, entries []suites.Entry, opts Options) Estimate {
	probes, err := probeEntries(ctx, entries, opts)
	est := estimateMemory(entries, opts, probes)
	if err != nil {
		est.ProbeFailed = err.Error()
	}
	return est
}

// EstimateMemory estimates what measuring entries with opts needs at its
// peak: each case the larger of N instances of its per-instance size,
// times the heap's growth before a collection, and what its profiled
// pass keeps with the collector off (uncollected: its constructor's
// garbage and the records of all it allocates, probed by building a few
// instances in a child process), and the largest cases measured at once.
func EstimateMemory(entries []suites.Entry, opts Options) Estimate {
	return probedEstimate(context.Background(), entries, opts)
}

// estimateMemory is EstimateMemory with what each entry's constructor
// allocates, by its BenchName (an entry absent allocates nothing beyond
// its sizes).
func estimateMemory(entries []suites.Entry, opts Options, probes map[string]memprof.Alloc) Estimate {
	est := Estimate{Jobs: min(opts.jobs(), len(entries)), AvailableBytes: float64(opts.MemoryAvailable)}
	if est.AvailableBytes == 0 {
		est.AvailableBytes = float64(memprof.AvailableMemory())
	}
	each := make([]float64, len(entries))
	for i, e := range entries {
		n := opts.largestN(e)
		each[i] = max(heapGoal*float64(n)*perInstance(e), uncollected(e, n, probes[e.BenchName()]))
		if each[i] > est.LargestBytes {
			est.Largest, est.LargestN, est.LargestBytes = e.Key, n, each[i]
		}
	}
	slices.SortFunc(each, func(a, b float64) int { return cmp.Compare(b, a) })
	for _, b := range each[:est.Jobs] {
		est.PeakBytes += b
	}
	return est
}

// checkMemory refuses, before anything is allocated, a run whose estimated
// peak exceeds the memory available (a *UsageError), unless opts.Force,
// and announces a large one through ev, as it does an estimate from the
// sizes alone (MemoryProbeFailed).
func checkMemory(ctx context.Context, entries []suites.Entry, opts Options, ev *events) error {
	if len(entries) == 0 {
		return nil
	}
	est := probedEstimate(ctx, entries, opts)
	// An interrupted probe is the interruption's, which the run reports.
	if est.ProbeFailed != "" && ctx.Err() == nil {
		ev.send(Event{Kind: MemoryProbeFailed, Estimate: est, Message: est.ProbeFailed})
	}
	if est.TooLarge() && !opts.Force {
		return usagef("refusing to measure: the run would need %s, beyond the %s of memory available (--force to measure anyway)", est, bytesText(est.AvailableBytes))
	}
	if est.Large() {
		ev.send(Event{Kind: MemoryEstimated, Estimate: est})
	}
	return nil
}
