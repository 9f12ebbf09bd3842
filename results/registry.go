package results

import (
	"slices"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/units"
)

// Figures is the figure registry: every figure of the results rows, one
// entry each, in the order the tables and the CSV file show them. A
// sampled figure (measure.Sampled) is one entry; its quartiles follow it
// here. The reader validates each figure by its entry, Columns gives it a
// column (labelled as figureShows says, or by its name), the gate
// budgets it (Budget), compare judges it (Compare) and export writes it
// (Dashboard, Bencher, Bench). Figures is shared: read it, do not modify
// it.
var Figures = register(registry)

// registry is the entries Figures is built from. See figures.go for what
// each field means and how to add a figure.
var registry = []*Figure{
	{Row: RowThroughput, Figure: measure.Figure{Name: "samples", Title: "samples", Unit: units.Count,
		Obtained: "how many timed samples the sampler took of the operation"}},

	{Row: RowInstances, Required: true, Figure: measure.Figure{Name: "bytes_per_instance", Title: "bytes per instance", Unit: units.Bytes,
		Obtained:   "the Go heap the N instances keep, whoever allocated it, from the heap profile's records at MemProfileRate 1 that their build added, the holder and the runtime's own records excluded, over N",
		Resolution: "heap_resolution_bytes_per_instance",
		Budget:     "max_bytes_per_instance", Compare: "bytes/instance",
		Dashboard: "B/instance", Bencher: "bytes-per-instance", Bench: "B/instance"}},
	// 0: exact (the sites of all N, or extended and checked against a
	// sampled profile of all N).
	{Row: RowInstances, Figure: measure.Figure{Name: "heap_resolution_bytes_per_instance", Title: "bytes per instance resolution", Unit: units.Bytes,
		Obtained: "0 where the bytes per instance are exact; where a site that grows in steps, or what no site explains, takes the rest of the N instances' live heap, what the runtime's own records and the threads it started may take of it, over N"}},
	// Set where the instances stay reachable after they are dropped (a
	// registry keeps them): the bytes per instance then depend on its fill.
	{Row: RowInstances, Figure: measure.Figure{Name: "retained_bytes_per_instance", Title: "retained bytes per instance", Unit: units.Bytes,
		Obtained: "what the live heap still holds once the N instances are dropped and collected (a registry they entered keeps them), the runtime's own records aside, over N; 0 where nothing stays"}},
	{Row: RowInstances, Required: true, Figure: measure.Figure{Name: "allocs_per_instance", Title: "allocs per instance", Unit: units.Count,
		Obtained: "the live heap objects the N instances keep, from the same heap profile's records, over N",
		Budget:   "max_allocs_per_instance", Compare: "allocs/instance",
		Dashboard: "allocs/instance", Bencher: "allocs-per-instance", Bench: "allocs/instance"}},
	// The collector's share, beside the bytes and objects: scan bytes,
	// the CPU time of a collection and the runtime's estimate of its mark
	// time per instance (per cycle), each known to its resolution.
	{Row: RowInstances, NeedsResolution: true, Absent: "the results predate the GC figures", Figure: measure.Figure{
		Name: "scan_bytes_per_instance", Title: "GC scan bytes per instance", Unit: units.Bytes, Signed: true,
		Obtained:   "the runtime/metrics /gc/scan/heap:bytes after forced collections with the instances live, minus the same with the holder alone, over N",
		Resolution: "scan_resolution_bytes_per_instance",
		Budget:     "max_scan_bytes_per_instance", Judge: measure.JudgeResolution,
		Dashboard: "scan B/instance", Bencher: "scan-bytes-per-instance"}},
	{Row: RowInstances, ZeroMeans: ZeroIsUnknown, bound: scanResolutionBound, Figure: measure.Figure{
		Name: "scan_resolution_bytes_per_instance", Title: "GC scan resolution per instance", Unit: units.Bytes,
		Obtained: "one runtime page plus the spread of the scan readings, over N"}},
	{Row: RowInstances, ZeroMeans: ZeroIsNotApplicable, Figure: measure.Figure{Name: "scan_builds", Title: "GC scan builds", Unit: units.Count,
		Obtained: "how many times a map-backed collection was built, each with fresh hash seeds, for the scan readings"}},
	{Row: RowInstances, NeedsSamples: true, Reason: "gc_cpu_unavailable",
		Absent: "the results predate the GC CPU figures, or the case was measured without them",
		Figure: measure.Sampled(measure.Figure{Name: "gc_cpu_ns_per_instance", Title: "GC CPU time per instance per cycle", Unit: units.Nanoseconds, Signed: true,
			Obtained:   "the median over forced collections of the CPU time all the process's threads used across the collection (the operating system's accounting: mark, sweep and the stop-the-world phases) with the instances live, minus the holder alone's median, over N",
			Resolution: "gc_cpu_resolution_ns_per_instance",
			Budget:     "max_gc_cpu_ns_per_instance", Judge: measure.JudgeNoise,
			Dashboard: "GC CPU ns/instance", Bencher: "gc-cpu-ns-per-instance"}, "gc_cpu_samples_ns")},
	{Row: RowInstances, NeedsSamples: true, Figure: measure.Figure{
		Name: "gc_cpu_resolution_ns_per_instance", Title: "GC CPU resolution per instance", Unit: units.Nanoseconds,
		Obtained: "the interquartile ranges of the live and holder-alone cycles plus the drift of the holder's median, over N",
		Samples:  "gc_cpu_samples_ns"}},
	{Row: RowInstances, NeedsSamples: true, Absent: "the results predate the GC figures, or the case was measured without them",
		Figure: measure.Sampled(measure.Figure{Name: "gc_mark_ns_per_instance", Title: "GC mark estimate per instance per cycle", Unit: units.Nanoseconds, Signed: true,
			Obtained:   "the median over forced collections of the runtime's estimate of its mark workers' time (runtime/metrics /cpu/classes/gc/mark/*, timed by the wall clock while a worker holds a P, so that a busy machine inflates it) with the instances live, minus the holder alone's median, over N",
			Resolution: "gc_mark_resolution_ns_per_instance",
			Budget:     "max_gc_mark_ns_per_instance", Judge: measure.JudgeEstimate,
			Instead: "max_gc_cpu_ns_per_instance bounds the collector's CPU time"}, "gc_mark_samples_ns")},
	{Row: RowInstances, NeedsSamples: true, Figure: measure.Figure{
		Name: "gc_mark_resolution_ns_per_instance", Title: "GC mark resolution per instance", Unit: units.Nanoseconds,
		Obtained: "the interquartile ranges of the live and holder-alone cycles plus the drift of the holder's median, over N",
		Samples:  "gc_mark_samples_ns"}},
	{Row: RowInstances, Figure: measure.Figure{Name: "sizeof_bytes", Title: "sizeof", Unit: units.Bytes,
		Obtained: "unsafe.Sizeof of the representation"}},
	{Row: RowInstances, Figure: measure.Figure{Name: "slot_bytes", Title: "pointer slot bytes", Unit: units.Bytes,
		Obtained: "the allocator's slot for the largest object of one instance (the profile's bytes label), for the pointer layout"}},
	{Row: RowInstances, Figure: measure.Figure{Name: "array_slot_bytes_per_instance", Title: "array slot bytes per instance", Unit: units.Bytes,
		Obtained: "the slot of the slice layout's backing array, over N"}},
	{Row: RowInstances, Figure: measure.Figure{Name: "offheap_bytes_per_instance", Title: "off-heap bytes per instance", Unit: units.Bytes, Signed: true,
		Obtained:   "the instances' finalizer and cleanup records outside the heap: the runtime/metrics counts of queued finalizers and cleanups across dropping the instances, times the record's size (runtime.specialfinalizer, runtime.specialCleanup), over N; in results before they were counted, runtime.MemStats.OtherSys's growth",
		Resolution: "offheap_resolution_bytes_per_instance",
		Budget:     "max_offheap_bytes_per_instance", Judge: measure.JudgeResolution}},
	{Row: RowInstances, ZeroMeans: ZeroIsUnknown, bound: offheapResolutionBound, Figure: measure.Figure{
		Name: "offheap_resolution_bytes_per_instance", Title: "off-heap resolution per instance", Unit: units.Bytes,
		Obtained: "0 for the counted records (exact); in results before they were counted, two of the runtime's 256 KiB off-heap chunks, over N"}},
	// Goroutine stacks the instances keep running, outside the heap.
	{Row: RowInstances, NeedsResolution: true, Figure: measure.Figure{Name: "stack_bytes_per_instance", Title: "stack bytes per instance", Unit: units.Bytes, Signed: true,
		Obtained:   "the goroutine stacks the instances keep running: the growth of runtime.MemStats.StackInuse across their build, read after a collection, over N",
		Resolution: "stack_resolution_bytes_per_instance"}},
	{Row: RowInstances, ZeroMeans: ZeroIsUnknown, Figure: measure.Figure{Name: "stack_resolution_bytes_per_instance", Title: "stack resolution per instance", Unit: units.Bytes,
		Obtained: "a span of stacks, the stacks the runtime keeps with exited goroutines for reuse (63 per P) and the two stacks of each thread it started, over N"}},
	{Row: RowInstances, Figure: measure.Figure{Name: "runtime_metadata_bytes_per_instance", Title: "runtime metadata bytes per instance", Unit: units.Bytes, Signed: true,
		Obtained:   "the heap's own metadata (span, mcache, profiling-bucket and GC records) that grew with the instances, over N",
		Resolution: "runtime_metadata_resolution_bytes_per_instance"}},
	{Row: RowInstances, ZeroMeans: ZeroIsUnknown, Figure: measure.Figure{Name: "runtime_metadata_resolution_bytes_per_instance", Title: "runtime metadata resolution per instance", Unit: units.Bytes,
		Obtained: "two of the runtime's 256 KiB off-heap chunks, over N: each reading of the metadata may be filling one, and the collector's records are freed in steps"}},
	{Row: RowInstances, Figure: measure.Figure{Name: "heapalloc_bytes_per_instance", Title: "HeapAlloc bytes per instance", Unit: units.Bytes, Signed: true,
		Obtained: "the runtime.MemStats.HeapAlloc delta, holder excluded, over N: a cross-check on the bytes per instance"}},
	{Row: RowInstances, Figure: measure.Figure{Name: "holder_bytes_per_instance", Title: "holder bytes per instance", Unit: units.Bytes,
		Obtained: "the harness's own slice that keeps the instances alive, over N"}},
	{Row: RowInstances, Reason: "c_heap_unavailable", Figure: measure.Figure{Name: "c_heap_bytes_per_instance", Title: "C heap bytes per instance", Unit: units.Bytes, Signed: true,
		Obtained: "the C heap in use (glibc mallinfo2) that grew with the instances, over N",
		Budget:   "max_c_heap_bytes_per_instance"}},
	{Row: RowInstances, ResolutionBound: true, Figure: measure.Figure{Name: "rss_bytes_per_instance", Title: "RSS bytes per instance", Unit: units.Bytes, Signed: true,
		Obtained:   "the resident-set growth, over N",
		Resolution: "rss_resolution_bytes_per_instance"}},
	{Row: RowInstances, ResolutionBound: true, Figure: measure.Figure{Name: "unaccounted_bytes_per_instance", Title: "unaccounted bytes per instance", Unit: units.Bytes, Signed: true,
		Obtained:   "the RSS growth that neither the Go heap, the off-heap memory, the runtime's metadata, the goroutine stacks nor the C heap explains, over N",
		Resolution: "rss_resolution_bytes_per_instance"}},
	{Row: RowInstances, ZeroMeans: ZeroIsUnknown, bound: rssResolutionBound, Figure: measure.Figure{Name: "rss_resolution_bytes_per_instance", Title: "RSS resolution per instance", Unit: units.Bytes,
		Obtained: "two readings of whole pages, each taken while a 256 KiB off-heap chunk fills: 2 × (256 KiB + one page), over N"}},
	// KZG: the build time of a single-layout case (a context).
	{Row: RowInstances, ZeroMeans: ZeroIsNotApplicable, Figure: measure.Figure{Name: "build_ns", Title: "build time", Unit: units.Nanoseconds,
		Obtained: "the wall time of building the one object of a single-layout case, with profiling off"}},

	{Row: RowThroughput, Required: true, Figure: measure.Sampled(measure.Figure{Name: "ns_per_op_median", Title: "ns per op", Unit: units.Nanoseconds,
		Obtained: "the median of the operation's samples, each the wall time of a run of calls over its calls",
		Budget:   "max_ns_per_op", Judge: measure.JudgeNoise, Compare: "time/op",
		Dashboard: "ns/op", Bencher: "latency", Bench: "ns/op"}, "samples_ns")},
	{Row: RowThroughput, ZeroMeans: ZeroIsUnknown, Figure: measure.Figure{Name: "cpu_ns_per_op_median", Title: "CPU time per op", Unit: units.Nanoseconds,
		Obtained: "the median of the samples' process CPU time over their calls"}},
	{Row: RowThroughput, Figure: measure.Figure{Name: "ops_per_s", Title: "operations per second", Unit: units.PerSecond,
		Obtained: "1 s over the median time per op"}},
	{Row: RowThroughput, PerGOMAXPROCS: true, PerSample: "samples_bytes_per_op", Figure: measure.Figure{Name: "bytes_per_op", Title: "bytes per op", Unit: units.Bytes,
		Obtained: "the runtime.MemStats TotalAlloc delta over every timed call, over the calls",
		Budget:   "max_bytes_per_op", Bench: "B/op"}},
	{Row: RowThroughput, PerGOMAXPROCS: true, PerSample: "samples_allocs_per_op", Figure: measure.Figure{Name: "allocs_per_op", Title: "allocs per op", Unit: units.Count,
		Obtained: "the runtime.MemStats Mallocs delta over every timed call, over the calls",
		Budget:   "max_allocs_per_op", Bench: "allocs/op"}},
	// KZG: what a cgo operation keeps in C memory per call.
	{Row: RowThroughput, Figure: measure.Figure{Name: "c_heap_bytes_per_op", Title: "C heap bytes per op", Unit: units.Bytes, Signed: true,
		Obtained: "the growth of the C heap in use (glibc mallinfo2) across the calls, over the calls; none for pure-Go libraries"}},
}

// register returns the figures of entries, each sampled one followed by
// its quartiles, bound to their rows' fields (bind).
func register(entries []*Figure) []*Figure {
	out := expand(entries)
	bind(out)
	return out
}

// expand returns entries with each sampled figure followed by its
// quartiles.
func expand(entries []*Figure) []*Figure {
	var out []*Figure
	for _, f := range entries {
		out = append(out, f)
		if f.Summary == measure.SummaryMedian {
			q1, q3 := f.Quartiles()
			out = append(out, f.quartileOf(q1), f.quartileOf(q3))
		}
	}
	return out
}

// WithFigure adds the figure of one registry entry (with its quartiles,
// if it is sampled) to Figures and its column to Columns, and returns the
// function that takes them out again. It is for tests that prove a
// figure is one entry: the reader, the tables, the gate, compare and the
// exports then know it as they know every other. Its column is labelled
// by its name unless figureShows has it; a column that is not a figure
// and has its name gives way to it. It changes package state: no test
// that calls it may run in parallel with one that reads results.
func WithFigure(entry *Figure) (restore func()) {
	old := Figures
	figs := append(slices.Clone(old), expand([]*Figure{entry})...)
	bind(figs)
	setFigures(figs)
	return func() { setFigures(old) }
}

// setFigures makes figs the registry and rebuilds what is derived from it.
func setFigures(figs []*Figure) {
	Figures = figs
	Columns = layColumns(figs)
	instanceFigures, throughputFigures = FiguresOf(RowInstances), FiguresOf(RowThroughput)
	wireDocs = newWireDocs()
}

// quartileOf is the quartile q of the sampled figure f, read from f's row
// as f is.
func (f *Figure) quartileOf(q measure.Figure) *Figure {
	return &Figure{Figure: q, Row: f.Row, NeedsSamples: f.NeedsSamples}
}
