// Package memprof is the measuring engine: it measures exactly how much
// memory one instance of a type keeps alive, the way a real program makes
// it, and how long operations take. It knows nothing of what it measures:
// a Case is a name and a constructor, a result is numbers (Result, an
// alias of measure.Measurement). The memprof command's built-in cases and
// users' own tests use the same engine:
//
//	func TestMyPubKeySize(t *testing.T) {
//		c := memprof.Case{Name: "MyPubKey", New: func(i int) any {
//			return mypkg.FromBytes(vectors[i%len(vectors)])
//		}}
//		r := memprof.MeasureInstances(t, c, memprof.N(100_000))
//		if r.BytesPerInstance > 120 {
//			t.Fatalf("MyPubKey keeps %.2f B per instance, budget 120", r.BytesPerInstance)
//		}
//	}
//
//	func BenchmarkMyPubKey(b *testing.B) {
//		c := memprof.Case{Name: "MyPubKey", New: func(i int) any {
//			return mypkg.FromBytes(vectors[i%len(vectors)])
//		}}
//		memprof.ReportInstances(b, c) // B/instance and allocs/instance beside ns/op, for benchstat
//	}
//
// Measure (MeasureInstances in a test, ReportInstances in a benchmark)
// measures in this process; MeasureInChild in a fresh child process. The
// options are N (instances, default DefaultN), Warmup and KeepProfile.
//
// # What is measured
//
// Method returns the method as the tool prints it (memprof help method,
// the review, every results file), built from this package's constants;
// what follows is how the code carries it out.
//
// A Case makes its instances in one of three layouts (Case.Layout): New
// makes instance i, each its own object, kept alive by the engine's
// holder, a []any of N (pointer layout); NewSlice makes all N in one
// slice (slice layout); NewAll makes a structure holding N, a map or a
// cache (collection layout). The figures are per instance.
// BytesPerInstance and AllocsPerInstance are what N instances keep on the
// Go heap, as measure.BytesPerInstanceDefinition says: what their builds
// added to the heap, read from the heap profile's records at
// runtime.MemProfileRate 1 (runtime.MemProfile, which keeps the runtime's
// own frames) as the difference of a snapshot after a collection before
// the build and one after, so exact. In a process of its own
// (MeasureInChild, ServeChild) every object a build added counts, on
// whatever goroutine it was allocated (a worker the constructor hands its
// work to); in a process shared with other code (Measure in a user's
// test) only those allocated below the engine's constructor frame are
// attributed to a site, and what else the live heap of the build holds
// is the (unattributed) site (measure.UnattributedSite), reported, not
// hidden. Either way the runtime's own records (a blocked channel
// operation's wait record, a goroutine's descriptor: runtimeRecordFrames)
// are left out, and the holder is counted apart
// (HolderBytesPerInstance). Sites splits the figures by allocation site,
// with the allocator's slot sizes. The profile is of a few thousand
// instances, its sites extended to N with the live heap of all N and a
// heap profile sampling a few thousand of their allocations, which the
// footprint pass reads (see Passes; AttributedN says from how many
// instances the sites come, HeapResolution how far the figure can be from
// the truth: 0, exact, but where a site that grows in steps takes the
// rest of the live heap). Around them, from the runtime's and the
// system's own readings: the HeapAlloc delta (a cross-check), runtime
// memory outside the heap (the instances' finalizer and cleanup records,
// counted by the runtime's metrics when the instances are dropped, times
// the record's size) and the heap's metadata, the goroutine stacks the
// instances keep running (StackBytesPerInstance), the C heap (glibc's
// mallinfo2, with cgo), the resident set, and what none of these
// explains, each with its resolution where the reading is coarse. And the
// collector's share: the heap bytes it scans per instance on every cycle
// (ScanBytesPerInstance, from runtime/metrics), the CPU time the
// process's threads spend in a collection per instance
// (GCCPUNsPerInstance, from the operating system's accounting), and the
// runtime's estimate of its mark workers' time (GCMarkNsPerInstance,
// which a busy machine inflates), each with quartiles and one sample per
// cycle, all holder excluded and with their resolutions.
//
// # Passes
//
// Measure holds a process-wide lock (the heap profile and
// MemProfileRate are process-wide), turns profiling off, and then:
//
//  1. Prepare runs once, with profiling off: what it allocates (input
//     vectors) is not attributed to the instances.
//  2. Warm-up: instances are made and dropped (Warmup; by default up to
//     autoWarmup instances or autoWarmupTime), so one-time lazy set-up is
//     not charged to them; New
//     is checked to return a new, non-nil object each time.
//  3. CheckMemory refuses an N whose estimate exceeds the memory this
//     machine has available.
//  4. Footprint pass, the collector on, all N instances, profiling off
//     or (when sites are to be extended to N) sampling a few thousand of
//     their allocations: the memory readings before and after the N
//     instances are built and the construction's garbage is collected,
//     and the finalizers and cleanups queued when they are dropped; between
//     them the engine allocates nothing of its own (the readings and the
//     GC samples use memory allocated beforehand, the resident set is
//     read from /proc/self/statm kept open), so the live
//     heap's growth from once the holder is allocated (HeapAlloc and
//     HeapObjects) is what the N instances keep, to within the runtime's
//     own records (one runtime page). Around them, the GC pass
//     (gc.go): MarkCycles forced collections with the instances live, and
//     as many with the holder alone (N nil entries for the pointer
//     layout, nothing for the others), holderCyclesBefore before the
//     instances are built and the rest once they are dropped and collected; a map-backed
//     collection is built CollectionBuilds times, each with fresh hash
//     seeds, the live cycles shared among the builds. Each is read
//     right after runtime.GC returns: /gc/scan/heap:bytes, the scan work
//     of that cycle, the CPU time of all the process's threads across it
//     (clock_gettime(CLOCK_PROCESS_CPUTIME_ID) on Linux, getrusage on
//     other Unix systems: mark, sweep and the stop-the-world phases), and
//     the cycle's share of
//     /cpu/classes/gc/mark/{dedicated,idle,assist}:cpu-seconds. The scan
//     bytes are the live median minus the holder's over N; each CPU and
//     mark sample is a live cycle minus the holder's median, over N. The
//     collections run at GOMAXPROCS 1 (cycleProcs: no idle mark worker
//     spins), and a negative CPU median is withheld (GCCPUUnavailable).
//     Nothing else runs in a child of MeasureInChild meanwhile; in a
//     test process other goroutines' CPU counts too.
//  5. Profile pass, MemProfileRate 1, with the collector paused (so
//     that the heap settles where the footprint pass's does) and on a
//     goroutine of its own (the profiler walks every frame of every
//     allocation's stack: a shallow one costs a third as much): 2,048
//     instances below the engine's constructor frame, then 512 below a
//     twin frame, in one holder of N entries (attributionPlan); all N when
//     N is at most 2,560, for the slice layout (its one backing array's
//     slot at N is known from N only) and for one object. When its sites
//     are to be extended to N, this pass comes before the footprint pass.
//     Finalizers and cleanups an earlier pass queued are run first (their
//     objects are freed before the pass, not during it). Around each set,
//     after two GC cycles that settle the heap, a snapshot of the heap
//     profile's records and a reading of the live heap (records.go); with
//     KeepProfile, the heap profile is written while the instances are
//     alive.
//  6. Attribution: what each set's build added to the records, by site
//     (account), the runtime's records and the holder's apart, and the
//     part of the set's live heap no site explains, beyond the runtime's
//     own churn, as the (unattributed) site. Sites of 2,048 instances are
//     extended to N (extend.go): a site of the same bytes and objects per
//     instance in both sets costs that in every instance; one of the same
//     bytes and objects in both is allocated once (a map's header); a
//     growing site whose objects at N are all large (a slice's backing
//     array) is exact from the footprint pass's sampled profile; the one
//     site that grows otherwise (a map's tables) takes what the N
//     instances keep beyond the others. The footprint pass samples the N
//     instances' allocations (about footprintSamples of them), and every
//     extended site must be what that profile says it holds at N, to four
//     standard deviations of its estimate; a site the profile shows that
//     the profiled instances do not have (objects only later instances
//     allocate) is profiled at N. Without a site to take the rest the
//     extended sites must account for the live heap of the N instances to
//     within the runtime's own churn (liveTolerance), and their figures
//     are then exactly those of a profile of all N; with one, the live
//     heap of all N is the figure, to that tolerance (HeapResolution). The
//     sites add up to the figures. Otherwise all N instances are profiled
//     as in step 5, the live heap read across the same build, and
//     Result.AttributionFallback says why. Result.AttributedN is how many
//     instances the sites come from.
//
// MemProfileRate is restored when Measure returns.
//
// # Memory
//
// The instances are released before Measure returns: the Result retains
// nothing of them, nor of the profile; it owns its Sites. Measure keeps
// nothing between calls; ReportInstances keeps one Result per benchmark
// name for the life of the process, as the testing package runs a
// benchmark several times. A writer given with KeepProfile receives the
// heap profile of the pass the sites were read from (gzip-compressed
// protobuf, for go tool pprof: of the profiled pass's instances, or of
// all N) once and is not retained. In a process shared with other code,
// a test binary included, only objects below the engine's constructor
// frame are attributed to sites, and the rest of the live heap is the
// (unattributed) site; a child process (MeasureInChild) has the process
// to itself and attributes every object its builds add, on any
// goroutine, and gives the whole-footprint readings a clean heap.
//
// # Child processes
//
// MeasureInChild starts a fresh copy of a program (Child: the
// executable, by default this one, its arguments and extra environment)
// with ChildEnv set to a JSON request: a task, its input and where to
// write its result. Measuring a case is the task every child serves (its
// input the case's name, N, the warm-up and where to keep the profile);
// RunInChild and OpSitesInChild run the program's own tasks through the
// same request. The program checks ChildRequested first thing (in main,
// or in a test binary's TestMain) and calls ServeChild with a lookup from
// names to cases and its tasks; ServeChild runs the task asked for (a
// case, with Measure) and writes its result as JSON, atomically, where
// the parent reads it. The name is the only identity that crosses the
// process boundary: the parent and the child must resolve it to the same
// case (the memprof command passes results.Key.BenchName, a stable name). A
// crash, an out-of-memory kill or an error in the child is the parent's
// error, with the end of the child's output (MaxChildStderr); when the
// context is done, the child is killed and its temporary files removed.
//
// # Time and scale
//
// MeasureThroughput times groups of ThroughputCase, sampling the cases
// of a group alternately so that a noisy machine's drift hits them
// alike, and returns one Timed per case (ThroughputMethod says how).
// stats.FitSweep fits the bytes measured at several N to a line, with a
// confidence interval on the slope. CurrentEnv describes the process and
// machine, and the versions of the modules its caller names.
package memprof
