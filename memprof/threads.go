package memprof

import (
	"runtime"
	"sync"
)

// startThreads makes the runtime start the OS threads a build may need
// before the footprint pass's first reading, so that a thread started
// during the build does not charge the C heap what glibc allocates for it
// (its TLS vector and more, some KiB per thread) and the
// off-heap figure its runtime structures: neither is the instances'. A
// case of one object (c-kzg's context, built for seconds in C) has no
// warm-up to do it.
//
// How many threads the runtime starts for n goroutines locked at once is
// not fixed (a locked goroutine that blocks hands its P to another thread,
// idle threads may be spinning): it locks twice as many goroutines as a
// build may lock at once (TestThreadsStartedBeforeReading: with one more
// than that, a loaded machine still started a thread in the build).
func startThreads() {
	lockThreads(2 * (runtime.GOMAXPROCS(0) + spareThreads))
}

// lockThreads has n goroutines locked to OS threads at the same time,
// then returns, leaving the threads idle for the runtime to reuse: the
// runtime must have n threads, and starts those it lacks.
func lockThreads(n int) {
	var locked, done sync.WaitGroup
	release := make(chan struct{})
	locked.Add(n)
	done.Add(n)
	for range n {
		go func() {
			defer done.Done()
			runtime.LockOSThread()
			// Unlocked before the goroutine returns, the thread is kept
			// for reuse (a goroutine that exits locked takes its thread).
			defer runtime.UnlockOSThread()
			locked.Done()
			<-release
		}()
	}
	locked.Wait()
	close(release)
	done.Wait()
}
