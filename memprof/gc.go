package memprof

import (
	"fmt"
	"math"
	"runtime"
	"runtime/metrics"
	"slices"

	"github.com/memprof/memprof/model"
)

// MarkCycles is how many forced collections the GC pass reads with the
// instances live, and as many with the holder alone: one mark sample per
// live cycle, summarised by their median and quartiles. The holder's
// cycles are split, holderCyclesBefore before the instances are built
// and the rest after they are dropped, so that they bracket the live
// ones in time.
const MarkCycles = 7

// holderCyclesBefore is how many of the holder's MarkCycles cycles are
// read before the instances are built.
const holderCyclesBefore = 3

// runtimePage is the runtime's page size (runtime.pageSize), the unit in
// which it allocates spans. The scan figure's resolution allows one page
// of the runtime's own small objects (sudogs, timers, the scheduler's and
// the collector's records), which come and go between readings.
const runtimePage = 8 << 10

// The runtime/metrics the GC pass reads. The heap scan figure is the scan
// work of the last completed cycle when read right after a forced
// collection, before anything is allocated (the runtime adds to it as
// objects with pointers are allocated); the mark figures are cumulative
// CPU time of the three kinds of mark work, each cycle's added when it
// ends.
const (
	metricScanHeap      = "/gc/scan/heap:bytes"
	metricMarkDedicated = "/cpu/classes/gc/mark/dedicated:cpu-seconds"
	metricMarkIdle      = "/cpu/classes/gc/mark/idle:cpu-seconds"
	metricMarkAssist    = "/cpu/classes/gc/mark/assist:cpu-seconds"
)

// gcReader reads the collector's metrics into samples allocated once, so
// that a reading allocates nothing (an allocation would add to the scan
// figure before it is read).
type gcReader struct {
	samples []metrics.Sample
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
	return g, nil
}

// read returns the heap scan work of the last cycle, in bytes, and the
// mark time of every cycle so far, in nanoseconds.
func (g *gcReader) read() (scan, markNs float64) {
	metrics.Read(g.samples)
	scan = float64(g.samples[0].Value.Uint64())
	for _, s := range g.samples[1:] {
		markNs += s.Value.Float64() * 1e9
	}
	return scan, markNs
}

// cycles forces len(scan) collections and sets, for each, the heap scan
// work of the cycle and the time it spent marking (markNs is as long as
// scan). It allocates nothing.
func (g *gcReader) cycles(scan, markNs []float64) {
	_, prev := g.read()
	for i := range scan {
		runtime.GC()
		s, m := g.read()
		scan[i], markNs[i] = s, m-prev
		prev = m
	}
}

// held is what keeps a pass's instances alive: the engine's holder (the
// pointer layout) or the structure the case built (slice and collection).
type held struct {
	holder []any
	many   any
}

// gcReadings are the GC pass's readings: MarkCycles collections with the
// instances live, and as many with the holder alone, some before the
// instances are built and the others once they are dropped. The two sets
// of the holder alone bracket the live set in time: how far apart they
// are is how much the machine drifted meanwhile.
type gcReadings struct {
	beforeScan, beforeMark []float64
	liveScan, liveMark     []float64
	afterScan, afterMark   []float64
}

// newGCReadings returns readings with room for every cycle, allocated
// before the footprint pass reads anything (taking them allocates
// nothing).
func newGCReadings() gcReadings {
	f := func(n int) []float64 { return make([]float64, n) }
	return gcReadings{
		beforeScan: f(holderCyclesBefore), beforeMark: f(holderCyclesBefore),
		liveScan: f(MarkCycles), liveMark: f(MarkCycles),
		afterScan: f(MarkCycles - holderCyclesBefore), afterMark: f(MarkCycles - holderCyclesBefore),
	}
}

// quietly runs read while the parent keeps the other processes measuring
// at the same time stopped (quiet).
func quietly(quiet *quietPipe, read func()) error {
	if err := quiet.quiet(); err != nil {
		return err
	}
	read()
	return quiet.resume()
}

// gcPass takes the collector's readings of the instances h keeps alive:
// MarkCycles forced collections with them live; then the instances are
// dropped (the holder's entries set to nil, a structure released), a
// collection frees them, and the rest of the holder's cycles are read.
// The holder (N nil entries) is scanned and marked alike with and without
// the instances, so it cancels. All are read while the parent keeps the
// other processes measuring at the same time stopped (quiet). h's
// instances are released.
func gcPass(h *held, gr *gcReader, quiet *quietPipe, r *gcReadings) error {
	return quietly(quiet, func() {
		gr.cycles(r.liveScan, r.liveMark)
		runtime.KeepAlive(h.holder)
		runtime.KeepAlive(h.many)
		clear(h.holder)
		h.many = nil
		// One collection frees the instances. Those with a finalizer it
		// keeps for the finalizer, marking them in this cycle, which is
		// not read; the next frees them, unmarked.
		runtime.GC()
		gr.cycles(r.afterScan, r.afterMark)
		runtime.KeepAlive(h.holder)
	})
}

// setFigures sets m's collector figures from readings over n instances.
// The holder alone's readings, before and after, are one baseline. The
// scan bytes are the median live reading minus the baseline's median, to
// a resolution of one runtime page plus the spreads of the live readings
// and of the baseline's. Each mark sample is a live cycle's mark time
// minus the baseline's median. The figure is thus a difference of two
// medians, each known to about its interquartile range, and the baseline
// may have drifted by the distance between its medians before and after:
// the resolution is the sum of the three.
func (r gcReadings) setFigures(m *Result, n int) error {
	var err error
	summary := func(vs []float64) model.Quartiles {
		q, e := model.SummarizeSamples(vs)
		if e != nil && err == nil {
			err = fmt.Errorf("gc readings: %w", e)
		}
		return q
	}
	nf := float64(n)
	baseScan := slices.Concat(r.beforeScan, r.afterScan)
	baseMark := slices.Concat(r.beforeMark, r.afterMark)
	live, base := summary(r.liveMark), summary(baseMark)
	drift := math.Abs(summary(r.beforeMark).Median - summary(r.afterMark).Median)
	m.ScanBytesPerInstance = (summary(r.liveScan).Median - summary(baseScan).Median) / nf
	m.ScanResolution = (runtimePage + spread(r.liveScan) + spread(baseScan)) / nf
	if err != nil {
		return err
	}
	samples := make([]float64, len(r.liveMark))
	for i, v := range r.liveMark {
		samples[i] = (v - base.Median) / nf
	}
	s := summary(samples)
	if err != nil {
		return err
	}
	m.GCMarkNsPerInstance, m.GCMarkNsPerInstanceQ1, m.GCMarkNsPerInstanceQ3 = s.Median, s.Q1, s.Q3
	m.GCMarkSamplesNs = samples
	m.GCMarkResolution = (live.Q3 - live.Q1 + base.Q3 - base.Q1 + drift) / nf
	return nil
}

// spread is the largest minus the smallest of vs.
func spread(vs []float64) float64 {
	return slices.Max(vs) - slices.Min(vs)
}
