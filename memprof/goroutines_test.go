package memprof

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// TestLetGoroutinesRun: goroutines a build started and left runnable
// (on one P, none runs until the builder yields) have all run to their
// wait once letGoroutinesRun returns, and none is left runnable.
func TestLetGoroutinesRun(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	const k = 1000
	var started atomic.Int64
	stop := make(chan struct{})
	defer close(stop)
	for range k {
		go func() {
			started.Add(1)
			<-stop
		}()
	}
	pending := k - started.Load()
	letGoroutinesRun()
	if got := started.Load(); got != k {
		t.Errorf("%d of %d goroutines had run (%d pending before), want all", got, k, pending)
	}
	runnable, _, ok := schedCounts()
	if !ok {
		t.Fatalf("this runtime (%s) has no scheduler metrics", runtime.Version())
	}
	if runnable != 0 {
		t.Errorf("%d goroutines runnable after letGoroutinesRun, want 0", runnable)
	}
}
