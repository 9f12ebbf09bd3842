package memprof

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"runtime"
	"strings"
	"testing"
)

// testTasks are the tasks a child process of this test binary serves.
var testTasks = []Task{
	{Name: "double", Run: func(_ context.Context, in json.RawMessage) (any, error) {
		var v struct{ N int }
		if err := json.Unmarshal(in, &v); err != nil {
			return nil, err
		}
		// The task runs in a child: its process id is not the parent's.
		return map[string]int{"n": 2 * v.N, "pid": os.Getpid()}, nil
	}},
	{Name: "fail", Run: func(context.Context, json.RawMessage) (any, error) {
		return nil, errors.New("the library refused")
	}},
	{Name: "record-sizes", Run: recordSizes},
}

// recordTestObjects is how many objects recordSizes gives a finalizer,
// and as many a cleanup: OtherSys, which grows in 256 KiB chunks, is then
// read to about half a byte per record.
const recordTestObjects = 500_000

// recordSizes returns how much runtime.MemStats.OtherSys grows per
// finalizer and per cleanup on live objects, in a fresh process (where no
// freed record is there to reuse).
func recordSizes(context.Context, json.RawMessage) (any, error) {
	objects := make([]*[2]uint64, 2*recordTestObjects)
	for i := range objects {
		objects[i] = new([2]uint64)
	}
	otherSys := func() float64 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return float64(ms.OtherSys)
	}
	before := otherSys()
	for _, p := range objects[:recordTestObjects] {
		runtime.SetFinalizer(p, func(*[2]uint64) {})
	}
	mid := otherSys()
	for _, p := range objects[recordTestObjects:] {
		runtime.AddCleanup(p, func(int) {}, 0)
	}
	after := otherSys()
	runtime.KeepAlive(objects)
	return map[string]float64{"finalizer": (mid - before) / recordTestObjects, "cleanup": (after - mid) / recordTestObjects}, nil
}

// TestRecordSizes: the sizes the engine counts a finalizer's and a
// cleanup's record at (runtime.specialfinalizer, runtime.specialCleanup)
// are what the runtime takes outside the heap for one, in a fresh
// process: a runtime that changes them fails here.
func TestRecordSizes(t *testing.T) {
	var got struct{ Finalizer, Cleanup float64 }
	if err := RunInChild(context.Background(), Child{Args: []string{"-test.run=^$"}}, "record-sizes", nil, &got); err != nil {
		t.Fatal(err)
	}
	t.Logf("outside the heap: %v B per finalizer, %v B per cleanup", got.Finalizer, got.Cleanup)
	// Two readings, each anywhere within a 256 KiB chunk, over the records.
	tol := 2 * float64(persistentChunk) / recordTestObjects
	if math.Abs(got.Finalizer-finalizerRecordBytes) > tol {
		t.Errorf("a finalizer takes %v B outside the heap, want finalizerRecordBytes %d (to %v)", got.Finalizer, finalizerRecordBytes, tol)
	}
	if math.Abs(got.Cleanup-cleanupRecordBytes) > tol {
		t.Errorf("a cleanup takes %v B outside the heap, want cleanupRecordBytes %d (to %v)", got.Cleanup, cleanupRecordBytes, tol)
	}
}

func TestRunInChild(t *testing.T) {
	var out struct{ N, Pid int }
	if err := RunInChild(context.Background(), Child{Args: []string{"-test.run=^$"}}, "double", struct{ N int }{21}, &out); err != nil {
		t.Fatal(err)
	}
	if out.N != 42 {
		t.Errorf("got %d, want 42", out.N)
	}
	if out.Pid == os.Getpid() || out.Pid == 0 {
		t.Errorf("task ran in process %d, want a child of %d", out.Pid, os.Getpid())
	}
}

func TestRunInChildFails(t *testing.T) {
	tests := []struct {
		task string
		want []string
	}{
		{"fail", []string{"task fail", "the library refused"}},
		{"nosuch", []string{`no task "nosuch" served here`, "double", "fail"}},
	}
	for _, tt := range tests {
		t.Run(tt.task, func(t *testing.T) {
			var out any
			err := RunInChild(context.Background(), Child{Args: []string{"-test.run=^$"}}, tt.task, nil, &out)
			if err == nil {
				t.Fatal("got no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("got %q, want it to contain %q", err, w)
				}
			}
		})
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cause := errors.New("stopped")
	cancel(cause)
	var out any
	if err := RunInChild(ctx, Child{Args: []string{"-test.run=^$"}}, "double", nil, &out); !errors.Is(err, cause) {
		t.Errorf("cancelled: got %v, want an error wrapping %q", err, cause)
	}
}
