package workflow

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/agree"
	"github.com/memprof/memprof/vocab"
)

// Options tune the workflows; the zero Options measure with the engine's
// defaults. Fields a workflow does not use are ignored.
type Options struct {
	// N is the number of instances per case. 0 measures each case at its
	// entry's DefaultN (the scenarios' real scale, 1,000,000) or else
	// memprof.DefaultN; any other N is used for every case but those
	// with a FixedN (an LRU at the population its key names).
	N int
	// Jobs is how many child processes measure at once; 0 means
	// runtime.GOMAXPROCS(0).
	Jobs int
	// ProfileDir, if not empty, keeps each case's raw heap profile in
	// that directory (created if missing), named after the case's
	// BenchName.
	ProfileDir string
	// Sweep, when not empty, measures each case also at these N (at least
	// three, distinct and positive) and fits bytes = a + b*N
	// (stats.FitSweep) into the case's Sweep.
	Sweep []int
	// Child says how to start the measuring child process. The zero Child
	// re-executes this program, which must serve memprof.ServeChild with
	// the same registry's LookupCase when memprof.ChildRequested.
	Child memprof.Child

	// Throughput says whether Instances also times the operations of the
	// selected cases' types.
	Throughput ThroughputMode
	// Samples and MinSample tune the timing (memprof.ThroughputOptions);
	// 0 means memprof.DefaultSamples and memprof.DefaultMinSample.
	Samples   int
	MinSample time.Duration
	// Agree replaces the agreement check of each family it names, run
	// before any of that family's operations is timed (and by Verify,
	// which then runs it whatever the registry holds); a family it does
	// not name runs the registry's (suites.FamilyCheck). Each family's
	// check runs before its own operations only, so that each selection
	// pays for the check of what it times. Tests set it to see an
	// agreement or a disagreement handled.
	Agree map[vocab.Family]func(*suites.Registry) (*agree.Report, error)

	// Ready, if set, is called once the selection is resolved and found
	// measurable, before the memory check and before anything runs: the
	// last moment to refuse (an output that could not be written). Its
	// error stops the workflow and is returned as it is.
	Ready func() error
	// Progress, if set, is told what the workflow does as it happens. The
	// calls are serialised: Progress need not be safe for concurrent use.
	// It must not retain the Event's slices.
	Progress func(Event)
	// SkipThroughput makes Report measure the instance cases only
	// (memprof report --throughput=false); Instances ignores it.
	SkipThroughput bool

	// Machine and Commit, when set, name the runner and the commit in the
	// results' environment (env.machine, env.commit) instead of the host
	// name and the binary's VCS revision (memprof.CurrentEnv).
	Machine, Commit string

	// AllPaths times every operation from every representation
	// (throughput --paths all); by default the paths of the full matrix
	// that the trade-off summary does not need (suites.Op.FullMatrix) are
	// left out.
	AllPaths bool
	// NoSites skips the profile of where each timed operation allocates
	// (results.OpCost.Sites), which runs after the timing in a child
	// process (one for the operations timed here, one per isolation
	// group).
	NoSites bool

	// MemoryAvailable, if not zero, is the memory in bytes a run's
	// estimated peak (EstimateMemory) is checked against, instead of the
	// machine's available memory (memprof.AvailableMemory): a limit of
	// the caller's, or a test's stand-in for the machine.
	MemoryAvailable uint64
	// Force measures a run whose estimated peak exceeds the memory
	// available, which is otherwise refused before anything runs.
	Force bool

	// budgetN is the N of the cases whose budgets name one (gate.Budget.N),
	// set by Budgeted: before N, after FixedN.
	budgetN map[results.Key]int
}

// ThroughputMode says whether Instances times operations besides the
// instance cases.
type ThroughputMode int

const (
	// NoThroughput measures the instance cases only.
	NoThroughput ThroughputMode = iota
	// ThroughputIfAny also times the operations of the selected types,
	// when they have any.
	ThroughputIfAny
	// ThroughputRequired also times them, and fails with a *NoMatch
	// before anything runs when no operation matches the selection.
	ThroughputRequired
)

// check refuses options that are wrong whatever is selected.
func (o Options) check() error {
	switch {
	case o.N < 0:
		return usagef("N must be positive, or 0 for each case's default, got %d", o.N)
	case o.Jobs < 0:
		return usagef("jobs must be positive, or 0 for GOMAXPROCS, got %d", o.Jobs)
	case o.Samples < 0:
		return usagef("samples must be at least 1, or 0 for the default, got %d", o.Samples)
	case o.MinSample < 0:
		return usagef("the least sample duration must be positive, or 0 for the default, got %v", o.MinSample)
	}
	if len(o.Sweep) > 0 {
		if len(o.Sweep) < 3 {
			return usagef("a sweep needs at least 3 values of N for a confidence interval, got %d", len(o.Sweep))
		}
		for i, n := range o.Sweep {
			if n <= 0 {
				return usagef("sweep: N must be positive, got %d", n)
			}
			if slices.Contains(o.Sweep[:i], n) {
				return usagef("sweep: N=%d appears twice", n)
			}
		}
	}
	return nil
}

// nFor is the number of instances measured for e: its FixedN when it has
// one, whatever N is given.
func (o Options) nFor(e suites.Entry) int {
	switch {
	case e.FixedN > 0:
		return e.FixedN
	case o.budgetN[e.Key] > 0:
		return o.budgetN[e.Key]
	case o.N > 0:
		return o.N
	case e.DefaultN > 0:
		return e.DefaultN
	}
	return memprof.DefaultN
}

func (o Options) jobs() int {
	if o.Jobs > 0 {
		return o.Jobs
	}
	return runtime.GOMAXPROCS(0)
}

func (o Options) timing() memprof.ThroughputOptions {
	t := memprof.ThroughputOptions{Samples: o.Samples, MinSample: o.MinSample}
	if t.Samples == 0 {
		t.Samples = memprof.DefaultSamples
	}
	if t.MinSample == 0 {
		t.MinSample = memprof.DefaultMinSample
	}
	return t
}

// agreeFamily runs family f's agreement check: Agree's where it
// replaces f's, else the registry's (Registry.Check).
func (o Options) agreeFamily(reg *suites.Registry, f vocab.Family) (*agree.Report, error) {
	if run := o.Agree[f]; run != nil {
		return run(reg)
	}
	c, ok := reg.Check(f)
	if !ok {
		return nil, fmt.Errorf("family %s has no agreement check", f)
	}
	return reg.RunCheck(c)
}

func (o Options) ready() error {
	if o.Ready != nil {
		return o.Ready()
	}
	return nil
}

// EventKind says what an Event reports.
type EventKind int

// The events, in the order a workflow sends them.
const (
	// CasesStarting: Total instance cases are about to be measured.
	CasesStarting EventKind = iota
	// CaseStarted: the instance case Key has started, in its child.
	CaseStarted
	// CasesDone: every instance case has been measured (or has failed).
	CasesDone
	// OpsStarting: the agreement check, the operations' result checks
	// and their timing are starting.
	OpsStarting
	// AgreementWithout: the agreement check ran without a library this
	// build cannot run; Message names it and says why.
	AgreementWithout
	// TimingStarted: the operations are being timed, as Timing says.
	TimingStarted
	// OpFailed: the operation Key failed its result check or its timing;
	// Err says why (its row carries the same error).
	OpFailed
	// OpsDone: the operations are timed, or have failed.
	OpsDone
	// SitesStarting: where Total timed operations allocate is being
	// profiled, in one child process (after TimingStarted, before
	// OpsDone).
	SitesStarting
	// MemoryEstimated: the run's Estimate of its peak exceeds LargeRun;
	// sent first, before anything runs.
	MemoryEstimated
	// MemoryProbeFailed: the child probing what the constructors allocate
	// failed (Message says why), so the run's Estimate has the sizes
	// alone; sent first, before anything runs.
	MemoryProbeFailed
)

// Event is one step of a workflow, for progress reports.
type Event struct {
	Kind    EventKind
	Key     results.Key // CaseStarted, OpFailed
	Total   int         // CasesStarting, SitesStarting
	Message string      // AgreementWithout, MemoryProbeFailed
	Err     error       // OpFailed
	Timing  TimingPlan
	// Estimate is MemoryEstimated's.
	Estimate Estimate
}

// TimingPlan is what TimingStarted announces: Ops operations in Groups
// groups (operations compared with one another are sampled alternately),
// Samples samples of at least MinSample each, so at least Estimate in all.
type TimingPlan struct {
	Ops, Groups, Samples int
	MinSample, Estimate  time.Duration
}

// events serialises the calls of a Progress function, and keeps the
// run's clock.
type events struct {
	mu sync.Mutex
	f  func(Event)
	// clock is the run's, started with the events: finish records what
	// the run cost into its results' environment.
	clock memprof.RunClock
}

func (e *events) send(ev Event) {
	if e == nil || e.f == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.f(ev)
}

// newResults starts the results of a workflow on reg: the schema, the
// method (memprof.MethodText) and the environment, with the versions of
// reg's libraries, and the machine and commit of opts where it names them.
func newResults(reg *suites.Registry, opts Options) *results.File {
	env := memprof.CurrentEnv(reg.Modules()...)
	if opts.Machine != "" {
		env.Machine = opts.Machine
	}
	if opts.Commit != "" {
		env.Commit = opts.Commit
	}
	return &results.File{Schema: results.Schema, Method: memprof.MethodText(), Env: env}
}
