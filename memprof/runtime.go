package memprof

import "github.com/memprof/memprof/measure"

// Every assumption the engine makes about the Go runtime it runs on is
// here, each with a test (runtime_test.go, unless named) that derives it
// from the running runtime, by measuring or from the runtime's own
// source, so that a Go release that changes one fails a test instead of a
// figure:
//
//	runtimePage          TestRuntimePage: a large object's heap growth
//	persistentChunk      TestPersistentChunk: runtime.persistentChunkSize
//	spareThreads         TestThreadsStartedBeforeReading (threads_test.go)
//	finalizerRecordBytes TestRecordSizes: OtherSys's growth per record
//	weakHandleRecordBytes TestRecordSizes: GCSys's growth per weak.Make
//	weakHandleFrame      TestWeakHandleFrame: handles below it per weak.Make
//	liveSlackBytes       TestLiveTolerance (extend_test.go), and every
//	                     measuring test whose sites account for a build
//	growthExactRates     TestGrowthExactRates: the runtime's sampling draw
//	runtimeRecordFrames  TestRuntimeRecordFrames: records below each frame
//	runtimeGrownFrames   TestRuntimeGrownFrames: an array replaced, one
//	                     freed unrecorded for each grown
//	hashSeededFrames     TestHashSeededFrames: a map's and unique's
//	                     growth below them

// runtimePage is the runtime's page size (runtime.pageSize), the unit in
// which it allocates spans. The scan figure's resolution allows one page
// of the runtime's own small objects (sudogs, timers, the scheduler's and
// the collector's records), which come and go between readings. The
// results reader bounds the scan resolution by the same constant.
const runtimePage = measure.RuntimePageBytes

// persistentChunk is the size of the chunks in which the runtime maps its
// off-heap memory (runtime.persistentChunkSize); the results reader
// bounds the off-heap and RSS resolutions by the same constant.
const persistentChunk = measure.OffheapChunkBytes

// spareThreads is how many OS threads beyond GOMAXPROCS a build may keep
// busy at once and still charge nothing for them (startThreads): a build
// whose goroutine sits in a long cgo call (sysmon hands its P to another
// thread) while the collector's workers run on the others.
const spareThreads = 2

// The runtime keeps a record outside the heap for every finalizer
// (runtime.SetFinalizer) and every cleanup (runtime.AddCleanup) of a live
// object: runtime.specialfinalizer and runtime.specialCleanup
// (runtime/mheap.go, Go 1.26: a 24-byte special header and 32 bytes of
// the function and its argument's description), from fixed-size
// allocators counted in runtime.MemStats.OtherSys. TestRecordSizes checks
// them against OtherSys's growth in a fresh process.
const (
	finalizerRecordBytes = 56
	cleanupRecordBytes   = 56
)

// The runtime keeps a record outside the heap for every object a weak
// pointer was made to (weak.Make, and unique.Make's map): a
// runtime.specialWeakHandle (runtime/mheap.go, Go 1.26: the 24-byte
// special header and the handle's address) from a fixed-size allocator
// counted in runtime.MemStats.GCSys, beside the 16-byte handle it
// allocates on the heap below weakHandleFrame. The engine counts the
// handles in the heap profile's records and each's record at this size.
const weakHandleRecordBytes = 32

// At runtime.MemProfileRate 1 the runtime keeps a record outside the heap
// for every allocated object until it is collected: a
// runtime.specialprofile (runtime/mheap.go, Go 1.26: the 24-byte special
// header and its bucket's address) from a fixed-size allocator counted in
// runtime.MemStats.OtherSys. With the collector off (the profiled pass)
// a constructor's garbage keeps its records too. TestRecordSizes checks
// it.
const ProfileRecordBytes = 32

// weakHandleFrame is the runtime function below which it allocates a weak
// pointer's handle on the heap, one per object with a weak pointer, and
// the record beside it outside the heap.
const weakHandleFrame = "runtime.getOrAddWeakHandle"

// A build's live heap counts, besides what its instances keep, records
// the runtime allocates and frees for itself meanwhile that the records
// of the heap profile do not show (a wait record taken from or returned
// to its central cache, which every collection empties, allocated while
// profiling was off): sites that account for a build's live heap to
// within liveSlackBytes and liveSlackObjects account for it (a goroutine's
// descriptor takes 480 B, a wait record 112 B). Across the
// footprint pass, which does not profile every allocation, the runtime
// also keeps the records of each thread it starts (7 objects, 5.5 KiB in
// Go 1.26, when a cgo call or a collection wakes one): one runtime page
// more for each.
const (
	liveSlackBytes   = measure.LiveSlackBytes
	liveSlackObjects = 64
)

// growthExactRates is the size, in sampling rates, from which an object
// is sampled with certainty: the runtime samples every allocation larger
// than about 18 times the rate (its sampling distance is drawn below
// that), and a sample of 40 rates or more is scaled by exactly 1
// (1/(1-exp(-40)) is 1 in float64). A growing site whose objects at N are
// all that large (a slice grown by append: one large backing array) is
// exact from the sampled profile.
const growthExactRates = 40

// runtimeRecordFrames are the runtime functions below which the runtime
// allocates its own records, kept for the process however many instances
// there are, and never the instances': the wait record (a sudog) of a
// blocked channel operation, select, semaphore or condition variable
// (acquireSudog), a goroutine's descriptor and the list of them
// (newproc1, malg, allgadd), a thread's (allocm, mcommoninit), a deferred
// call's record (newdefer), a goroutine's sleep timer (timeSleep, which
// the symbol table names time.Sleep), and the cache of a type assertion's
// or type switch's call site (buildTypeAssertCache,
// buildInterfaceSwitchCache): the runtime builds it on a random one in
// about 1,024 misses, keeps it for the process, and it holds one entry
// per concrete type, never one per instance, so however long the warm-up
// one build may be the one that makes it.
var runtimeRecordFrames = []string{
	"runtime.acquireSudog",
	"runtime.newproc1", "runtime.malg", "runtime.allgadd",
	"runtime.allocm", "runtime.mcommoninit",
	"runtime.newdefer",
	"time.Sleep",
	"runtime.buildTypeAssertCache", "runtime.buildInterfaceSwitchCache",
}

// runtimeGrownFrames are those of runtimeRecordFrames below which the
// runtime grows an array of its own by replacing it: the list of every
// goroutine (allgs, grown by append in allgadd, never shrunk). The array
// a build replaces may have been allocated while profiling was off (the
// warm-up's goroutines grew it), so that the heap profile never recorded
// it and does not see it freed: the live heap then falls short of what
// the records explain by up to the array that replaced it, one object,
// and that shortfall is the runtime's, not the instances'
// (recogniseGrownFree).
var runtimeGrownFrames = []string{"runtime.allgadd"}

// hashSeededFrames are the prefixes of the functions below which the
// runtime and the standard library grow structures whose layout follows
// a hash seed: a map's groups and tables (internal/runtime/maps), the
// nodes of unique's map (unique's canonMap), sync.Map's trie
// (internal/sync's HashTrieMap). How many tables or nodes N entries take
// depends on their hashes: a site that grows in steps below one of them
// is measured over several builds (spreadBuilds).
var hashSeededFrames = []string{"internal/runtime/maps.", "unique.", "internal/sync."}
