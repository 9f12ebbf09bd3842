package memprof

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/memprof/memprof/measure"
)

// setupCtx is a stand-in for a library's context: one object with a
// pointer-free table of known size beside it.
type setupCtx struct {
	level int
	table *[1500]uint64
}

func TestMeasureOne(t *testing.T) {
	const pause = 20 * time.Millisecond
	var built atomic.Int32
	c := Case{Name: "one", NewOne: func() any {
		built.Add(1)
		time.Sleep(pause) // the build takes at least this long
		return &setupCtx{level: 6, table: new([1500]uint64)}
	}}
	if got := c.Layout(); got != measure.Single {
		t.Errorf("Layout: got %s, want %s", got, measure.Single)
	}
	r, err := Measure(c)
	if err != nil {
		t.Fatal(err)
	}
	// No warm-up: one build per pass, footprint and profile.
	if got := built.Load(); got != 2 {
		t.Errorf("NewOne called %d times, want 2 (one per pass, no warm-up)", got)
	}
	if r.N != 1 {
		t.Errorf("N: got %d, want 1", r.N)
	}
	want := sizeClass(t, unsafe.Sizeof(setupCtx{})) + sizeClass(t, unsafe.Sizeof([1500]uint64{}))
	if r.BytesPerInstance != want {
		t.Errorf("bytes: got %v, want %v (the context and its table, each in its size class)", r.BytesPerInstance, want)
	}
	if r.AllocsPerInstance != 2 {
		t.Errorf("allocs: got %v, want 2", r.AllocsPerInstance)
	}
	if r.SlotBytes != sizeClass(t, unsafe.Sizeof([1500]uint64{})) {
		t.Errorf("slot: got %v, want the table's %v (the largest object)", r.SlotBytes, sizeClass(t, unsafe.Sizeof([1500]uint64{})))
	}
	if r.SizeofBytes != int64(unsafe.Sizeof(setupCtx{})) {
		t.Errorf("sizeof: got %d, want %d (the pointee of what NewOne returns)", r.SizeofBytes, unsafe.Sizeof(setupCtx{}))
	}
	if r.BuildNs < float64(pause.Nanoseconds()) {
		t.Errorf("build time: got %v ns, want at least the %v the build sleeps", r.BuildNs, pause)
	}
	if r.HolderBytesPerInstance != 0 {
		t.Errorf("holder: got %v, want 0 (no holder for one object)", r.HolderBytesPerInstance)
	}
}

func TestMeasureOneRefuses(t *testing.T) {
	one := func() any { return new(setupCtx) }
	tests := []struct {
		name string
		c    Case
		opts []Option
		want string
	}{
		{"N other than 1", Case{Name: "one", NewOne: one}, []Option{N(5)}, "N must be 1, got 5"},
		{"NewOne and New", Case{Name: "one", NewOne: one, New: func(int) any { return new(int) }}, nil, "exactly one of New, NewSlice, NewAll and NewOne"},
		{"nil", Case{Name: "one", NewOne: func() any { return nil }}, nil, "NewOne(1) returned nil"},
		{"panics", Case{Name: "one", NewOne: func() any { panic("setup already loaded") }}, nil, "panicked: setup already loaded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Measure(tt.c, tt.opts...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error %v, want one containing %q", err, tt.want)
			}
		})
	}
	if _, err := Measure(Case{Name: "one", NewOne: one}, N(1)); err != nil {
		t.Errorf("N(1): got error %v, want none", err)
	}
}
