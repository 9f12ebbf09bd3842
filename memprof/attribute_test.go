package memprof

import (
	"bytes"
	"reflect"
	"runtime"
	"slices"
	"sync"
	"testing"
	"unsafe"

	"github.com/google/pprof/profile"

	"github.com/memprof/memprof/heapscan"
	"github.com/memprof/memprof/internal/frame"
	"github.com/memprof/memprof/measure"
)

// threeSites makes an instance of three objects, each from its own line:
// a profile with a few sites below the constructor's frame.
type threeSites struct {
	a *[24]byte
	b *[200]byte
}

func newThreeSites(i int) any {
	a := new([24]byte)
	b := new([200]byte)
	a[0], b[0] = byte(i), byte(i)
	return &threeSites{a: a, b: b}
}

// profileSites summarizes the heap profile the engine wrote for a
// measurement, with pprof's model, as the engine attributed before it
// read the records: the in-use objects below its constructor frame, by
// site, and those below its holder's.
func profileSites(tb testing.TB, layout measure.Layout, prof []byte) (sites, holder *heapscan.Summary) {
	tb.Helper()
	p, err := profile.Parse(bytes.NewReader(prof))
	if err != nil {
		tb.Fatal(err)
	}
	if p.Period != 1 {
		tb.Fatalf("heap profile has sampling period %d, want 1 (exact)", p.Period)
	}
	dropRuntimeRecords(p)
	frame := constructFrame
	if layout != measure.Pointer {
		frame = sliceFrame
	}
	if sites, err = heapscan.Summarize(p, heapscan.Options{GroupBy: "site", FocusFunction: frame}); err != nil {
		tb.Fatal(err)
	}
	if holder, err = heapscan.Summarize(p, heapscan.Options{FocusFunction: holderFrame}); err != nil {
		tb.Fatal(err)
	}
	return sites, holder
}

// dropRuntimeRecords removes from p the samples of the objects the
// engine takes for the runtime's own records (infoOf), as it reads them
// from the heap profile's records: the written profile hides a stack's
// leading runtime frames (the record's frame among them: a type
// assertion's cache shows as allocated by the function that asserts), so
// its records are told by their first frame outside the runtime and
// their size, as the records with every frame give them.
func dropRuntimeRecords(p *profile.Profile) {
	type key struct {
		function string
		line     int64
		size     int64
	}
	records := map[key]bool{}
	for _, r := range heapRecords() {
		if r.AllocObjects == 0 || !infoOf(r.Stack0).runtimeRecord {
			continue
		}
		for f := range stackFrames(&r) {
			if !frame.IsRuntimeFunction(f.Function) {
				records[key{f.Function, int64(f.Line), r.AllocBytes / r.AllocObjects}] = true
				break
			}
		}
	}
	p.Sample = slices.DeleteFunc(p.Sample, func(s *profile.Sample) bool {
		if len(s.Location) == 0 || len(s.Location[0].Line) == 0 || len(s.NumLabel["bytes"]) == 0 {
			return false
		}
		l := s.Location[0].Line[0]
		return records[key{l.Function.Name, l.Line, s.NumLabel["bytes"][0]}]
	})
}

// TestAttributionMatchesProfile measures cases of every layout at N,
// profiled whole, and checks that the sites the engine reads from the
// heap profile's records are exactly those of the heap profile it writes
// (pprof's model, below the constructor's frame), figure by figure and
// slot by slot; and, so that the comparison cannot pass on empty views,
// that the figures are the ones the cases' construction makes known.
func TestAttributionMatchesProfile(t *testing.T) {
	const n = 2_000
	word := float64(unsafe.Sizeof(uintptr(0)))
	tests := []struct {
		name string
		c    Case
		// bytes and allocs per instance the construction makes known;
		// for the slice and collection layouts, the least they can be.
		bytes, allocs float64
		exact         bool
	}{
		{"pointer three sites", Case{Name: "three", New: newThreeSites},
			sizeClass(t, unsafe.Sizeof(threeSites{})) + sizeClass(t, 24) + sizeClass(t, 200), 3, true},
		{"pointer boxed value", Case{Name: "boxed", New: func(i int) any { var v [48]byte; v[0], v[1] = byte(i), 1; return v }},
			sizeClass(t, 48), 1, true},
		{"slice", Case{Name: "slice", NewSlice: func(n int) any { return make([]forty, n) }},
			float64(unsafe.Sizeof(forty{})), 0, false},
		{"collection", Case{Name: "map", NewAll: func(n int) any {
			m := make(map[int]*forty, n)
			for i := range n {
				m[i] = &forty{a: uint64(i)}
			}
			return m
		}, SizeOf: unsafe.Sizeof(forty{})}, sizeClass(t, unsafe.Sizeof(forty{})) + 2*word, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var prof bytes.Buffer
			got, err := Measure(tt.c, N(n), KeepProfile(&prof), SkipGC())
			if err != nil {
				t.Fatal(err)
			}
			if got.AttributedN != n {
				t.Fatalf("attributed N: got %d, want %d (all profiled)", got.AttributedN, n)
			}
			sites, holder := profileSites(t, tt.c.Layout(), prof.Bytes())
			var want []Site
			for _, row := range sites.Rows {
				want = append(want, Site{Function: row.Function, File: row.File, Line: row.Line,
					BytesPerInstance: float64(row.Bytes) / n, AllocsPerInstance: float64(row.Objects) / n, SlotSizes: row.Sizes})
			}
			if g, w := sortedSites(got.Sites), sortedSites(want); !reflect.DeepEqual(g, w) {
				t.Errorf("sites from the records differ from the written profile's:\ngot  %+v\nwant %+v", g, w)
			}
			var holderBytes int64
			for _, row := range holder.Rows {
				holderBytes += row.Bytes
			}
			if got.HolderBytesPerInstance != float64(holderBytes)/n {
				t.Errorf("holder: got %v B per instance, want %v as the written profile has it", got.HolderBytesPerInstance, float64(holderBytes)/n)
			}
			if tt.exact && (got.BytesPerInstance != tt.bytes || got.AllocsPerInstance != tt.allocs) {
				t.Errorf("got %v B in %v allocs per instance, want %v B in %v", got.BytesPerInstance, got.AllocsPerInstance, tt.bytes, tt.allocs)
			}
			if !tt.exact && (got.BytesPerInstance < tt.bytes || got.AllocsPerInstance < tt.allocs) {
				t.Errorf("got %v B in %v allocs per instance, want at least %v B in %v", got.BytesPerInstance, got.AllocsPerInstance, tt.bytes, tt.allocs)
			}
			if len(got.Sites) == 0 {
				t.Error("no site attributed")
			}
			if tt.c.Layout() == measure.Pointer && got.HolderBytesPerInstance < word*2 {
				t.Errorf("holder: got %v B per instance, want at least an interface value (%v B)", got.HolderBytesPerInstance, 2*word)
			}
		})
	}
}

// sortedSites returns the sites in an order of their own (by function
// and line).
func sortedSites(sites []Site) []Site {
	out := slices.Clone(sites)
	slices.SortFunc(out, func(a, b Site) int {
		if a.Function != b.Function {
			if a.Function < b.Function {
				return -1
			}
			return 1
		}
		return int(a.Line - b.Line)
	})
	return out
}

// batchToAffine stands for a library's batch conversion that splits its
// work among worker goroutines and waits for them, as blst's and
// gnark-crypto's do: the constructor parks on a WaitGroup and on a
// channel, so the runtime allocates wait records (sudogs) below the
// constructor's frame, and caches them for good.
func batchToAffine(n int) any {
	out := make([][96]byte, n)
	var wg sync.WaitGroup
	done := make(chan struct{})
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += 2 {
				out[i][0] = byte(i)
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()
	wg.Wait()
	<-done
	return out
}

// TestAttributionLeavesOutRuntimeRecords: the wait records the runtime
// allocates when the constructor parks (on a WaitGroup, on a channel),
// and the descriptors of the goroutines it starts, show in the heap
// profile's records below the constructor's frame; they are the
// runtime's, not the instances': attribution leaves them out, and keeps
// every other object.
func TestAttributionLeavesOutRuntimeRecords(t *testing.T) {
	const n = 4
	r, err := Measure(Case{Name: "batch", NewSlice: batchToAffine}, N(n), SkipGC())
	if err != nil {
		t.Fatal(err)
	}
	// The array, and the slice header NewSlice's any boxes.
	want := (sizeClass(t, n*96) + sizeClass(t, unsafe.Sizeof([]byte(nil)))) / n
	if r.BytesPerInstance != want || r.AllocsPerInstance != 2.0/n || len(r.Sites) != 2 {
		t.Errorf("got %v B and %v objects per instance in sites %+v, want %v B and %v objects (the array and its header) in 2 sites", r.BytesPerInstance, r.AllocsPerInstance, r.Sites, want, 2.0/n)
	}
	for _, s := range r.Sites {
		if s.Function != funcName(batchToAffine) {
			t.Errorf("site %s:%d: want only batchToAffine's", s.Function, s.Line)
		}
	}
}

// benchAccount is the snapshots BenchmarkAccount attributes, taken once
// per process.
var benchAccount struct {
	once          sync.Once
	before, after recordSnapshot
	keep          []any
}

// BenchmarkAccount times the attribution of one build (a case of three
// sites, 10,000 instances) from two snapshots of the heap profile's
// records.
func BenchmarkAccount(b *testing.B) {
	benchAccount.once.Do(func() {
		prev := runtime.MemProfileRate
		runtime.MemProfileRate = 1
		buf := newRecordBuffer(recordSpare)
		runtime.GC()
		benchAccount.before = buf.snapshot()
		benchAccount.keep = make([]any, 10_000)
		constructInstances(newThreeSites, benchAccount.keep)
		runtime.GC()
		benchAccount.after = buf.snapshot()
		runtime.MemProfileRate = prev
	})
	b.ReportAllocs()
	for b.Loop() {
		a := account(benchAccount.before, benchAccount.after, scope{mark: markConstruct}, 1)
		if len(a.sites) == 0 {
			b.Fatal("no sites")
		}
	}
}

// cacheProbe is the concrete type typeAssertCacheCase asserts to
// cacheProber; no other code asserts it, so its call site's cache is
// built by that case alone.
type cacheProbe struct{}

func (cacheProbe) probe() {}

type cacheProber interface{ probe() }

// assertCacheProber asserts v to cacheProber at a call site of its own.
//
//go:noinline
func assertCacheProber(v any) bool {
	_, ok := v.(cacheProber)
	return ok
}

// assertCacheMisses is how many times typeAssertCacheCase asserts: the
// runtime builds a call site's cache on a random one in 1,024 misses
// (runtime.typeAssert), so that none of them builds it has a chance
// (1-1/1024)^50000, below 1e-21.
const assertCacheMisses = 50_000

// typeAssertCacheCase is a case of one [4]int per instance whose first
// instance of the profiled pass (the one at MemProfileRate 1) also makes
// the runtime build a type assertion's cache below the constructor's
// frame, as a library's constructor does at random when its call site's
// cache is not yet built (go-ethereum's crypto.UnmarshalPubkey converting
// its curve to elliptic.Curve): the cache lives on for the process, the
// runtime's and no instance's.
func typeAssertCacheCase(t *testing.T) Case {
	return Case{Name: "type-assert-cache", New: func(i int) any {
		if i == 0 && runtime.MemProfileRate == 1 {
			for range assertCacheMisses {
				if !assertCacheProber(cacheProbe{}) {
					t.Error("cacheProbe does not implement cacheProber")
				}
			}
		}
		return new([4]int)
	}}
}

// typeAssertCacheRecords is how many objects the heap profile's records
// hold live that runtime.buildTypeAssertCache allocated below the
// engine's constructor frame.
func typeAssertCacheRecords(t *testing.T) int64 {
	t.Helper()
	var live int64
	for _, r := range heapRecords() {
		var cache, construct bool
		for f := range stackFrames(&r) {
			cache = cache || f.Function == "runtime.buildTypeAssertCache"
			construct = construct || f.Function == constructFrame
		}
		if cache && construct {
			live += r.InUseObjects()
		}
	}
	return live
}

// TestAttributionLeavesOutTypeAssertCaches: a type assertion's cache that
// the runtime builds during the measured build, below the constructor's
// frame, is the runtime's record, not the instances': the figure is the
// [4]int alone, exactly.
func TestAttributionLeavesOutTypeAssertCaches(t *testing.T) {
	if typeAssertCacheRecords(t) > 0 {
		t.Skip("the assertion's cache was built by an earlier run of this test in this process")
	}
	const n = 100
	r, err := Measure(typeAssertCacheCase(t), N(n), SkipGC())
	if err != nil {
		t.Fatal(err)
	}
	if got := typeAssertCacheRecords(t); got != 1 {
		t.Fatalf("the profiled build left %d live caches of the assertion below the constructor, want 1: the case no longer reproduces the mechanism", got)
	}
	want := sizeClass(t, unsafe.Sizeof([4]int{}))
	if r.BytesPerInstance != want || r.AllocsPerInstance != 1 || len(r.Sites) != 1 {
		t.Errorf("got %v B and %v objects per instance in sites %+v, want %v B and 1 object (the [4]int) in 1 site", r.BytesPerInstance, r.AllocsPerInstance, r.Sites, want)
	}
}
