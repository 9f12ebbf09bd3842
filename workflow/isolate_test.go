package workflow

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// held is the isolation group whose operation this process prepared, as
// c-kzg holds the setup of one precompute level per process: an
// operation of another group prepared in the same process fails.
var (
	heldMu sync.Mutex
	held   string
)

// isolatedOp is an operation of isolation group group that runs only in
// a child process, and only where no other group's ran: the workflow must
// time each group in a process of its own. Its result is the vectors'.
func isolatedOp(param, group string) suites.Op {
	return suites.Op{Key: results.Key{Type: vocab.G1, Lib: vocab.Gnark, Repr: vocab.Jacobian, Op: vocab.ToAffine, Batch: 1, Param: results.Param(param)},
		Note: "isolated test operation", Isolate: group, CHeap: true,
		Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
			if !memprof.ChildRequested() {
				return suites.OpHarness{}, errors.New("prepared in the parent process: it must run in a child of its own")
			}
			heldMu.Lock()
			defer heldMu.Unlock()
			if held != "" && held != group {
				return suites.OpHarness{}, fmt.Errorf("this process holds group %s, asked for %s", held, group)
			}
			held = group
			v, err := suites.ValidInputs(in, fixtures.Load)
			if err != nil {
				return suites.OpHarness{}, err
			}
			return suites.OpHarness{Run: func() error { return nil }, Result: func() ([]byte, error) { return v.Ops.ToAffineG1, nil }}, nil
		}}
}

// isolatedRegistry holds two isolation groups, one of two operations.
var isolatedRegistry = sync.OnceValue(func() *suites.Registry {
	r, err := suites.NewRegistry(suites.Suite{Name: "isolated", Ops: []suites.Op{
		isolatedOp("test=a1", "test/a"), isolatedOp("test=a2", "test/a"), isolatedOp("test=b1", "test/b"),
	}})
	if err != nil {
		panic(err)
	}
	return r
})

// TestThroughputIsolated: each isolation group is checked, timed and
// profiled for its allocation sites in child processes of its own (the
// operations fail anywhere else), and a cgo library's operations record
// their C heap per call.
func TestThroughputIsolated(t *testing.T) {
	var rec recorder
	opts := Options{Samples: 2, MinSample: time.Millisecond, Agree: blsAgree(agreeing), Progress: rec.record, Child: childOfThisTest(t, "isolated")}
	rs, err := Throughput(context.Background(), isolatedRegistry(), Selection{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs.Throughput) != 3 {
		t.Fatalf("got %d rows, want 3", len(rs.Throughput))
	}
	_, cheapErr := memprof.CHeapInUse()
	for _, r := range rs.Throughput {
		timed := r.Error == "" && r.Samples == 2 && r.NsPerOpMedian > 0
		if !timed {
			t.Errorf("%s: got error %q, %d samples, median %v; want 2 samples timed in a child", r.Key, r.Error, r.Samples, r.NsPerOpMedian)
		}
		// The operation allocates nothing: profiled, it has no site.
		if r.Sites == nil || len(r.Sites) != 0 || strings.Contains(r.Note, "no allocation sites") {
			t.Errorf("%s: got sites %+v and note %q, want none, profiled in the group's own child", r.Key, r.Sites, r.Note)
		}
		if cheapErr == nil && r.CHeapBytesPerOp == nil {
			t.Errorf("%s: no C heap per op, want one (the C heap can be read here)", r.Key)
		} else if cheapErr != nil && (r.CHeapBytesPerOp != nil || !strings.Contains(r.Note, "no C heap figure")) {
			t.Errorf("%s: got C heap %v and note %q, want none and a note saying why", r.Key, r.CHeapBytesPerOp, r.Note)
		}
	}
	var plan TimingPlan
	for _, e := range rec.events {
		if e.Kind == TimingStarted {
			plan = e.Timing
		}
	}
	if plan.Ops != 3 || plan.Groups != 2 {
		t.Errorf("TimingStarted: got %+v, want 3 operations in 2 groups", plan)
	}
}

// TestThroughputIsolatedChildFails: a group whose child cannot run is a
// row with the error for each of its operations, not a failed workflow.
func TestThroughputIsolatedChildFails(t *testing.T) {
	opts := Options{Samples: 1, MinSample: time.Millisecond, Agree: blsAgree(agreeing), Child: memprof.Child{Path: "/nonexistent/memprof"}}
	rs, err := Throughput(context.Background(), isolatedRegistry(), Selection{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs.Throughput {
		if !strings.Contains(r.Error, "in their own process") || r.Samples != 0 {
			t.Errorf("%s: got error %q, %d samples; want the child's failure", r.Key, r.Error, r.Samples)
		}
	}
}
