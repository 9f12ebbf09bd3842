package memprof

import (
	"fmt"
	"math"
	"reflect"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"time"

	"github.com/memprof/memprof/internal/typeptr"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/stats"
)

// MarkCycles is how many forced collections the GC pass reads with the
// instances live, and as many with the holder alone: one mark and one CPU
// sample per live cycle, summarised by their median and quartiles. The
// holder's cycles are split, holderCyclesBefore before the instances are
// built and the rest after they are dropped, so that they bracket the
// live ones in time.
const MarkCycles = 7

// holderCyclesBefore is how many of the holder's MarkCycles cycles are
// read before the instances are built.
const holderCyclesBefore = 3

// CollectionBuilds is how many times the GC pass builds a map-backed
// collection (a case of the collection layout whose structure reaches a
// map holding pointers: hashSeeded), each time anew, so with fresh hash
// seeds: the live cycles are shared among the builds, and the scan
// readings' spread across them is in the scan figure's resolution (a
// map's layout, and so the bytes the collector scans in it, follow its
// seed). The builds after the first are made only while they cost at
// most rebuildBudget (Result.ScanBuilds says how many there were).
const CollectionBuilds = 3

// rebuildBudget bounds the time the GC pass spends building a collection
// again (CollectionBuilds): a first build that took more than its share
// of it is not repeated. It is CPU time (buildClock), so that a busy
// machine, which stretches a build's wall time, does not cost a
// collection its repeated builds.
const rebuildBudget = 10 * time.Second

// buildClock is the clock a build is timed by for rebuildBudget: the
// process's CPU time, or the wall clock where the CPU time cannot be
// read.
func buildClock() time.Duration {
	if ns, err := threadsCPUNs(); err == nil {
		return time.Duration(ns)
	}
	return time.Duration(time.Now().UnixNano())
}

// The runtime/metrics the GC pass reads. The heap scan figure is the scan
// work of the last completed cycle when read right after a forced
// collection, before anything is allocated (the runtime adds to it as
// objects with pointers are allocated); the mark figures are the
// runtime's cumulative estimate of the three kinds of mark work, each
// cycle's added when it ends.
const (
	metricScanHeap      = "/gc/scan/heap:bytes"
	metricMarkDedicated = "/cpu/classes/gc/mark/dedicated:cpu-seconds"
	metricMarkIdle      = "/cpu/classes/gc/mark/idle:cpu-seconds"
	metricMarkAssist    = "/cpu/classes/gc/mark/assist:cpu-seconds"
)

// GCMethod describes how the GC pass measures the collector's share, for
// the help, the review's method and the results: built from the engine's
// constants, so it cannot drift from them.
func GCMethod() string {
	return fmt.Sprintf("In the child, with profiling off and GOMAXPROCS set to %d for them (with more Ps the collector's idle mark workers spin for work, CPU time that is the scheduler's, not the instances'), the engine forces %d garbage collections with the instances live and %d with the holder alone "+
		"(%d before the instances are built, %d after they are dropped and their memory returned to the system), so the holder cancels; "+
		"a map-backed collection (one that reaches a map holding pointers) is built %d times, each with fresh hash seeds, the live cycles shared "+
		"among the builds, unless its first build took more than %v of CPU time. "+
		"Right after each collection it reads %s (the heap the cycle scanned), the CPU time of all the process's threads as the operating system "+
		"accounts it (clock_gettime(CLOCK_PROCESS_CPUTIME_ID) on Linux, getrusage(RUSAGE_SELF) on other Unix systems, n/a elsewhere): the collection's "+
		"mark, sweep and stop-the-world phases; nothing else runs in the child, and the time its threads wait for a CPU is not charged, though "+
		"a busy machine still slows their work, on cold caches and shared memory bandwidth; "+
		"and the runtime's estimate of its mark workers' time (%s, %s and %s, which time each worker by the wall clock while it holds a P: "+
		"a busy machine inflates it). "+
		"GC scan is the median live reading minus the holder's, over N, to a resolution of one runtime page (%d KiB) plus the spreads of the "+
		"live readings (of every build) and of the holder's, over N. GC CPU and GC mark are each live cycle minus the holder's median, over N, "+
		"summarised by their median and quartiles, to a resolution of the interquartile ranges of the live and the holder's cycles plus the "+
		"drift of the holder's median between before and after, over N; a negative CPU median is not published (gc_cpu_unavailable says why).",
		cycleProcs, MarkCycles, MarkCycles, holderCyclesBefore, MarkCycles-holderCyclesBefore, CollectionBuilds, rebuildBudget/(CollectionBuilds-1),
		metricScanHeap, metricMarkDedicated, metricMarkIdle, metricMarkAssist, runtimePage>>10)
}

// gcSample is what the GC pass reads of one forced collection: the heap
// scan work of the cycle, in bytes, the runtime's estimate of its mark
// workers' time and the CPU time the process's threads used across it
// (gcCPUClock), in nanoseconds.
type gcSample struct {
	scan, markNs, cpuNs float64
}

// gcReader reads the collector's metrics into samples allocated once, so
// that a reading allocates nothing (an allocation would add to the scan
// figure before it is read), and the process's CPU time.
type gcReader struct {
	samples []metrics.Sample
	// cpuErr says why this system's CPU time cannot be read; nil when it
	// can.
	cpuErr error
}

// newGCReader returns a reader, having read once: the runtime builds its
// table of metrics on the first read, an allocation that must not fall
// between two readings.
func newGCReader() (*gcReader, error) {
	g := &gcReader{}
	for _, name := range []string{metricScanHeap, metricMarkDedicated, metricMarkIdle, metricMarkAssist} {
		g.samples = append(g.samples, metrics.Sample{Name: name})
	}
	metrics.Read(g.samples)
	for _, s := range g.samples {
		if s.Value.Kind() == metrics.KindBad {
			return nil, fmt.Errorf("this Go runtime (%s) has no metric %s", runtime.Version(), s.Name)
		}
	}
	_, g.cpuErr = threadsCPUNs()
	return g, nil
}

// read returns the heap scan work of the last cycle, and the mark time
// and the process's CPU time of every cycle so far (the CPU time 0 where
// it cannot be read).
func (g *gcReader) read() gcSample {
	var s gcSample
	if g.cpuErr == nil {
		// An error after the first reading succeeded cannot happen
		// (the clock and the process exist): it would read as a
		// collection that took no CPU.
		cpu, _ := threadsCPUNs()
		s.cpuNs = float64(cpu)
	}
	metrics.Read(g.samples)
	s.scan = float64(g.samples[0].Value.Uint64())
	for _, m := range g.samples[1:] {
		s.markNs += m.Value.Float64() * 1e9
	}
	return s
}

// cycles forces len(into) collections and sets, for each, the heap scan
// work of the cycle and the mark and CPU time it took. It allocates
// nothing between its readings. The collections run on one P
// (cycleProcs): with more, the collector runs an idle mark worker on each
// P that has nothing else to do, which spins for work while the others
// mark; its CPU time is the machine's scheduling, not the instances'
// cost, and moved a cycle of 100,000 objects by more than they cost.
func (g *gcReader) cycles(into []gcSample) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(cycleProcs))
	prev := g.read()
	for i := range into {
		runtime.GC()
		s := g.read()
		into[i] = gcSample{scan: s.scan, markNs: s.markNs - prev.markNs, cpuNs: s.cpuNs - prev.cpuNs}
		prev = s
	}
}

// cycleProcs is the GOMAXPROCS the GC pass's collections run at (cycles).
const cycleProcs = 1

// flushProcCaches sets GOMAXPROCS to cycleProcs and back, as cycles does:
// the Ps it stops hand their caches (wait records, goroutine descriptors
// and stacks) to the runtime's central ones, which the next collection
// empties. Done before a pass's first reading, it leaves the caches of
// the Ps that cycles stops next nearly empty, so that stopping them
// between the pass's readings moves none of its figures (it moved a
// build's live heap by 33 wait records, and its stacks by 393 KiB).
func flushProcCaches() {
	runtime.GOMAXPROCS(runtime.GOMAXPROCS(cycleProcs))
}

// held is what keeps a pass's instances alive: the engine's holder (the
// pointer layout) or the structure the case built (slice and collection).
type held struct {
	holder []any
	many   any
}

// drop releases the instances h keeps: the holder's entries set to nil
// (the holder itself stays), the structure let go.
func (h *held) drop() {
	runtime.KeepAlive(h.holder)
	runtime.KeepAlive(h.many)
	clear(h.holder)
	h.many = nil
}

// gcReadings are the GC pass's readings: MarkCycles collections with the
// instances live, and as many with the holder alone, some before the
// instances are built and the others once they are dropped. The two sets
// of the holder alone bracket the live set in time: how far apart they
// are is how much the machine drifted meanwhile.
type gcReadings struct {
	before, live, after []gcSample
	// builds is how many builds of the instances the live cycles were
	// read on (CollectionBuilds for a collection, 1 otherwise), and
	// buildCycles how many of them each build had.
	builds      int
	buildCycles [CollectionBuilds]int
	cpuErr      error
}

// newGCReadings returns readings with room for every cycle, allocated
// before the footprint pass reads anything (taking them allocates
// nothing).
func newGCReadings() gcReadings {
	return gcReadings{
		before: make([]gcSample, holderCyclesBefore),
		live:   make([]gcSample, MarkCycles),
		after:  make([]gcSample, MarkCycles-holderCyclesBefore),
	}
}

// planBuilds shares the live cycles among the builds of the instances:
// one build, or, for a map-backed collection (seeded) whose first build
// took at most its share of rebuildBudget, CollectionBuilds, the first
// builds taking a cycle more where they do not divide evenly.
func (r *gcReadings) planBuilds(seeded bool, firstBuild time.Duration) {
	r.builds = 1
	if seeded && firstBuild*(CollectionBuilds-1) <= rebuildBudget {
		r.builds = CollectionBuilds
	}
	r.buildCycles = [CollectionBuilds]int{}
	for i := range r.builds {
		r.buildCycles[i] = MarkCycles / r.builds
		if i < MarkCycles%r.builds {
			r.buildCycles[i]++
		}
	}
}

// gcPass takes the collector's readings of the instances h keeps alive,
// which took firstBuild to build (buildClock): r's live cycles with them
// live; then the instances are dropped, a collection frees them, and the
// rest of the holder's cycles are read. A map-backed collection is built
// anew (planBuilds) between its shares of the live cycles, below the
// engine's constructor frame as the first build, its construction's
// garbage collected before its cycles. The holder (N nil entries) is
// scanned and marked alike with and without the instances, so it
// cancels. dropped is called once the first build's instances are
// dropped and collected, their finalizers and cleanups queued (after the
// last cycle with one build; before the next build with several, once a
// second collection has queued those their finalizers released), so that
// the caller counts one build's. h's instances are released.
func (c *Case) gcPass(h *held, n int, firstBuild time.Duration, gr *gcReader, r *gcReadings, dropped func()) error {
	r.planBuilds(c.Layout() == measure.Collection && hashSeeded(reflect.TypeOf(h.many)), firstBuild)
	r.cpuErr = gr.cpuErr
	live := r.live
	for b := range r.builds {
		if b > 0 {
			if err := c.fill(h, n, mainFrames); err != nil {
				return err
			}
			runtime.GC()
		}
		k := r.buildCycles[b]
		gr.cycles(live[:k])
		live = live[k:]
		h.drop()
		// One collection frees the instances. Those with a finalizer it
		// keeps for the finalizer, marking them in this cycle, which is
		// not read; the next frees them, unmarked.
		runtime.GC()
		if b == 0 && r.builds > 1 {
			runtime.GC()
			dropped()
		}
	}
	// The heap has shrunk: the runtime's background scavenger would
	// return the free pages to the system during the next cycles, its
	// CPU time counted in theirs. FreeOSMemory returns them now, as the
	// footprint pass did before the holder's first cycles.
	debug.FreeOSMemory()
	gr.cycles(r.after)
	if r.builds == 1 {
		dropped()
	}
	runtime.KeepAlive(h.holder)
	return nil
}

// hashSeeded reports whether a structure of type t may reach a map whose
// slots hold pointers, through its pointers, fields and elements: the
// bytes the collector scans in such a map depend on its hash seed. A
// map of pointer-free slots is not scanned, whatever its layout. An
// interface may hold anything: it counts as such a map.
func hashSeeded(t reflect.Type) bool {
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type) bool
	walk = func(t reflect.Type) bool {
		if t == nil || seen[t] {
			return false
		}
		seen[t] = true
		switch t.Kind() {
		case reflect.Interface:
			return true
		case reflect.Map:
			return typeptr.Has(t.Key()) || typeptr.Has(t.Elem()) || walk(t.Key()) || walk(t.Elem())
		case reflect.Pointer, reflect.Slice, reflect.Array:
			return walk(t.Elem())
		case reflect.Struct:
			for i := range t.NumField() {
				if walk(t.Field(i).Type) {
					return true
				}
			}
		}
		return false
	}
	return walk(t)
}

// perCycle is one kind of per-cycle figure (mark or CPU time) over n
// instances: each live cycle's reading minus the baseline's median (the
// holder alone's cycles, before and after), their median and quartiles,
// and a resolution. The figure is a difference of two medians, each
// known to about its interquartile range, and the baseline may have
// drifted by the distance between its medians before and after: the
// resolution is the sum of the three.
func perCycle(live, before, after []float64, n float64) (samples []float64, s stats.Quartiles, resolution float64, err error) {
	summary := func(vs []float64) stats.Quartiles {
		q, e := stats.SummarizeSamples(vs)
		if e != nil && err == nil {
			err = fmt.Errorf("gc readings: %w", e)
		}
		return q
	}
	l, base := summary(live), summary(slices.Concat(before, after))
	drift := math.Abs(summary(before).Median - summary(after).Median)
	samples = make([]float64, len(live))
	for i, v := range live {
		samples[i] = (v - base.Median) / n
	}
	s = summary(samples)
	resolution = (l.Q3 - l.Q1 + base.Q3 - base.Q1 + drift) / n
	return samples, s, resolution, err
}

// field returns one field of each of samples.
func field(samples []gcSample, f func(gcSample) float64) []float64 {
	vs := make([]float64, len(samples))
	for i, s := range samples {
		vs[i] = f(s)
	}
	return vs
}

// setFigures sets m's collector figures from readings over n instances.
// The holder alone's readings, before and after, are one baseline. The
// scan bytes are the median live reading minus the baseline's median, to
// a resolution of one runtime page plus the spreads of the live readings
// (those of every build of a collection: its hash seeds' spread) and of
// the baseline's. The mark and CPU figures are perCycle's.
func (r gcReadings) setFigures(m *Result, n int) error {
	nf := float64(n)
	scan := func(s gcSample) float64 { return s.scan }
	liveScan, baseScan := field(r.live, scan), field(slices.Concat(r.before, r.after), scan)
	ls, err := stats.SummarizeSamples(liveScan)
	if err != nil {
		return fmt.Errorf("gc readings: %w", err)
	}
	bs, err := stats.SummarizeSamples(baseScan)
	if err != nil {
		return fmt.Errorf("gc readings: %w", err)
	}
	m.ScanBytesPerInstance = (ls.Median - bs.Median) / nf
	m.ScanResolution = (runtimePage + spread(liveScan) + spread(baseScan)) / nf
	if r.builds > 1 {
		m.ScanBuilds = r.builds
	}

	mark := func(s gcSample) float64 { return s.markNs }
	samples, s, res, err := perCycle(field(r.live, mark), field(r.before, mark), field(r.after, mark), nf)
	if err != nil {
		return err
	}
	m.GCMarkNsPerInstance, m.GCMarkNsPerInstanceQ1, m.GCMarkNsPerInstanceQ3 = s.Median, s.Q1, s.Q3
	m.GCMarkSamplesNs, m.GCMarkResolution = samples, res

	if r.cpuErr != nil {
		m.GCCPUUnavailable = r.cpuErr.Error()
		return nil
	}
	cpu := func(s gcSample) float64 { return s.cpuNs }
	samples, s, res, err = perCycle(field(r.live, cpu), field(r.before, cpu), field(r.after, cpu), nf)
	if err != nil {
		return err
	}
	if s.Median < 0 {
		// A collection cannot cost less CPU for the instances being
		// live: the machine's noise exceeded their cost, and the median
		// is no figure.
		// The reason says by how much, unsigned: no view prints a
		// negative figure, even in a reason's words.
		m.GCCPUUnavailable = fmt.Sprintf("%s: the median fell %.3g ns per instance per cycle below zero, resolution %.3g", negativeGCCPU, -s.Median, res)
		return nil
	}
	m.GCCPUNsPerInstance, m.GCCPUNsPerInstanceQ1, m.GCCPUNsPerInstanceQ3 = s.Median, s.Q1, s.Q3
	m.GCCPUSamplesNs, m.GCCPUResolution = samples, res
	return nil
}

// negativeGCCPU starts the reason the GC CPU figure is unavailable when
// the median of its cycles is negative.
const negativeGCCPU = "the collections with the instances live took less CPU than those with the holder alone (noise larger than the instances' cost; measure at a larger N)"

// spread is the largest minus the smallest of vs.
func spread(vs []float64) float64 {
	return slices.Max(vs) - slices.Min(vs)
}
