package memprof

import (
	"context"
	"testing"
)

// TestThreadsStartedBeforeReading: a build that needs the runtime's
// threads (here a case of one object, which has no warm-up) charges
// nothing to the C heap, in a fresh child process: the engine starts
// them before its first reading, and a thread started during the build
// would add glibc's allocations for it.
func TestThreadsStartedBeforeReading(t *testing.T) {
	if _, err := CHeapInUse(); err != nil {
		t.Skip(err)
	}
	r, err := MeasureInChild(context.Background(), Child{Args: []string{"-test.run=^$"}}, "threads", "", N(1))
	if err != nil {
		t.Fatal(err)
	}
	if r.CHeapBytesPerInstance == nil {
		t.Fatalf("no C heap figure: %s", r.CHeapUnavailable)
	}
	if got := *r.CHeapBytesPerInstance; got != 0 {
		t.Errorf("C heap per instance: got %v B, want 0 (threads started during the build)", got)
	}
}
