package memprof

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"time"
)

// A constructor may start goroutines that outlive it (a server's loop, a
// worker each instance keeps): each starts runnable and, once it runs,
// grows its stack and blocks, the runtime allocating its wait record (a
// sudog) then. On a busy machine many are still runnable when the build
// returns, and a collection does not run them (the goroutine that asked
// for it is woken first), so they would grow their stacks and allocate
// their records during the readings that follow (between a live-heap
// reading and a snapshot of the heap profile's records, or into the next
// set's build), or the goroutines an earlier pass's finalizers released
// would exit then, freeing their stacks. letGoroutinesRun yields until
// none is runnable, so that a reading sees them settled.
//
// A goroutine already taken by another P is running, not runnable: it
// waits for the others running to stop too (another P's goroutine of
// the build) for settleRunning, and for no goroutine to be runnable
// (some other goroutine of the process may keep itself so) for at most
// maxSettle.
const (
	settleRunning = 10 * time.Millisecond
	maxSettle     = time.Second
)

// schedReader reads the scheduler's counts of runnable and running
// goroutines into samples allocated once (a reading allocates nothing:
// the engine reads them between readings of the heap); mu guards them.
var schedReader = struct {
	mu      sync.Mutex
	samples [2]metrics.Sample
}{samples: [2]metrics.Sample{
	{Name: "/sched/goroutines/runnable:goroutines"},
	{Name: "/sched/goroutines/running:goroutines"},
}}

// schedCounts returns how many goroutines are runnable and running now
// (the caller is one of those running); ok is false when this runtime
// has no such metrics.
func schedCounts() (runnable, running uint64, ok bool) {
	r := &schedReader
	r.mu.Lock()
	defer r.mu.Unlock()
	metrics.Read(r.samples[:])
	if r.samples[0].Value.Kind() != metrics.KindUint64 || r.samples[1].Value.Kind() != metrics.KindUint64 {
		return 0, 0, false
	}
	return r.samples[0].Value.Uint64(), r.samples[1].Value.Uint64(), true
}

// letGoroutinesRun yields the processor until no goroutine is runnable
// and no other is running (see settleRunning and maxSettle). It
// allocates nothing.
func letGoroutinesRun() {
	start := time.Now()
	for {
		runnable, running, ok := schedCounts()
		if !ok {
			return
		}
		waited := time.Since(start)
		if runnable == 0 && (running <= 1 || waited > settleRunning) || waited > maxSettle {
			return
		}
		runtime.Gosched()
	}
}
