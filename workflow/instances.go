package workflow

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/stats"
	"github.com/memprof/memprof/suites"
)

// Instances measures the instance cases of reg that sel selects, each in
// its own child process (see Options.Child), and, as opts.Throughput says,
// times the operations of their types (as Throughput does, after the
// agreement check). See the package documentation for the steps, the
// errors and what the results hold.
func Instances(ctx context.Context, reg *suites.Registry, sel Selection, opts Options) (*results.File, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	entries, unavailable, err := selectCases(reg, sel)
	if err != nil {
		return nil, err
	}
	var ops []suites.Op
	if opts.Throughput != NoThroughput {
		ops = selectOps(reg, sel)
		if len(ops) == 0 && opts.Throughput == ThroughputRequired {
			return nil, &NoMatch{What: "operation", OpTypes: reg.OpTypes()}
		}
	}
	ev, err := start(ctx, entries, opts)
	if err != nil {
		return nil, err
	}
	rs := newResults(reg, opts)
	rs.Unavailable = unavailable
	rs.Instances = measureEntries(ctx, entries, opts, ev)
	return finish(ctx, reg, rs, ops, opts, ev)
}

// start checks opts, refuses entries too large for the memory available
// and announces a large run (memory.go), then returns the events reporting progress to opts.Progress.
func start(ctx context.Context, entries []suites.Entry, opts Options) (*events, error) {
	if err := opts.ready(); err != nil {
		return nil, err
	}
	ev := &events{f: opts.Progress}
	if err := checkMemory(ctx, entries, opts, ev); err != nil {
		return nil, err
	}
	ev.clock = memprof.StartRun()
	return ev, nil
}

// finish times ops into rs, when there are any, and returns rs with the
// error of a failed operation, or the cause when ctx ended.
func finish(ctx context.Context, reg *suites.Registry, rs *results.File, ops []suites.Op, opts Options, ev *events) (*results.File, error) {
	var err error
	if len(ops) > 0 {
		err = measureOps(ctx, reg, rs, ops, opts, ev)
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("measuring: %w", context.Cause(ctx))
	}
	ev.clock.Finish(&rs.Env)
	return rs, err
}

// measureEntries measures each entry in its own child process, opts.jobs()
// at a time. A failed case becomes a Result carrying its error; the others
// still run. The results are in the order of entries.
func measureEntries(ctx context.Context, entries []suites.Entry, opts Options, ev *events) []results.Row {
	results := make([]results.Row, len(entries))
	ev.send(Event{Kind: CasesStarting, Total: len(entries)})
	sem := make(chan struct{}, opts.jobs())
	var wg sync.WaitGroup
	for i, e := range entries {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			ev.send(Event{Kind: CaseStarted, Key: e.Key})
			results[i] = measureEntry(ctx, e, opts)
		})
	}
	wg.Wait()
	ev.send(Event{Kind: CasesDone})
	return results
}

// measureEntry measures e at opts.nFor(e), keeping its profile in
// opts.ProfileDir, then at each N of the sweep.
func measureEntry(ctx context.Context, e suites.Entry, opts Options) results.Row {
	n := opts.nFor(e)
	var profile string
	if opts.ProfileDir != "" {
		if err := os.MkdirAll(opts.ProfileDir, 0o755); err != nil {
			return failedResult(e, n, err)
		}
		name := strings.NewReplacer("/", "_", "=", "-").Replace(e.BenchName()) + ".pb.gz"
		profile = filepath.Join(opts.ProfileDir, name)
	}
	m, err := memprof.MeasureInChild(ctx, opts.Child, e.BenchName(), profile, memprof.N(n))
	if err != nil {
		return failedResult(e, n, err)
	}
	r := results.Row{Key: e.Key, Constructor: constructorAt(e, n, opts), Measurement: *m}
	if len(opts.Sweep) > 0 && e.FixedN == 0 { // an entry of one N has no sweep
		var points []measure.SweepPoint
		for _, sn := range opts.Sweep {
			p, err := memprof.MeasureInChild(ctx, opts.Child, e.BenchName(), "", memprof.N(sn))
			if err != nil {
				return failedResult(e, sn, fmt.Errorf("sweep at N=%d: %w", sn, err))
			}
			points = append(points, measure.SweepPoint{N: sn, Bytes: p.BytesPerInstance * float64(sn), BytesPerInstance: p.BytesPerInstance})
		}
		if r.Sweep, err = stats.FitSweep(points); err != nil {
			return failedResult(e, n, err)
		}
	}
	return r
}

// constructorAt is e's constructor for a row measured at n, with why n
// is the entry's own N when it is (suites.Entry.NNote) and no -n chose it.
func constructorAt(e suites.Entry, n int, opts Options) string {
	note := e.NNote(n)
	if note == "" || (opts.N == n && e.FixedN == 0) || opts.budgetN[e.Key] == n {
		return e.Constructor
	}
	return e.Constructor + "; " + note
}

func failedResult(e suites.Entry, n int, err error) results.Row {
	return results.Row{Key: e.Key, Constructor: e.Constructor, Measurement: measure.Measurement{N: n}, Error: err.Error()}
}

// Report measures what a design review (memprof report) shows: the
// instance cases of sel and the operations of their types. It is Instances
// with opts.Throughput raised to at least ThroughputIfAny, unless the
// caller asked for no timing (NoThroughput set through
// opts.SkipThroughput): a review without times has no trade-offs to show.
func Report(ctx context.Context, reg *suites.Registry, sel Selection, opts Options) (*results.File, error) {
	if !opts.SkipThroughput && opts.Throughput == NoThroughput {
		opts.Throughput = ThroughputIfAny
	}
	return Instances(ctx, reg, sel, opts)
}
