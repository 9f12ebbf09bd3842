package memprof_test

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/stats"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/blst"
	"github.com/memprof/memprof/suites/circl"
	"github.com/memprof/memprof/suites/gnark"
	"github.com/memprof/memprof/suites/scenarios"
	"github.com/memprof/memprof/vocab"
)

// The engine's benchmarks: BenchmarkMeasure times what `memprof
// instances` spends on one case (a child process of this test binary,
// every default reading), BenchmarkFloor the least an exact
// bytes-per-instance figure of the same case takes (floor, in a child
// process too). Both are whole processes, started the same way, so that
// their ratio, which BenchmarkMeasure also reports from floors timed
// between its own runs, is the engine's overhead:
//
//	go test ./memprof/ -run '^$' -bench 'Measure|Floor' -benchtime 5x

// benchCases are the cases the benchmarks measure, at the N the memprof
// command measures them at: a blst and a gnark-crypto object at the
// default N, and a scenario at its 1,000,000 validators.
var benchCases = []struct {
	key results.Key
	n   int
}{
	{results.Key{Type: vocab.Signature, Lib: "blst", Repr: "affine", Layout: measure.Pointer}, memprof.DefaultN},
	{results.Key{Type: vocab.Signature, Lib: "gnark", Repr: "affine", Layout: measure.Pointer}, memprof.DefaultN},
	{results.Key{Type: vocab.PubkeyCache, Lib: "blst", Repr: "map-pointer", Layout: measure.Collection}, scenarios.DefaultN},
}

// benchRegistry holds the suites the benchmarks take their cases from:
// the BLS libraries' objects and scenarios, so that the floor task serves
// every case of `memprof instances --type all` and `--type scenarios`.
var benchRegistry = func() *suites.Registry {
	r, err := suites.NewRegistry(blst.Suite(), gnark.Suite(), circl.Suite(), scenarios.Suite())
	if err != nil {
		panic("memprof benchmarks: " + err.Error())
	}
	return r
}()

// A child process of this test binary serves the suites' cases and the
// floor (see TestMain in measure_test.go).
func init() {
	memprof.ServeInTests(benchRegistry.LookupCase, memprof.Task{Name: floorTask, Run: runFloor})
}

// floorTask is the name of the task that measures a case's floor in a
// child process.
const floorTask = "floor"

// floorRequest asks for the floor of one case.
type floorRequest struct {
	Case string `json:"case"`
	N    int    `json:"n"`
}

// floorResult is what the floor measures: the bytes and objects one
// instance keeps, holder excluded.
type floorResult struct {
	BytesPerInstance  float64 `json:"bytes_per_instance"`
	AllocsPerInstance float64 `json:"allocs_per_instance"`
}

func runFloor(_ context.Context, in json.RawMessage) (any, error) {
	var req floorRequest
	if err := json.Unmarshal(in, &req); err != nil {
		return nil, err
	}
	c, err := benchRegistry.LookupCase(req.Case)
	if err != nil {
		return nil, err
	}
	return floor(c, req.N)
}

// floor is the least work an exact bytes-per-instance figure of c at n
// instances takes: its inputs (Prepare), then, with the collector off, n
// instances into a holder allocated beforehand (or the slice or structure
// NewSlice or NewAll returns), one collection to drop the construction's
// temporaries, and the deltas of HeapAlloc and of the live objects
// (Mallocs - Frees) across them. No warm-up, no profile, no other
// reading: it is what the engine is compared with, not a measurement
// (lazy one-time set-up is charged to the instances, and other
// goroutines' allocations are counted).
func floor(c memprof.Case, n int) (floorResult, error) {
	if c.Prepare != nil {
		if err := c.Prepare(n); err != nil {
			return floorResult{}, err
		}
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var holder []any
	if c.New != nil {
		holder = make([]any, n)
	}
	var before, after runtime.MemStats
	// Two collections free what the process left before the instances:
	// the first moves sync.Pool caches aside and queues finalizers, the
	// second frees what they held.
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	var many any
	switch {
	case c.New != nil:
		for i := range holder {
			holder[i] = c.New(i)
		}
	case c.NewSlice != nil:
		many = c.NewSlice(n)
	case c.NewAll != nil:
		many = c.NewAll(n)
	default:
		return floorResult{}, fmt.Errorf("case %s: the floor measures New, NewSlice and NewAll cases", c.Name)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(holder)
	runtime.KeepAlive(many)
	live := func(m *runtime.MemStats) float64 { return float64(m.Mallocs - m.Frees) }
	return floorResult{
		BytesPerInstance:  (float64(after.HeapAlloc) - float64(before.HeapAlloc)) / float64(n),
		AllocsPerInstance: (live(&after) - live(&before)) / float64(n),
	}, nil
}

// benchChild is how the benchmarks start a child: this test binary, no
// tests, as a run starts its children.
func benchChild() memprof.Child {
	return memprof.Child{Args: []string{"-test.run=^$"}}
}

// benchName names a sub-benchmark of a case: case=Signature:blst:affine:pointer/n=100000.
func benchName(k results.Key, n int) string {
	return fmt.Sprintf("case=%s/n=%d", strings.ReplaceAll(k.String(), "/", ":"), n)
}

// lookupBenchCase skips the benchmark of a case this build cannot
// measure (blst without cgo).
func lookupBenchCase(b *testing.B, k results.Key) string {
	b.Helper()
	e, ok := benchRegistry.Lookup(k.BenchName())
	if !ok {
		b.Fatalf("no case %s in the benchmarks' registry", k)
	}
	if !e.Unavailable.IsZero() {
		b.Skipf("%s: %s", k, e.Unavailable.Reason)
	}
	return e.BenchName()
}

// BenchmarkMeasure times MeasureInChild of each of benchCases with every
// default reading, and reports it as ms/case; between two of its runs it
// times the case's floor (timer stopped) and reports the floor's
// ms/case and the ratio of the two (x-floor), each a median over the
// runs, so a drift of a shared machine's load hits both alike.
func BenchmarkMeasure(b *testing.B) {
	for _, bc := range benchCases {
		b.Run(benchName(bc.key, bc.n), func(b *testing.B) {
			name := lookupBenchCase(b, bc.key)
			child, ctx := benchChild(), context.Background()
			var engine, floors []time.Duration
			for b.Loop() {
				start := time.Now()
				if _, err := memprof.MeasureInChild(ctx, child, name, "", memprof.N(bc.n)); err != nil {
					b.Fatal(err)
				}
				engine = append(engine, time.Since(start))
				b.StopTimer()
				f, err := timeFloor(ctx, child, name, bc.n)
				if err != nil {
					b.Fatal(err)
				}
				floors = append(floors, f)
				b.StartTimer()
			}
			e, f := medianMs(engine), medianMs(floors)
			b.ReportMetric(e, "ms/case")
			b.ReportMetric(f, "floor-ms/case")
			b.ReportMetric(e/f, "x-floor")
		})
	}
}

// BenchmarkFloor times the floor of each of benchCases (see floor), a
// whole child process, and reports it as ms/case, with the bytes and
// objects per instance it measured.
func BenchmarkFloor(b *testing.B) {
	for _, bc := range benchCases {
		b.Run(benchName(bc.key, bc.n), func(b *testing.B) {
			name := lookupBenchCase(b, bc.key)
			child, ctx := benchChild(), context.Background()
			var times []time.Duration
			var last floorResult
			for b.Loop() {
				start := time.Now()
				if err := memprof.RunInChild(ctx, child, floorTask, floorRequest{Case: name, N: bc.n}, &last); err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(start))
			}
			b.ReportMetric(medianMs(times), "ms/case")
			b.ReportMetric(last.BytesPerInstance, "B/instance")
			b.ReportMetric(last.AllocsPerInstance, "allocs/instance")
		})
	}
}

// timeFloor times one floor of the case called name in a child.
func timeFloor(ctx context.Context, child memprof.Child, name string, n int) (time.Duration, error) {
	var r floorResult
	start := time.Now()
	err := memprof.RunInChild(ctx, child, floorTask, floorRequest{Case: name, N: n}, &r)
	return time.Since(start), err
}

// medianMs is the median of ds in milliseconds.
func medianMs(ds []time.Duration) float64 {
	vs := make([]float64, len(ds))
	for i, d := range ds {
		vs[i] = float64(d) / 1e6
	}
	q, err := stats.SummarizeSamples(vs)
	if err != nil {
		return 0
	}
	return q.Median
}

// TestFloor: the floor of a fixture whose size the allocator's size class
// makes known is that slot and one object per instance, give or take
// what the runtime allocated for itself meanwhile (the floor counts every
// live object): at most one runtime page of 8 KiB, in objects of at least
// 16 bytes (a new thread's records are 7 objects of 5.5 KiB).
func TestFloor(t *testing.T) {
	type fixture struct{ a, b, c, d, e uint64 }
	const n, page, smallest = 10_000, 8 << 10, 16
	c := memprof.Case{Name: "fixture", New: func(i int) any { return &fixture{a: uint64(i)} }}
	got, err := floor(c, n)
	if err != nil {
		t.Fatal(err)
	}
	want := memprof.SizeClass(t, unsafe.Sizeof(fixture{}))
	if got.BytesPerInstance < want || got.BytesPerInstance > want+float64(page)/n {
		t.Errorf("floor: got %v B per instance, want %v (the size class of %d bytes) plus at most a page over N", got.BytesPerInstance, want, unsafe.Sizeof(fixture{}))
	}
	if got.AllocsPerInstance < 1 || got.AllocsPerInstance > 1+float64(page/smallest)/n {
		t.Errorf("floor: got %v objects per instance, want 1 plus at most a page of small objects over N", got.AllocsPerInstance)
	}
}
