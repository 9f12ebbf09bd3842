package workflow

import (
	"context"
	"errors"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// The fake entries of the memory estimate: their per-instance sizes are
// what the estimate reads, so it is known; their cases are never built.
var (
	bigKey   = results.Key{Type: vocab.G1, Lib: vocab.Gnark, Repr: vocab.Affine, Layout: measure.Pointer}
	smallKey = results.Key{Type: vocab.G1, Lib: vocab.Gnark, Repr: vocab.Jacobian, Layout: measure.Pointer}
)

// unmeasured is the case of an entry no child must measure: its
// instances allocate nothing, so that its per-instance sizes decide the
// estimate (the child probing constructors, which serves the test
// registry, finds no such case); the tests that refuse it check that no
// event follows.
func unmeasured() memprof.Case {
	return memprof.Case{New: func(int) any { return &shared }}
}

// shared is the one object unmeasured's instances return.
var shared [8]uint64

// hinted is an entry of per-instance sizes size (unsafe.Sizeof) and bytes
// (what it points to included).
func hinted(k results.Key, size uintptr, bytes uint64) suites.Entry {
	return suites.Entry{Key: k, Constructor: "test", SizeHint: size, BytesHint: bytes, Case: unmeasured}
}

func TestEstimateMemory(t *testing.T) {
	const mib = 1 << 20
	big, small := hinted(bigKey, 48, mib), hinted(smallKey, 72, 0)
	// each is the estimate of n instances keeping per bytes each.
	each := func(n int, per uint64) float64 { return heapGoal * float64(n) * float64(per+holderBytes) }
	fixed := big
	fixed.FixedN = 3
	tests := []struct {
		name    string
		entries []suites.Entry
		opts    Options
		peak    float64
		largest results.Key
		n       int
	}{
		{"BytesHint over SizeHint", []suites.Entry{big}, Options{N: 1000, Jobs: 1}, each(1000, mib), bigKey, 1000},
		{"SizeHint without BytesHint", []suites.Entry{small}, Options{N: 1000, Jobs: 1}, each(1000, 72), smallKey, 1000},
		{"one at a time: the largest", []suites.Entry{small, big}, Options{N: 1000, Jobs: 1}, each(1000, mib), bigKey, 1000},
		{"two at a time: both", []suites.Entry{small, big}, Options{N: 1000, Jobs: 2}, each(1000, mib) + each(1000, 72), bigKey, 1000},
		{"more jobs than cases", []suites.Entry{big}, Options{N: 1000, Jobs: 8}, each(1000, mib), bigKey, 1000},
		{"the sweep's largest N", []suites.Entry{big}, Options{N: 10, Jobs: 1, Sweep: []int{10, 5000, 20}}, each(5000, mib), bigKey, 5000},
		{"a FixedN has no sweep", []suites.Entry{fixed}, Options{N: 10, Jobs: 1, Sweep: []int{10, 5000, 20}}, each(3, mib), bigKey, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.MemoryAvailable = 1 << 40
			est := EstimateMemory(tt.entries, tt.opts)
			if est.PeakBytes != tt.peak {
				t.Errorf("peak: got %v, want %v", est.PeakBytes, tt.peak)
			}
			if est.Largest != tt.largest || est.LargestN != tt.n {
				t.Errorf("largest: got %s at N=%d, want %s at N=%d", est.Largest, est.LargestN, tt.largest, tt.n)
			}
			if est.AvailableBytes != 1<<40 {
				t.Errorf("available: got %v, want Options.MemoryAvailable", est.AvailableBytes)
			}
		})
	}
}

// TestCheckMemory: a run over the memory available is refused (a usage
// error) unless forced, and one over LargeRun is announced first, with
// its estimate; no child measures the case.
func TestCheckMemory(t *testing.T) {
	const per = 1 << 20 // bytes per instance
	entry := hinted(bigKey, 48, per)
	// n instances are estimated at over LargeRun bytes.
	perEach := float64(heapGoal * (per + holderBytes))
	n := int(LargeRun/perEach) + 1
	tests := []struct {
		name      string
		n         int
		available uint64
		force     bool
		refused   bool
		announced bool
	}{
		{"small", 10, 1 << 40, false, false, false},
		{"large, within the memory", n, 1 << 40, false, false, true},
		{"beyond the memory", n, 1 << 29, false, true, false},
		{"beyond the memory, forced", n, 1 << 29, true, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []Event
			ev := &events{f: func(e Event) { got = append(got, e) }}
			err := checkMemory(context.Background(), []suites.Entry{entry}, Options{N: tt.n, Jobs: 1, MemoryAvailable: tt.available, Force: tt.force}, ev)
			var usage *UsageError
			switch {
			case tt.refused && (!errors.As(err, &usage) || !strings.Contains(err.Error(), "beyond the 536.9MB of memory available (--force to measure anyway)")):
				t.Errorf("got error %v, want a usage error refusing the run", err)
			case !tt.refused && err != nil:
				t.Errorf("got error %v, want none", err)
			}
			if announced := len(got) == 1 && got[0].Kind == MemoryEstimated; announced != tt.announced || len(got) > 1 {
				t.Fatalf("got events %+v, want the estimate announced: %v", got, tt.announced)
			}
			if tt.announced {
				if want := EstimateMemory([]suites.Entry{entry}, Options{N: tt.n, Jobs: 1, MemoryAvailable: tt.available}); got[0].Estimate != want {
					t.Errorf("announced %+v, want %+v", got[0].Estimate, want)
				}
				if !got[0].Estimate.Large() {
					t.Errorf("announced an estimate of %v, not over LargeRun", got[0].Estimate.PeakBytes)
				}
			}
		})
	}
}

// TestInstancesRefusesMemory: Instances refuses a run beyond the memory
// available before anything runs, through the registry's per-instance
// size.
func TestInstancesRefusesMemory(t *testing.T) {
	reg, err := suites.NewRegistry(suites.Suite{Name: "test", Entries: []suites.Entry{hinted(bigKey, 48, 1<<30)}})
	if err != nil {
		t.Fatal(err)
	}
	events := 0
	rs, err := Instances(context.Background(), reg, Selection{Types: []vocab.Type{vocab.G1}}, Options{N: 1000, MemoryAvailable: 1 << 30, Progress: func(Event) { events++ }})
	if rs != nil || !IsUsage(err) || !strings.Contains(err.Error(), "refusing to measure: the run would need about 2.147TB at the peak (1 case at a time; the largest "+bigKey.String()+" at N=1000") {
		t.Errorf("got %v, %v; want the run refused as a usage error", rs, err)
	}
	if events != 0 {
		t.Errorf("got %d events, want none", events)
	}
}

// TestConstructorAt: a row measured at its entry's own N carries why in
// its constructor; a row at the N the user chose does not.
func TestConstructorAt(t *testing.T) {
	own := suites.Entry{Key: bigKey, Constructor: "made", DefaultN: 256, NWhy: "each is slow"}
	single := suites.Entry{Key: results.Key{Type: vocab.G1, Lib: vocab.Gnark, Repr: vocab.Affine, Layout: measure.Single}, Constructor: "made", FixedN: 1}
	tests := []struct {
		name string
		e    suites.Entry
		opts Options
		want string
	}{
		{"its DefaultN", own, Options{}, "made; N = 256: each is slow"},
		{"the user's N", own, Options{N: 256}, "made"},
		{"another N", own, Options{N: 1000}, "made"},
		{"the single layout, whatever N is given", single, Options{N: 1000}, "made; N = 1: the single layout measures one object, alone in its process"},
	}
	for _, tt := range tests {
		if got := constructorAt(tt.e, tt.opts.nFor(tt.e), tt.opts); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

// garbage is where a constructor of TestEstimateMemoryGarbage leaves what
// it allocates and drops: kept from escape analysis, collectable.
var garbage []byte

// TestEstimateMemoryGarbage: a case whose constructor allocates far more
// than its instance keeps is estimated by what its profiled pass keeps
// with the collector off: every byte and object allocated, each object's
// profile record, for the instances that pass builds, read by building a
// few (memprof.ProbeAlloc). The garbage is a whole number of pages and the
// instance a size class: what they allocate is exact, with the collector
// off.
func TestEstimateMemoryGarbage(t *testing.T) {
	const garbageBytes, keptBytes = 1 << 20, 64
	e := suites.Entry{Key: bigKey, Constructor: "test", SizeHint: keptBytes, Case: func() memprof.Case {
		return memprof.Case{Name: "garbage", New: func(int) any {
			garbage = make([]byte, garbageBytes)
			return new([keptBytes]byte)
		}}
	}}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	per, err := memprof.ProbeAlloc(e.Case())
	if err != nil {
		t.Fatal(err)
	}
	garbage = nil
	if want := (memprof.Alloc{Bytes: garbageBytes + keptBytes, Objects: 2}); per != want {
		t.Fatalf("probed %+v per instance, want %+v", per, want)
	}
	perInstance := float64(garbageBytes + keptBytes + 2*memprof.ProfileRecordBytes)
	for _, n := range []int{1000, 100_000} {
		built := memprof.ProfiledInstances(bigKey.Layout, n)
		if n > 1000 && built >= n {
			t.Fatalf("N=%d: the profiled pass builds %d, want fewer than N", n, built)
		}
		want := float64(built)*perInstance + float64(n)*holderBytes
		if sizes := heapGoal * float64(n) * (keptBytes + holderBytes); want <= sizes {
			t.Fatalf("N=%d: the garbage's estimate %v is not over the sizes' %v: the test tells nothing", n, want, sizes)
		}
		est := estimateMemory([]suites.Entry{e}, Options{N: n, Jobs: 1, MemoryAvailable: 1 << 40}, map[string]memprof.Alloc{e.BenchName(): per})
		if est.PeakBytes != want {
			t.Errorf("N=%d: estimated %v, want %v (%d instances of %v B allocated and their records, and the holder)", n, est.PeakBytes, want, built, perInstance)
		}
	}
}

// TestCheckMemoryProbeFailed: where the child probing the constructors
// fails, the run says so before anything runs, and its estimate says it
// has the sizes alone, in the announcement and in a refusal.
func TestCheckMemoryProbeFailed(t *testing.T) {
	const per = 1 << 20 // bytes per instance
	entry := hinted(bigKey, 48, per)
	perEach := float64(heapGoal * (per + holderBytes))
	large := int(LargeRun/perEach) + 1
	absent := memprof.Child{Path: filepath.Join(t.TempDir(), "absent")}
	for _, tt := range []struct {
		name      string
		n         int
		available uint64
		kinds     []EventKind
		refused   bool
	}{
		{"small", 10, 1 << 40, []EventKind{MemoryProbeFailed}, false},
		{"large", large, 1 << 40, []EventKind{MemoryProbeFailed, MemoryEstimated}, false},
		{"beyond the memory", large, 1 << 29, []EventKind{MemoryProbeFailed}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []Event
			ev := &events{f: func(e Event) { got = append(got, e) }}
			err := checkMemory(context.Background(), []suites.Entry{entry}, Options{N: tt.n, Jobs: 1, MemoryAvailable: tt.available, Child: absent}, ev)
			if tt.refused != (err != nil) || err != nil && !strings.Contains(err.Error(), "from the sizes alone, the constructors' garbage unknown)") {
				t.Errorf("got error %v, want refused: %v, saying the estimate has the sizes alone", err, tt.refused)
			}
			var kinds []EventKind
			for _, e := range got {
				kinds = append(kinds, e.Kind)
				if e.Estimate.ProbeFailed == "" || !strings.Contains(e.Estimate.ProbeFailed, "absent") {
					t.Errorf("event %v: the estimate's ProbeFailed %q, want the child's error", e.Kind, e.Estimate.ProbeFailed)
				}
			}
			if !slices.Equal(kinds, tt.kinds) {
				t.Fatalf("got events %v, want %v", kinds, tt.kinds)
			}
			if got[0].Message != got[0].Estimate.ProbeFailed {
				t.Errorf("MemoryProbeFailed's message %q, want the probe's error %q", got[0].Message, got[0].Estimate.ProbeFailed)
			}
		})
	}
	// A probe the run's own interruption stopped is not reported as failed.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var got []Event
	if err := checkMemory(ctx, []suites.Entry{entry}, Options{N: 10, Jobs: 1, MemoryAvailable: 1 << 40}, &events{f: func(e Event) { got = append(got, e) }}); err != nil || len(got) != 0 {
		t.Errorf("interrupted: got %v and events %+v, want neither", err, got)
	}
}
