package memprof

import (
	"context"
	"fmt"
	"math"
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/memprof/memprof/internal/childtest"
	"github.com/memprof/memprof/measure"
)

// testCases are the cases a child process of this test binary can measure.
var testCases = map[string]Case{
	"forty": {Name: "forty", New: func(i int) any { return &forty{a: uint64(i)} }},
	"finalized": {Name: "finalized", New: func(i int) any {
		p := &forty{a: uint64(i)}
		runtime.SetFinalizer(p, func(*forty) {})
		return p
	}},
	"crash": {Name: "crash", Prepare: func(int) error {
		fmt.Fprintln(os.Stderr, "boom: the constructor's library aborted")
		os.Exit(7)
		return nil
	}, New: func(i int) any { return new(forty) }},
	// One object whose build runs on as many OS threads at once as the
	// engine starts beforehand (startThreads).
	"threads": {Name: "threads", NewOne: func() any {
		lockThreads(runtime.GOMAXPROCS(0) + spareThreads)
		return new(forty)
	}},
}

func TestMain(m *testing.M) {
	childtest.Main(m, "", ChildRequested, func() error {
		return ServeChild(func(name string) (Case, error) {
			c, ok := testCases[name]
			if !ok && childLookup != nil {
				return childLookup(name)
			}
			if !ok {
				return Case{}, fmt.Errorf("no test case %q", name)
			}
			return c, nil
		}, append(append(testTasks, OpSitesTask(testOpSitesTask, lookupTestOp)), childTasks...)...)
	})
}

type forty struct{ a, b, c, d, e uint64 }

type twoPart struct {
	head [24]byte
	tail *[100]byte
}

// sizeClass returns the slot the runtime's allocator uses for a small
// object of size n, from the size-class table runtime.MemStats publishes.
func sizeClass(t *testing.T, n uintptr) float64 {
	t.Helper()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	for _, c := range ms.BySize {
		if c.Size > 0 && uintptr(c.Size) >= n {
			return float64(c.Size)
		}
	}
	t.Fatalf("no size class holds %d bytes", n)
	return 0
}

func TestMeasureKnownSizes(t *testing.T) {
	tests := []struct {
		name   string
		sizeof uintptr
		new    func(i int) any
	}{
		{"struct40", unsafe.Sizeof(forty{}), func(i int) any { return &forty{a: uint64(i)} }},
		{"array192", unsafe.Sizeof([192]byte{}), func(i int) any { p := new([192]byte); p[0] = byte(i); return p }},
		{"array100", unsafe.Sizeof([100]byte{}), func(i int) any { p := new([100]byte); p[0] = byte(i); return p }},
		{"value48boxed", unsafe.Sizeof([48]byte{}), func(i int) any { var v [48]byte; v[0] = byte(i); v[1] = 1; return v }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Measure(Case{Name: tt.name, New: tt.new}, N(5000))
			if err != nil {
				t.Fatal(err)
			}
			want := sizeClass(t, tt.sizeof)
			if r.SizeofBytes != int64(tt.sizeof) {
				t.Errorf("sizeof: got %d, want %d", r.SizeofBytes, tt.sizeof)
			}
			if r.SlotBytes != want {
				t.Errorf("slot: got %v, want size class %v", r.SlotBytes, want)
			}
			if r.BytesPerInstance != want {
				t.Errorf("bytes per instance: got %v, want %v", r.BytesPerInstance, want)
			}
			if r.AllocsPerInstance != 1 {
				t.Errorf("allocs per instance: got %v, want 1", r.AllocsPerInstance)
			}
			if len(r.Sites) != 1 || !strings.Contains(r.Sites[0].Function, "TestMeasureKnownSizes") {
				t.Errorf("sites: got %+v, want one site in this test", r.Sites)
			}
		})
	}
}

func TestMeasureIndependentOfN(t *testing.T) {
	c := Case{Name: "forty", New: func(i int) any { return &forty{a: uint64(i)} }}
	var got []float64
	for _, n := range []int{1_000, 10_000, 100_000} {
		r, err := Measure(c, N(n))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r.BytesPerInstance)
	}
	for i := 1; i < len(got); i++ {
		if math.Abs(got[i]-got[0]) > 0.01 {
			t.Errorf("bytes per instance depends on N: %v", got)
		}
	}
}

func TestMeasureHolderIsSeparate(t *testing.T) {
	const n = 10_000
	r, err := Measure(Case{Name: "forty", New: func(i int) any { return &forty{a: uint64(i)} }}, N(n))
	if err != nil {
		t.Fatal(err)
	}
	// The holder is one []any of n interface values; a large object is
	// rounded up to whole pages.
	min := float64(n) * float64(unsafe.Sizeof(any(nil))) / n
	page := float64(os.Getpagesize())
	if r.HolderBytesPerInstance < min || r.HolderBytesPerInstance > min+2*page/n {
		t.Errorf("holder per instance: got %v, want %v plus at most two pages over N", r.HolderBytesPerInstance, min)
	}
	if r.BytesPerInstance != sizeClass(t, unsafe.Sizeof(forty{})) {
		t.Errorf("bytes per instance %v includes the holder", r.BytesPerInstance)
	}
	// The HeapAlloc cross-check (holder excluded) agrees within a little
	// runtime noise.
	if math.Abs(r.HeapAllocBytesPerInstance-r.BytesPerInstance) > 1 {
		t.Errorf("HeapAlloc delta per instance %v disagrees with profile %v", r.HeapAllocBytesPerInstance, r.BytesPerInstance)
	}
}

func TestMeasureTwoSites(t *testing.T) {
	r, err := Measure(Case{Name: "two", New: func(i int) any {
		tail := new([100]byte)
		p := &twoPart{tail: tail}
		p.head[0] = byte(i)
		return p
	}}, N(4000))
	if err != nil {
		t.Fatal(err)
	}
	want := sizeClass(t, unsafe.Sizeof(twoPart{})) + sizeClass(t, 100)
	if r.AllocsPerInstance != 2 {
		t.Errorf("allocs per instance: got %v, want 2", r.AllocsPerInstance)
	}
	if r.BytesPerInstance != want {
		t.Errorf("bytes per instance: got %v, want %v", r.BytesPerInstance, want)
	}
	if len(r.Sites) != 2 {
		t.Fatalf("sites: got %d (%+v), want 2", len(r.Sites), r.Sites)
	}
	var sum float64
	for _, s := range r.Sites {
		sum += s.BytesPerInstance
		if s.AllocsPerInstance != 1 {
			t.Errorf("site %s line %d: allocs per instance %v, want 1", s.Function, s.Line, s.AllocsPerInstance)
		}
	}
	if sum != r.BytesPerInstance {
		t.Errorf("sites sum to %v, want %v", sum, r.BytesPerInstance)
	}
}

func TestMeasureSliceLayout(t *testing.T) {
	const n = 3000
	c := Case{Name: "slice", NewSlice: func(n int) any { return make([]forty, n) }}
	r, err := Measure(c, N(n))
	if err != nil {
		t.Fatal(err)
	}
	size := float64(unsafe.Sizeof(forty{}))
	if c.Layout() != measure.Slice || r.SizeofBytes != int64(size) {
		t.Errorf("got layout %s sizeof %d, want slice %v", c.Layout(), r.SizeofBytes, size)
	}
	// One backing array rounded to whole pages, plus the slice header the
	// returned interface boxes.
	page := float64(os.Getpagesize())
	if r.BytesPerInstance < size || r.BytesPerInstance > size+(page+64)/n {
		t.Errorf("bytes per instance: got %v, want %v plus at most a page over N", r.BytesPerInstance, size)
	}
	if r.AllocsPerInstance*n > 2 {
		t.Errorf("allocs: got %v in all, want at most 2 (array and header)", r.AllocsPerInstance*n)
	}
}

func TestMeasureBadCases(t *testing.T) {
	shared := &forty{}
	tests := []struct {
		name string
		c    Case
		want string
	}{
		{"nil", Case{Name: "NilKey", New: func(i int) any { return nil }}, "case NilKey: New(0) returned nil"},
		{"typed nil", Case{Name: "TypedNil", New: func(i int) any { return (*forty)(nil) }}, "case TypedNil: New(0) returned nil"},
		{"panic", Case{Name: "Panicky", New: func(i int) any {
			if i == 3 {
				panic("bad vector")
			}
			return new(forty)
		}}, "case Panicky: New(3) panicked: bad vector"},
		{"same pointer", Case{Name: "Shared", New: func(i int) any { return shared }}, "case Shared: New returned the same object for instances 0 and 1"},
		{"no constructor", Case{Name: "Empty"}, "case Empty: exactly one of New, NewSlice, NewAll and NewOne must be set"},
		{"zero N", Case{Name: "Zero", New: func(i int) any { return new(forty) }}, "N must be positive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := []Option{N(100)}
			if tt.name == "zero N" {
				opts = []Option{N(0)}
			}
			_, err := Measure(tt.c, opts...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestMeasureRefusesHugeN(t *testing.T) {
	_, err := Measure(Case{Name: "huge", New: func(i int) any { return new([4096]byte) }}, N(math.MaxInt32))
	want := regexp.MustCompile(`^case huge: refusing N=2147483647: estimated [0-9.]+([KMGTPE]i)?B for the instances exceeds the [0-9.]+([KMGTPE]i)?B of memory available$`)
	if err == nil || !want.MatchString(err.Error()) {
		t.Fatalf("got %v, want a refusal naming the estimate and the memory available (matching %s)", err, want)
	}
}

func TestMeasureInChild(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	child := Child{Args: []string{"-test.run=^$"}}
	ctx := context.Background()
	// Exact at any N: the bytes are the slot, the off-heap figure counts
	// records (none, or one finalizer's per instance) with resolution 0.
	// 200,000 until the off-heap figure was read from the runtime's chunk
	// statistics, which needed a large N.
	const n = 10_000
	r, err := MeasureInChild(ctx, child, "forty", "", N(n))
	if err != nil {
		t.Fatal(err)
	}
	if want := sizeClass(t, unsafe.Sizeof(forty{})); r.BytesPerInstance != want {
		t.Errorf("child: bytes per instance %v, want %v", r.BytesPerInstance, want)
	}
	// The off-heap figure counts finalizer and cleanup records: a plain
	// struct has none.
	if r.OffheapBytesPerInstance != 0 || r.OffheapResolution != 0 {
		t.Errorf("plain struct: off-heap per instance %v (resolution %v), want 0, exactly", r.OffheapBytesPerInstance, r.OffheapResolution)
	}
	// A finalizer's record lives outside the heap: it shows off-heap, not
	// in the heap figure, at its size.
	f, err := MeasureInChild(ctx, child, "finalized", "", N(n))
	if err != nil {
		t.Fatal(err)
	}
	if f.BytesPerInstance != r.BytesPerInstance {
		t.Errorf("finalized: heap bytes %v, want %v as without the finalizer", f.BytesPerInstance, r.BytesPerInstance)
	}
	if f.OffheapBytesPerInstance != finalizerRecordBytes {
		t.Errorf("finalized: off-heap per instance %v, want one finalizer record (%d B)", f.OffheapBytesPerInstance, finalizerRecordBytes)
	}
	// A crashing child is an error that carries its stderr.
	_, err = MeasureInChild(ctx, child, "crash", "", N(10))
	if err == nil || !strings.Contains(err.Error(), "boom: the constructor's library aborted") || !strings.Contains(err.Error(), "exit status 7") {
		t.Errorf("got %v, want the child's exit status and stderr", err)
	}
}

func TestCHeapColumnSaysWhyNotAvailable(t *testing.T) {
	r, err := Measure(Case{Name: "forty", New: func(i int) any { return new(forty) }}, N(1000))
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case cgoEnabled && runtime.GOOS == "linux":
		if r.CHeapBytesPerInstance == nil {
			t.Errorf("cgo on linux: C heap not measured: %s", r.CHeapUnavailable)
		}
	case !cgoEnabled:
		if r.CHeapBytesPerInstance != nil || !strings.Contains(r.CHeapUnavailable, "CGO_ENABLED=0") {
			t.Errorf("without cgo: got %v %q, want n/a naming CGO_ENABLED=0", r.CHeapBytesPerInstance, r.CHeapUnavailable)
		}
	}
}

// TestRSSResolution: the RSS and unaccounted figures are differences of
// two readings of the resident set, each in whole pages and each anywhere
// within one of the runtime's off-heap chunks it is filling: their
// resolution is two chunks and two pages over N. Where the resident set
// cannot be read (no /proc/self/statm), there is no figure and no
// resolution.
func TestRSSResolution(t *testing.T) {
	_, statErr := os.Stat("/proc/self/statm")
	for _, n := range []int{1, 1000} {
		t.Run(fmt.Sprint("N=", n), func(t *testing.T) {
			r, err := Measure(Case{Name: "forty", New: func(i int) any { return &forty{a: uint64(i)} }}, N(n))
			if err != nil {
				t.Fatal(err)
			}
			want := 2 * float64(persistentChunk+os.Getpagesize()) / float64(n)
			if statErr != nil {
				want = 0
			}
			if r.RSSResolution != want {
				t.Errorf("RSS resolution: got %v, want %v (two %d-byte chunks and two %d-byte pages over N=%d)", r.RSSResolution, want, persistentChunk, os.Getpagesize(), n)
			}
		})
	}
}
