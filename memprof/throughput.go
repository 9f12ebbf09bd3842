package memprof

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/stats"
)

// Throughput sampling defaults (ThroughputOptions).
const (
	DefaultSamples = 10
	// DefaultMinSample is 40 ms (it was 100 ms until the operations were
	// timed from every representation): the memprof command's throughput
	// of one type times about 55 operations and must finish in under a
	// minute on a 2-core machine.
	DefaultMinSample = 40 * time.Millisecond
)

// ThroughputMethod describes how MeasureThroughput times operations. It is
// written into every results file that carries throughput rows
// (Results.Method) and into the documentation. It says what the engine
// does; a caller adds how it forms the groups and what one call of an
// operation handles. It is ThroughputMethodParagraphs joined by spaces.
var ThroughputMethod = methodPrepare + " " + methodSamples + " " + methodSummary + " " + methodCPU + " " + methodAllocs

// The paragraphs of ThroughputMethod.
var (
	methodPrepare = `Each operation is prepared once (inputs built outside any timing) and checked to compute the right result. ` +
		`It is then warmed up, running for at least half the minimum sample duration; the warm-up is not counted and sets how many calls run between clock reads.`
	methodSamples = fmt.Sprintf(`Each sample then runs the operation repeatedly until at least the minimum sample duration (default %v) of wall time has passed; ns/op of a sample is its wall time divided by its calls (samples_iters keeps each sample's calls). `+
		`Each operation gets the same number of samples (default %d). The operations compared with one another form a group, whose operations are sampled alternately, A B C A B C ..., so that drift of a shared, noisy machine hits all of them alike; groups are sampled one after another.`, DefaultMinSample, DefaultSamples)
	methodSummary = `No sample is discarded (no outlier filtering). ns_per_op_median is the median of the per-sample ns/op (golang.org/x/perf/benchmath, the summary benchstat prints); ns_per_op_q1 and ns_per_op_q3 are the first and third quartiles of the same samples (go-moremath stats.Sample.Quantile, definition 8 of Hyndman and Fan); samples_ns keeps every sample.`
	methodCPU     = `ops_per_s is 1e9 divided by the median. cpu_ns_per_op_median is the median per-sample process CPU time (getrusage RUSAGE_SELF, user plus system, all threads: it includes the goroutines and threads an operation starts and the garbage collector's work) divided by calls; above ns_per_op it shows cores used in parallel.`
	methodAllocs  = `bytes_per_op and allocs_per_op are the runtime.MemStats TotalAlloc and Mallocs deltas over all samples divided by all calls; samples_bytes_per_op and samples_allocs_per_op keep each sample's, the same in every sample for an operation that allocates the same on every call. ` +
		`GOMAXPROCS is recorded in env; other processes on the machine are not controlled.`
)

// ThroughputMethodParagraphs returns ThroughputMethod as paragraphs, for
// help text that wraps them: how an operation is prepared, sampled,
// summarised, and what its CPU and allocation figures are.
func ThroughputMethodParagraphs() []string {
	return []string{methodPrepare, methodSamples, methodSummary, methodCPU, methodAllocs}
}

// ThroughputCase is one operation for MeasureThroughput. Name identifies
// it in errors; Run performs the operation once and returns an error when
// the operation fails. Run must not retain memory across calls beyond its
// prepared inputs.
type ThroughputCase struct {
	Name string
	Run  func() error
}

// Timed is what MeasureThroughput measured of one case.
type Timed struct {
	// Name is the case's.
	Name string
	measure.Timing
	// Note says what could not be measured although the timing could
	// ("no CPU time: ...").
	Note string
	// Err is why the case has no timing: its Run failed, or its samples
	// could not be summarized. It names the case.
	Err error
}

// ThroughputOptions control MeasureThroughput.
type ThroughputOptions struct {
	// Samples is the number of samples per operation; default
	// DefaultSamples.
	Samples int
	// MinSample is the least wall time one sample lasts; default
	// DefaultMinSample.
	MinSample time.Duration

	// clock replaces the real clocks in tests.
	clock sampleClock
}

// sampleClock reads what a sample measures. The real one reads the
// monotonic clock, getrusage and runtime.MemStats; tests use a fake.
type sampleClock interface {
	wall() time.Duration
	cpu() (time.Duration, error)
	mem() (mallocs, bytes uint64)
}

type realClock struct{ start time.Time }

func (c *realClock) wall() time.Duration         { return time.Since(c.start) }
func (c *realClock) cpu() (time.Duration, error) { return processCPUTime() }
func (c *realClock) mem() (uint64, uint64) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.Mallocs, m.TotalAlloc
}

// sample is one timed sample of one operation.
type sample struct {
	calls   int64
	wall    time.Duration
	cpu     time.Duration
	mallocs uint64
	bytes   uint64
}

// caseState is the sampler's running state for one case.
type caseState struct {
	c       ThroughputCase
	chunk   int64 // calls between clock reads
	samples []sample
	cpuErr  error
	err     error
}

// MeasureThroughput times every case of every group and returns one row
// per case, in order (groups one after the other). Groups run one after
// another; within a group every case is warmed up, then samples are taken
// round-robin: sample 1 of each case, then sample 2 of each case, and so
// on (see ThroughputMethod). A case whose Run fails gets a row with Error
// set and takes no further samples; the others go on. The error return is
// for invalid options and for ctx being cancelled.
func MeasureThroughput(ctx context.Context, groups [][]ThroughputCase, o ThroughputOptions) ([]Timed, error) {
	if o.Samples == 0 {
		o.Samples = DefaultSamples
	}
	if o.MinSample == 0 {
		o.MinSample = DefaultMinSample
	}
	if o.Samples < 1 {
		return nil, fmt.Errorf("measuring throughput: samples must be at least 1, got %d", o.Samples)
	}
	if o.MinSample < 0 {
		return nil, fmt.Errorf("measuring throughput: minimum sample duration must be positive, got %v", o.MinSample)
	}
	if o.clock == nil {
		o.clock = &realClock{start: time.Now()}
	}
	var rows []Timed
	for _, g := range groups {
		states := make([]*caseState, len(g))
		for i, c := range g {
			if c.Run == nil {
				return nil, fmt.Errorf("measuring throughput: case %s has no Run", c.Name)
			}
			states[i] = &caseState{c: c}
		}
		for _, st := range states {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			st.warmUp(o)
		}
		for range o.Samples {
			for _, st := range states {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				if st.err == nil {
					st.takeSample(o)
				}
			}
		}
		for _, st := range states {
			rows = append(rows, st.row())
		}
	}
	return rows, nil
}

// warmUp runs the operation 1, 2, 4, ... times until at least half of
// MinSample has passed, and sets how many calls run between clock reads
// (about a twentieth of MinSample, at least one call).
func (st *caseState) warmUp(o ThroughputOptions) {
	target := o.MinSample / 2
	var total time.Duration
	for n := int64(1); ; n *= 2 {
		t0 := o.clock.wall()
		if err := st.run(n); err != nil {
			st.err = fmt.Errorf("warm-up: %w", err)
			return
		}
		d := o.clock.wall() - t0
		total += d
		if total >= target || n >= 1<<40 {
			perCall := max(d/time.Duration(n), 1)
			st.chunk = max(int64(o.MinSample/20/perCall), 1)
			return
		}
	}
}

func (st *caseState) run(n int64) error {
	for range n {
		if err := st.c.Run(); err != nil {
			return err
		}
	}
	return nil
}

// takeSample runs whole chunks until MinSample has passed.
func (st *caseState) takeSample(o ThroughputOptions) {
	m0, b0 := o.clock.mem()
	c0, cerr := o.clock.cpu()
	t0 := o.clock.wall()
	var calls int64
	var elapsed time.Duration
	for elapsed < o.MinSample {
		if err := st.run(st.chunk); err != nil {
			st.err = fmt.Errorf("sample %d: %w", len(st.samples)+1, err)
			return
		}
		calls += st.chunk
		elapsed = o.clock.wall() - t0
	}
	c1, cerr1 := o.clock.cpu()
	m1, b1 := o.clock.mem()
	if cerr == nil {
		cerr = cerr1
	}
	if cerr != nil && st.cpuErr == nil {
		st.cpuErr = cerr
	}
	st.samples = append(st.samples, sample{calls: calls, wall: elapsed, cpu: c1 - c0, mallocs: m1 - m0, bytes: b1 - b0})
}

// row turns the samples into the case's timing.
func (st *caseState) row() Timed {
	r := Timed{Name: st.c.Name}
	r.Samples = len(st.samples)
	if st.err != nil {
		r.Err = fmt.Errorf("%s: %w", st.c.Name, st.err)
		return r
	}
	var calls int64
	var mallocs, bytes uint64
	wall := make([]float64, len(st.samples))
	cpu := make([]float64, len(st.samples))
	iters := make([]int64, len(st.samples))
	sampleBytes := make([]float64, len(st.samples))
	sampleAllocs := make([]float64, len(st.samples))
	for i, s := range st.samples {
		wall[i] = float64(s.wall.Nanoseconds()) / float64(s.calls)
		cpu[i] = float64(s.cpu.Nanoseconds()) / float64(s.calls)
		iters[i] = s.calls
		sampleBytes[i] = float64(s.bytes) / float64(s.calls)
		sampleAllocs[i] = float64(s.mallocs) / float64(s.calls)
		calls += s.calls
		mallocs += s.mallocs
		bytes += s.bytes
	}
	q, err := stats.SummarizeSamples(wall)
	if err != nil {
		r.Err = fmt.Errorf("%s: %w", st.c.Name, err)
		return r
	}
	r.SamplesNs = wall
	r.SamplesIters = iters
	r.SamplesBytesPerOp, r.SamplesAllocsPerOp = sampleBytes, sampleAllocs
	r.NsPerOpQ1, r.NsPerOpMedian, r.NsPerOpQ3 = q.Q1, q.Median, q.Q3
	r.OpsPerSecond = 1e9 / q.Median
	r.BytesPerOp = float64(bytes) / float64(calls)
	r.AllocsPerOp = float64(mallocs) / float64(calls)
	if st.cpuErr != nil {
		r.Note = "no CPU time: " + st.cpuErr.Error()
	} else if cq, err := stats.SummarizeSamples(cpu); err == nil {
		r.CPUNsPerOpMedian = cq.Median
	}
	return r
}
