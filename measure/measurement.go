// Package measure holds the engine's domain-free numbers: Measurement
// (what N instances keep) with its Sites and Sweep, Timing (what the
// sampler measures of an operation) with its OpSites, the Layout a case
// holds its instances in, and Env with the Collector a measurement ran
// under; and Figure, the description of one measured figure (name, unit,
// resolution, samples, how a budget judges it, its names in compare and
// the exports), with Sampled, the one constructor of a figure summarized
// from samples. It knows no vocabulary of crypto: the results file
// (package results) embeds these in its rows, and its figure registry
// binds each Figure to a field of them.
package measure

import (
	"encoding/json"
	"slices"
	"time"
)

// BytesPerInstanceDefinition says what bytes_per_instance is, in the one
// text the engine's documentation, the help and the method print.
const BytesPerInstanceDefinition = `Bytes per instance are what N instances keep on the Go heap, over N: the growth of the live heap (read after a collection) while they are built, whoever allocated it (the constructor, or worker goroutines it hands work to), less the harness's holder and less the objects the runtime allocates for its own bookkeeping (the wait records of blocked channel operations and semaphores, goroutine and thread descriptors, the caches of type assertions' and type switches' call sites: anything allocated below runtime.acquireSudog, runtime.newproc1, runtime.malg, runtime.allocm, runtime.buildTypeAssertCache and their kind). ` +
	`Objects that were live before the build do not count, even where the instances then hold them (a pool filled earlier, a slice grown by the warm-up); growth shared among the instances (a table they all append to) counts, amortized over N. A timer or channel an instance holds is the instance's. ` +
	`The figure is the sum of the allocation sites', each the allocating function and line; what no site explains is a site of its own, (unattributed). Goroutine stacks (stack_bytes_per_instance) and the runtime's records of finalizers, cleanups and weak pointers (offheap_bytes_per_instance) are outside the Go heap and not in it.`

// Measurement is what the engine measures of one case: domain-free
// numbers. Sizes are in bytes, per instance unless the name says otherwise.
type Measurement struct {
	N int `json:"n"`

	// BytesPerInstance is the Go heap N instances keep, per instance:
	// BytesPerInstanceDefinition says what counts. It is the sum of Sites.
	BytesPerInstance float64 `json:"bytes_per_instance"`
	// AllocsPerInstance is the number of live heap objects per instance.
	AllocsPerInstance float64 `json:"allocs_per_instance"`
	// SizeofBytes is unsafe.Sizeof of the representation.
	SizeofBytes int64 `json:"sizeof_bytes"`
	// SlotBytes is the slot size the allocator used for the largest object
	// of one instance (the profile's "bytes" label), for the pointer
	// layout; 0 for the other layouts.
	SlotBytes float64 `json:"slot_bytes,omitempty"`
	// ArraySlotBytesPerInstance is the slot of the slice layout's backing
	// array divided by N; 0 for the other layouts.
	ArraySlotBytesPerInstance float64 `json:"array_slot_bytes_per_instance,omitempty"`
	// OffheapBytesPerInstance is runtime memory outside the heap that the
	// instances keep, per instance: their finalizer and cleanup records,
	// counted (the runtime's finalizer and cleanup metrics move by them
	// when the instances are dropped), and the records of their weak
	// pointers' handles, counted in the heap profile (one handle on the
	// heap beside each), each multiplied by its record's size.
	OffheapBytesPerInstance float64 `json:"offheap_bytes_per_instance"`
	// OffheapResolution is the off-heap figure's resolution: 0 for the
	// counted records (exact); 512 KiB / N in files written before they
	// were counted, when the figure was the difference of two readings of
	// runtime.MemStats.OtherSys, which grows in chunks of 256 KiB.
	OffheapResolution float64 `json:"offheap_resolution_bytes_per_instance"`
	// RuntimeMetadataBytesPerInstance is the heap's own metadata (span,
	// mcache, profiling-bucket and GC records) that grew with the
	// instances, per instance; it is part of the whole footprint.
	RuntimeMetadataBytesPerInstance float64 `json:"runtime_metadata_bytes_per_instance"`
	// RuntimeMetadataResolution is the metadata figure's resolution: the
	// runtime counts its metadata in whole off-heap chunks, one of which
	// each reading may be filling (and GC records are freed in steps), so
	// two chunks over N; 0 (unknown) in files written before it.
	RuntimeMetadataResolution float64 `json:"runtime_metadata_resolution_bytes_per_instance"`
	// HeapAllocBytesPerInstance is the runtime.MemStats.HeapAlloc delta per
	// instance, holder excluded: a cross-check on BytesPerInstance.
	HeapAllocBytesPerInstance float64 `json:"heapalloc_bytes_per_instance"`
	// HolderBytesPerInstance is the harness's own slice that keeps the
	// instances alive, per instance.
	HolderBytesPerInstance float64 `json:"holder_bytes_per_instance"`
	// CHeapBytesPerInstance is the C heap (glibc mallinfo2) delta per
	// instance; nil when not available, with the reason in CHeapUnavailable.
	CHeapBytesPerInstance *float64 `json:"c_heap_bytes_per_instance,omitempty"`
	CHeapUnavailable      string   `json:"c_heap_unavailable,omitempty"`
	// RSSBytesPerInstance is the resident-set growth per instance.
	RSSBytesPerInstance float64 `json:"rss_bytes_per_instance"`
	// UnaccountedBytesPerInstance is the RSS growth that neither the Go heap
	// (HeapAlloc delta, holder included), the runtime's memory outside it
	// (MemStats.OtherSys), the runtime's metadata, the goroutine stacks nor
	// the C heap explains. RSSResolution says how
	// far from the truth it can be.
	UnaccountedBytesPerInstance float64 `json:"unaccounted_bytes_per_instance"`
	// RSSResolution is the resolution of RSSBytesPerInstance and
	// UnaccountedBytesPerInstance: 2 × (256 KiB + one page) / N. Each of
	// the two readings the figures are the difference of counts whole
	// pages (it can be off by up to a page), and is taken while the
	// runtime is filling one of its 256 KiB off-heap chunks, which become
	// resident page by page as they fill and which the off-heap and
	// metadata figures (subtracted from the unaccounted one) count whole
	// as soon as they are mapped (off by up to a chunk). It is 0 where RSS
	// cannot be read, and in files written before it was recorded; the
	// JSON field is then absent.
	RSSResolution float64 `json:"rss_resolution_bytes_per_instance,omitempty"`

	// StackBytesPerInstance is the goroutine stacks the instances keep
	// alive (goroutines they started that run as long as they live), per
	// instance: the growth of runtime.MemStats.StackInuse across their
	// build, read after a collection. Stacks are outside the Go heap and
	// not in BytesPerInstance. StackResolution says how far from the truth
	// it can be.
	StackBytesPerInstance float64 `json:"stack_bytes_per_instance"`
	// StackResolution is the stack figure's resolution: one span of
	// stacks, the stacks the runtime keeps with exited goroutines for new
	// ones to reuse (up to 63 per P, of the starting size), and the two
	// stacks of each thread the runtime started meanwhile, over N. 0 in
	// files written before the figure.
	StackResolution float64 `json:"stack_resolution_bytes_per_instance,omitempty"`
	// HeapResolution is how far BytesPerInstance can be from what the N
	// instances keep: 0 when it is exact (its sites come from a heap
	// profile of all N, or were extended to N from fewer, a sampled
	// profile of all N shows no site beyond theirs, and they account for
	// the live heap of the N instances to the byte); otherwise at least
	// the part of that live heap that the runtime's own records and the
	// threads it started meanwhile may take (the site that grows with N
	// takes the rest of it), over N; wider where HeapNote says why (the
	// growth of a registry the instances stay in, the spread of builds of
	// a hash-seeded structure). Absent (0) in files written before it
	// was recorded.
	HeapResolution float64 `json:"heap_resolution_bytes_per_instance,omitempty"`
	// RetainedBytesPerInstance, when not 0, says that the instances stay
	// reachable after the engine drops them (a registry they enter keeps
	// them): what the live heap still holds once the N instances of the
	// footprint pass are dropped and collected, the runtime's own records
	// aside, over N. Every build after
	// the warm-up then starts from a structure the earlier ones filled,
	// and what the N instances add to it (growth shared among them)
	// depends on how full it was: HeapResolution covers that growth.
	RetainedBytesPerInstance float64 `json:"retained_bytes_per_instance,omitempty"`
	// HeapNote, when set, says why BytesPerInstance differs from
	// HeapAllocBytesPerInstance by more than the runtime's own records,
	// or why its resolution is wider than the runtime's churn.
	HeapNote string `json:"heap_note,omitempty"`

	// The collector's share: what the instances cost the garbage
	// collector on every cycle (see memprof's GC pass).

	// ScanBytesPerInstance is the heap the collector scans per instance on
	// every cycle, holder excluded: the runtime/metrics reading
	// /gc/scan/heap:bytes right after forced collections with the
	// instances live, minus the same with the holder alone, over N. A
	// pointer-free instance scans nothing. ScanResolution says how far
	// from the truth it can be.
	ScanBytesPerInstance float64 `json:"scan_bytes_per_instance"`
	// ScanResolution is the resolution of ScanBytesPerInstance: the
	// runtime's own objects, which come and go between readings, allowed
	// one runtime page (8 KiB) plus the spread of the readings, over N.
	// It is 0 in files written before the figure; the scan figure is then
	// unknown.
	ScanResolution float64 `json:"scan_resolution_bytes_per_instance,omitempty"`
	// ScanBuilds is how many times a collection was built for the GC
	// pass's readings, each with a fresh hash seed (the scan figure and
	// its resolution come from all of them); 0 (absent) for one build: the
	// other layouts, a collection whose build was too slow to repeat, and
	// files written before it was recorded.
	ScanBuilds int `json:"scan_builds,omitempty"`
	// GCMarkNsPerInstance is the runtime's estimate of its mark workers'
	// time per instance per cycle: the median of GCMarkSamplesNs, with
	// their first and third quartiles (SummarizeSamples, as a timing's).
	// The runtime times each worker by the wall clock while it holds a P,
	// so time the OS has its thread descheduled counts: a busy machine
	// inflates it. GCCPUNsPerInstance is the CPU the collection costs.
	GCMarkNsPerInstance   float64 `json:"gc_mark_ns_per_instance"`
	GCMarkNsPerInstanceQ1 float64 `json:"gc_mark_ns_per_instance_q1"`
	GCMarkNsPerInstanceQ3 float64 `json:"gc_mark_ns_per_instance_q3"`
	// GCMarkSamplesNs holds one sample per forced collection with the
	// instances live: the mark time of the cycle (the runtime/metrics
	// /cpu/classes/gc/mark/{dedicated,idle,assist}:cpu-seconds) minus the
	// median of the same with the holder alone, over N. Empty in files
	// written before the figure.
	GCMarkSamplesNs []float64 `json:"gc_mark_samples_ns,omitempty"`
	// GCMarkResolution is the resolution of the mark figures: the
	// interquartile ranges of the two sets of cycles (instances live,
	// holder alone) plus the drift of the holder's median between its
	// cycles before and after the live ones, over N.
	GCMarkResolution float64 `json:"gc_mark_resolution_ns_per_instance,omitempty"`
	// GCCPUNsPerInstance is the CPU time the process's threads spend in
	// one forced collection per instance (mark, sweep and the
	// stop-the-world phases; the collections run at GOMAXPROCS 1, where
	// no idle mark worker spins), holder excluded: the median of
	// GCCPUSamplesNs, with their first and third quartiles. It comes from
	// the operating system's accounting of the threads' CPU, not from the
	// runtime's estimate, so the time a thread waits for a CPU is not in
	// it (a busy machine still slows the work itself: docs/gc.md). In a
	// process where other goroutines run (Measure in a test), their CPU
	// during the collections counts too.
	GCCPUNsPerInstance   float64 `json:"gc_cpu_ns_per_instance,omitempty"`
	GCCPUNsPerInstanceQ1 float64 `json:"gc_cpu_ns_per_instance_q1,omitempty"`
	GCCPUNsPerInstanceQ3 float64 `json:"gc_cpu_ns_per_instance_q3,omitempty"`
	// GCCPUSamplesNs holds one sample per forced collection with the
	// instances live: the threads' CPU time across the cycle minus the
	// median of the same with the holder alone, over N. Empty in files
	// written before the figure, and where the CPU time cannot be read
	// (GCCPUUnavailable says why).
	GCCPUSamplesNs []float64 `json:"gc_cpu_samples_ns,omitempty"`
	// GCCPUResolution is the resolution of the CPU figures, reckoned as
	// GCMarkResolution is.
	GCCPUResolution float64 `json:"gc_cpu_resolution_ns_per_instance,omitempty"`
	// GCCPUUnavailable, when set, says why the GC pass has no CPU
	// figures: this system's CPU time of the process cannot be read, or
	// the median of the cycles was negative (the machine's noise larger
	// than the instances' cost), which is never published as a figure.
	GCCPUUnavailable string `json:"gc_cpu_unavailable,omitempty"`

	// Sites are the allocation sites inside the constructor, in the
	// order the profile reader returns them.
	Sites []Site `json:"sites"`
	// AttributedN is how many instances the sites were profiled on: N,
	// or a few thousand of them when the engine profiled fewer and
	// extended their sites to N with the live heap of all N (memprof's
	// passes: a site that costs the same in every instance is exact from
	// fewer; the one that grows in steps, such as a map's tables, takes
	// what the N instances keep beyond the others). It is at most N; 0
	// (the field absent) in files written before it was recorded.
	AttributedN int `json:"attributed_n,omitempty"`
	// AttributionFallback, when set, says why all N instances were
	// profiled although fewer were first: their sites did not account for
	// what the N instances keep, or two of them grow in steps.
	// AttributedN is then N.
	AttributionFallback string `json:"attribution_fallback,omitempty"`

	// BuildNs is how long building the one object of a single-layout case
	// took (a KZG context: the trusted setup loaded and its tables
	// precomputed), in nanoseconds of wall time, measured with profiling
	// off; 0 for the other layouts, whose instances are many and cheap.
	BuildNs float64 `json:"build_ns,omitempty"`
}

// UnattributedSite is the Function of the site row that holds what the
// instances keep that no allocation site explains (a site of an
// instances' or an operation's sites): in a measurement in a process
// shared with other code, what was allocated outside the constructor's
// frames (on worker goroutines, or by other code); in a process of its
// own, objects that were live before the build and were freed during it.
// Its figures may be negative.
const UnattributedSite = "(unattributed)"

// Site is one allocation site of the instances: where they allocate what
// they keep (see BytesPerInstanceDefinition), or UnattributedSite.
// Function is the first frame of the allocation outside the Go runtime
// and memprof's harness (the suites): the library's function, or a user's
// constructor; an allocation the harness makes itself is named by what it
// holds, new(T), make([]T, n) or any(T) (the interface a slice is
// returned in), without a file. File is module@version/path for a
// dependency, the path within the module for the main module's code, and
// the standard library's import-path form (runtime/malloc.go) for GOROOT,
// never a path of the machine that measured (files written before this
// rule may hold absolute paths).
type Site struct {
	Function          string  `json:"function"`
	File              string  `json:"file,omitempty"`
	Line              int64   `json:"line,omitempty"`
	BytesPerInstance  float64 `json:"bytes_per_instance"`
	AllocsPerInstance float64 `json:"allocs_per_instance"`
	// SlotSizes lists the distinct slot sizes (bytes) seen at this site.
	SlotSizes []int64 `json:"slot_sizes,omitempty"`
}

// UnmarshalJSON reads a site, also from files written before slot_sizes
// was named so (it was slot_bytes).
func (s *Site) UnmarshalJSON(b []byte) error {
	type plain Site
	var w struct {
		plain
		LegacySlotBytes []int64 `json:"slot_bytes"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*s = Site(w.plain)
	if s.SlotSizes == nil {
		s.SlotSizes = w.LegacySlotBytes
	}
	return nil
}

// Sweep is a fit of bytes = Intercept + Slope*N over several N.
type Sweep struct {
	Points    []SweepPoint `json:"points"`
	Intercept float64      `json:"intercept_bytes"`
	Slope     float64      `json:"slope_bytes_per_instance"`
	SlopeLow  float64      `json:"slope_ci95_low"`
	SlopeHigh float64      `json:"slope_ci95_high"`
	R2        float64      `json:"r2"`
}

// SweepPoint is one N of a sweep and the total bytes measured at it.
type SweepPoint struct {
	N                int     `json:"n"`
	Bytes            float64 `json:"bytes"`
	BytesPerInstance float64 `json:"bytes_per_instance"`
}

// OpSite is one allocation site of an operation: the allocating function
// and line (the first frame outside the Go runtime) and what one call
// allocates there, in the allocator's slots. File follows Site's rule
// (module-relative, never the measuring machine's path).
type OpSite struct {
	Function    string  `json:"function"`
	File        string  `json:"file,omitempty"`
	Line        int64   `json:"line,omitempty"`
	BytesPerOp  float64 `json:"bytes_per_op"`
	AllocsPerOp float64 `json:"allocs_per_op"`
}

// Timing is what the sampler measures of one operation: domain-free
// numbers (see the method text written into Results.Method).
type Timing struct {
	Samples          int       `json:"samples"`
	NsPerOpMedian    float64   `json:"ns_per_op_median"`
	NsPerOpQ1        float64   `json:"ns_per_op_q1"`
	NsPerOpQ3        float64   `json:"ns_per_op_q3"`
	CPUNsPerOpMedian float64   `json:"cpu_ns_per_op_median"`
	OpsPerSecond     float64   `json:"ops_per_s"`
	BytesPerOp       float64   `json:"bytes_per_op"`
	AllocsPerOp      float64   `json:"allocs_per_op"`
	SamplesNs        []float64 `json:"samples_ns,omitempty"`
	// SamplesIters holds, for each sample of SamplesNs, how many calls it
	// timed (what go test calls a benchmark's iterations), so that each
	// sample is a line of the benchmark format. Files written before it
	// was recorded lack it.
	SamplesIters []int64 `json:"samples_iters,omitempty"`
	// SamplesBytesPerOp and SamplesAllocsPerOp hold, for each sample of
	// SamplesNs, the bytes and objects allocated per call during it (the
	// runtime.MemStats TotalAlloc and Mallocs deltas over its calls): the
	// same in every sample for an operation that allocates the same on
	// every call, varying for one whose allocation depends on scheduling
	// (AllocsVary). Files written before they were recorded lack them.
	SamplesBytesPerOp  []float64 `json:"samples_bytes_per_op,omitempty"`
	SamplesAllocsPerOp []float64 `json:"samples_allocs_per_op,omitempty"`

	// CHeapBytesPerOp is the growth of the C heap in use (glibc
	// mallinfo2) across the calls, divided by the calls: what an
	// operation of a cgo library keeps in C memory per call. C memory an
	// operation allocates and frees within the call does not show. It is
	// nil for operations of pure-Go libraries and where the C heap cannot
	// be read.
	CHeapBytesPerOp *float64 `json:"c_heap_bytes_per_op,omitempty"`
}

// AllocsVary reports whether t's samples allocated different bytes or
// objects per call (SamplesBytesPerOp, SamplesAllocsPerOp); false when
// every sample allocated the same, and for a file without per-sample
// figures.
func (t *Timing) AllocsVary() bool {
	vary := func(vs []float64) bool {
		return slices.ContainsFunc(vs, func(v float64) bool { return v != vs[0] })
	}
	return vary(t.SamplesBytesPerOp) || vary(t.SamplesAllocsPerOp)
}

// Env describes where a measurement was made, so that results from
// different machines are not compared by accident.
type Env struct {
	GoVersion  string `json:"go_version"`
	GOOS       string `json:"goos"`
	GOARCH     string `json:"goarch"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	NumCPU     int    `json:"num_cpu"`
	// CPU names the processor as Go's testing package names it on its
	// "cpu:" line (on amd64 the CPUID brand string, untrimmed at the
	// end; elsewhere Linux's /proc/cpuinfo model name), so that the
	// benchmark format's cpu configuration matches go test's. Files
	// written by earlier versions hold /proc/cpuinfo's model name, trimmed,
	// which is the same name on most machines.
	CPU string `json:"cpu"`
	Cgo bool   `json:"cgo"`
	// Modules maps the measured libraries' module paths to their versions,
	// from the binary's build info.
	Modules map[string]string `json:"modules,omitempty"`

	// Machine names the runner that measured (the --machine flag, else
	// the host name), Commit the commit that was measured (--commit, else
	// $GITHUB_SHA, else the binary's VCS revision), and Time when the
	// measurement started (RFC 3339, UTC). They tell the results of
	// several runners and runs apart; none of them makes two environments
	// incomparable. Files written before them lack them.
	Machine string `json:"machine,omitempty"`
	Commit  string `json:"commit,omitempty"`
	Time    string `json:"time,omitempty"`

	// GC is the garbage collector the measuring binary ran under (from its
	// build settings' GOEXPERIMENT, else the default of its Go version):
	// the collector's figures differ between them. Empty in files written
	// before it was recorded.
	GC Collector `json:"gc,omitempty"`
	// ScanRule is how the collector counted the scan work of small
	// objects holding pointers (ScanRule), and ScanRuleBasis what decided
	// it: the collector, the architecture and the CPU's features. Empty
	// (unknown) in files written before they were recorded.
	ScanRule      ScanRule `json:"scan_rule,omitempty"`
	ScanRuleBasis string   `json:"scan_rule_basis,omitempty"`

	// LoadStart and LoadEnd are the machine's one-minute load average
	// when the run started and when it ended: how busy the machine was
	// while the times were taken. Nil where the system does not report
	// it and in files written before it was recorded: unknown.
	LoadStart *float64 `json:"load_average_start,omitempty"`
	LoadEnd   *float64 `json:"load_average_end,omitempty"`
	// RunWallSeconds is the run's wall-clock time and RunCPUSeconds the
	// CPU time (user plus system) its process and the children it waited
	// for spent over it: a CPU time far below the wall time on a busy
	// machine says the run waited for a CPU. Nil where not recorded.
	RunWallSeconds *float64 `json:"run_wall_s,omitempty"`
	RunCPUSeconds  *float64 `json:"run_cpu_s,omitempty"`
}

// Measured returns when the measurement started (Time), and false when
// the file does not record it.
func (e Env) Measured() (time.Time, bool) {
	t, err := time.Parse(time.RFC3339, e.Time)
	return t, err == nil && e.Time != ""
}
