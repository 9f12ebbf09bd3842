package memprof

import (
	"flag"
	"math"
	"runtime"
	"runtime/metrics"
	"testing"
	"unsafe"

	"github.com/memprof/memprof/model"
)

// markN is the N of TestGCMarkFigures; .ci/run runs it at the scenarios'
// scale, 1,000,000.
var markN = flag.Int("memprof.mark-n", 300_000, "`N` of the mark-time test (TestGCMarkFigures)")

// onePointer96 is a 96-byte object holding one pointer, at its start.
type onePointer96 struct {
	p   *[8]byte
	pad [88]byte
}

// wrapped is the wrapper shape clients put around a key: one pointer.
type wrapped struct{ p *[96]byte }

// fixtureScan is what the collector scans per object of T, measured on
// a fixture the test builds itself: n objects made by newT, held by a
// []*T allocated (all nil) before the first reading, so that the holder
// is scanned alike in both readings; each reading is taken right after a
// forced collection. It returns the figure and its noise floor (one
// runtime page over n: the runtime's own objects come and go).
func fixtureScan[T any](t *testing.T, n int, newT func() *T) (perObject, floor float64) {
	t.Helper()
	samples := []metrics.Sample{{Name: metricScanHeap}}
	read := func() float64 {
		runtime.GC()
		metrics.Read(samples)
		return float64(samples[0].Value.Uint64())
	}
	read()
	holder := make([]*T, n)
	before := read()
	for i := range holder {
		holder[i] = newT()
	}
	after := read()
	runtime.KeepAlive(holder)
	return (after - before) / float64(n), runtimePage / float64(n)
}

// TestScanBytesGroundTruth: the scan figure of objects whose scan work is
// known by construction: a pointer-free object is never scanned (0), a
// one-pointer object is scanned for its one word (8, the pointer's size),
// and a 96-byte object holding one pointer costs what the collector of
// this Go version scans for it, taken from a fixture of that type
// measured directly. Each figure must be within its reported resolution,
// which is one runtime page over N plus the readings' spread.
func TestScanBytesGroundTruth(t *testing.T) {
	const n = 50_000
	onePointer, fixtureFloor := fixtureScan(t, n, func() *onePointer96 { return &onePointer96{p: new([8]byte)} })
	pointerFree, _ := fixtureScan(t, n, func() *[96]byte { return new([96]byte) })
	if math.Abs(pointerFree) > fixtureFloor {
		t.Fatalf("fixture: a pointer-free object scans %v B, want 0 within %v: the metric does not read as this test assumes", pointerFree, fixtureFloor)
	}
	tests := []struct {
		name      string
		c         Case
		want, tol float64
	}{
		{"[96]byte", Case{New: func(int) any { return new([96]byte) }}, 0, 0},
		{"struct{p *T}", Case{New: func(int) any { return &wrapped{p: new([96]byte)} }}, float64(unsafe.Sizeof(uintptr(0))), 0},
		{"96-byte object with one pointer", Case{New: func(int) any { return &onePointer96{p: new([8]byte)} }}, onePointer, fixtureFloor},
		{"[][96]byte slice", Case{NewSlice: func(n int) any { return make([][96]byte, n) }}, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.c.Name = tt.name
			r, err := Measure(tt.c, N(n))
			if err != nil {
				t.Fatal(err)
			}
			// One runtime page over N, plus the spread of the readings,
			// which must leave the figure telling 0 from one pointer.
			if floor := runtimePage / float64(n); r.ScanResolution < floor || r.ScanResolution >= 1 {
				t.Errorf("scan resolution: got %v, want at least one runtime page over N (%v) and below 1 B", r.ScanResolution, floor)
			}
			t.Logf("scan %v B per instance (resolution %v), want %v", r.ScanBytesPerInstance, r.ScanResolution, tt.want)
			if got := r.ScanBytesPerInstance; math.Abs(got-tt.want) > r.ScanResolution+tt.tol {
				t.Errorf("scan bytes per instance: got %v, want %v within %v", got, tt.want, r.ScanResolution+tt.tol)
			}
		})
	}
}

// TestGCMarkFigures: the mark figures are a summary of MarkCycles
// samples (median and quartiles as model.SummarizeSamples gives them),
// with a resolution; marking N small objects takes measurably longer
// than one pointer-free array of the same bytes, whose figure is within
// its resolution of zero (~0). It runs at N = 300,000 (-memprof.mark-n;
// .ci/run uses 1,000,000, the probe's scale); with -short at 100,000 and
// it checks the summary only: at that N a loaded machine's cycles vary by
// more than one array costs, but not always within the resolution.
func TestGCMarkFigures(t *testing.T) {
	n := *markN
	if testing.Short() {
		n = 100_000
	}
	measure := func(c Case) *Result {
		t.Helper()
		r, err := Measure(c, N(n), Warmup(2))
		if err != nil {
			t.Fatal(err)
		}
		if len(r.GCMarkSamplesNs) != MarkCycles {
			t.Fatalf("%s: got %d mark samples, want %d", c.Name, len(r.GCMarkSamplesNs), MarkCycles)
		}
		q, err := model.SummarizeSamples(r.GCMarkSamplesNs)
		if err != nil {
			t.Fatal(err)
		}
		if r.GCMarkNsPerInstance != q.Median || r.GCMarkNsPerInstanceQ1 != q.Q1 || r.GCMarkNsPerInstanceQ3 != q.Q3 {
			t.Errorf("%s: mark summary %v %v %v, want that of its samples %+v", c.Name, r.GCMarkNsPerInstanceQ1, r.GCMarkNsPerInstance, r.GCMarkNsPerInstanceQ3, q)
		}
		if !(r.GCMarkResolution > 0) {
			t.Errorf("%s: mark resolution %v, want positive", c.Name, r.GCMarkResolution)
		}
		t.Logf("%s: mark %v ns per instance per cycle [%v, %v], resolution %v", c.Name, r.GCMarkNsPerInstance, r.GCMarkNsPerInstanceQ1, r.GCMarkNsPerInstanceQ3, r.GCMarkResolution)
		return r
	}
	objects := measure(Case{Name: "objects", New: func(int) any { return new([96]byte) }})
	array := measure(Case{Name: "array", NewSlice: func(n int) any { return make([][96]byte, n) }})
	if testing.Short() {
		return
	}
	// A busy machine (go test runs packages side by side) widens both
	// resolutions, by more than one array costs: the objects' cycles must
	// stand apart from the array's, their first quartile above its third.
	if objects.GCMarkNsPerInstanceQ1 <= array.GCMarkNsPerInstanceQ3 {
		t.Errorf("marking %d objects: %v ns per instance [Q1 %v], want it above one array's %v [Q3 %v]",
			n, objects.GCMarkNsPerInstance, objects.GCMarkNsPerInstanceQ1, array.GCMarkNsPerInstance, array.GCMarkNsPerInstanceQ3)
	}
	col, err := model.LookupColumn("gc_mark_ns_per_instance")
	if err != nil {
		t.Fatal(err)
	}
	if cell := col.ReadInstance(&model.Result{Measurement: *array}); cell.State != model.NearZero {
		t.Errorf("one array: mark %v ns per instance, resolution %v: got %q, want ~0", array.GCMarkNsPerInstance, array.GCMarkResolution, col.Format(cell))
	}
}

// TestSkipGC: without the GC pass the bytes are measured as ever and the
// GC figures are absent, which the columns read as not measured.
func TestSkipGC(t *testing.T) {
	c := Case{Name: "skip", New: func(int) any { return &wrapped{p: new([96]byte)} }}
	r, err := Measure(c, N(2000), SkipGC())
	if err != nil {
		t.Fatal(err)
	}
	with, err := Measure(c, N(2000))
	if err != nil {
		t.Fatal(err)
	}
	if r.BytesPerInstance != with.BytesPerInstance || r.AllocsPerInstance != with.AllocsPerInstance {
		t.Errorf("bytes and allocs: got %v %v, want %v %v as with the GC pass", r.BytesPerInstance, r.AllocsPerInstance, with.BytesPerInstance, with.AllocsPerInstance)
	}
	if r.ScanResolution != 0 || r.ScanBytesPerInstance != 0 || len(r.GCMarkSamplesNs) != 0 || r.GCMarkNsPerInstance != 0 {
		t.Errorf("GC figures: got scan %v (resolution %v), mark %v with %d samples; want none", r.ScanBytesPerInstance, r.ScanResolution, r.GCMarkNsPerInstance, len(r.GCMarkSamplesNs))
	}
	if with.ScanResolution == 0 || len(with.GCMarkSamplesNs) != MarkCycles {
		t.Errorf("with the GC pass: got resolution %v and %d samples, want them measured", with.ScanResolution, len(with.GCMarkSamplesNs))
	}
	for _, name := range []string{"scan_bytes_per_instance", "gc_mark_ns_per_instance"} {
		col, err := model.LookupColumn(name)
		if err != nil {
			t.Fatal(err)
		}
		if cell := col.ReadInstance(&model.Result{Measurement: *r}); cell.State != model.Unknown {
			t.Errorf("%s without the GC pass: got %q, want n/a", name, col.Format(cell))
		}
	}
}
