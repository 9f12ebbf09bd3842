package workflow

import (
	"cmp"
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
// registry's per-instance sizes: an estimate, not a bound (an instance's
// temporaries, a library's C heap and the engine's own passes are beside
// it).
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
}

// Large reports whether the run is announced before it starts.
func (e Estimate) Large() bool { return e.PeakBytes > LargeRun }

// TooLarge reports whether the estimate exceeds the memory available.
func (e Estimate) TooLarge() bool { return e.AvailableBytes > 0 && e.PeakBytes > e.AvailableBytes }

// String says the estimate in a sentence's words, an estimate's "about"
// included: "about 4.1GB at the peak (2 cases at a time; the largest MLDSAPublicKey/circl/... at
// N=100000, 3.2GB)".
func (e Estimate) String() string {
	return "about " + bytesText(e.PeakBytes) + " at the peak (" + cases(e.Jobs) + " at a time; the largest " +
		e.Largest.String() + " at N=" + strconv.Itoa(e.LargestN) + ", " + bytesText(e.LargestBytes) + ")"
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

// EstimateMemory estimates what measuring entries with opts needs at its
// peak: each case N instances of its per-instance size, times the heap's
// growth before a collection, and the largest cases measured at once.
func EstimateMemory(entries []suites.Entry, opts Options) Estimate {
	est := Estimate{Jobs: min(opts.jobs(), len(entries)), AvailableBytes: float64(opts.MemoryAvailable)}
	if est.AvailableBytes == 0 {
		est.AvailableBytes = float64(memprof.AvailableMemory())
	}
	each := make([]float64, len(entries))
	for i, e := range entries {
		n := opts.largestN(e)
		each[i] = heapGoal * float64(n) * perInstance(e)
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
// and announces a large one through ev.
func checkMemory(entries []suites.Entry, opts Options, ev *events) error {
	if len(entries) == 0 {
		return nil
	}
	est := EstimateMemory(entries, opts)
	if est.TooLarge() && !opts.Force {
		return usagef("refusing to measure: the run would need %s, beyond the %s of memory available (--force to measure anyway)", est, bytesText(est.AvailableBytes))
	}
	if est.Large() {
		ev.send(Event{Kind: MemoryEstimated, Estimate: est})
	}
	return nil
}
