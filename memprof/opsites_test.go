package memprof

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/memprof/memprof/measure"
)

// opSink keeps what the test operations allocate reachable until the
// next call, so that every allocation is a heap one.
var opSink any

// The test operations, by name (the child looks them up too): each
// allocates what its name says, the worker one on a goroutine of its own,
// whose stack does not hold the caller's frames.
var testOps = map[string]func() error{
	"none":   func() error { return nil },
	"small":  smallOp,
	"large":  largeOp,
	"two":    twoOp,
	"worker": workerOp,
	"fails":  func() error { return errors.New("the test operation fails") },
}

func smallOp() error { opSink = make([]byte, 1000); return nil }
func largeOp() error { opSink = make([]byte, 40_000); return nil }
func twoOp() error   { opSink = [2]any{make([]byte, 1000), make([]byte, 3000)}; return nil }

// workerOp allocates 5,000 bytes on a goroutine it starts and waits for.
func workerOp() error {
	done := make(chan []byte)
	go allocOnWorker(done)
	opSink = <-done
	return nil
}

//go:noinline
func allocOnWorker(done chan<- []byte) { done <- make([]byte, 5000) }

// testOpSitesTask is the name under which this test binary's children
// serve OpSitesTask on the test operations.
const testOpSitesTask = "test-op-sites"

func lookupTestOp(name string) (func() error, error) {
	run, ok := testOps[name]
	if !ok {
		return nil, fmt.Errorf("no test operation %q", name)
	}
	return run, nil
}

// slotOf returns what one call of alloc allocates, by the runtime's own
// count (runtime.MemStats.TotalAlloc, which counts slots): the least of
// a few tries, so that an allocation of another goroutine in between
// does not count.
func slotOf(t *testing.T, alloc func() error) (bytes, objects float64) {
	t.Helper()
	bytes, objects = math.Inf(1), math.Inf(1)
	for range 5 {
		var a, b runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&a)
		if err := alloc(); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&b)
		bytes, objects = min(bytes, float64(b.TotalAlloc-a.TotalAlloc)), min(objects, float64(b.Mallocs-a.Mallocs))
	}
	return bytes, objects
}

// byteSink holds a slice without boxing it in an interface.
var byteSink []byte

// workerSlot is what allocOnWorker's make allocates.
func workerSlot(t *testing.T) float64 {
	t.Helper()
	b, _ := slotOf(t, func() error { byteSink = make([]byte, 5000); return nil })
	return b
}

// siteOf returns the site of sites whose function is fn, or fails.
func siteOf(t *testing.T, s *OpSites, fn string) measure.OpSite {
	t.Helper()
	for _, st := range s.Sites {
		if st.Function == fn {
			return st
		}
	}
	t.Fatalf("no site in %s; sites %+v", fn, s.Sites)
	return measure.OpSite{}
}

// TestProfileOpSites checks the sites of the test operations against the
// runtime's own count of one call (for the worker, of its allocation
// alone: starting a goroutine and a channel allocate too).
func TestProfileOpSites(t *testing.T) {
	tests := []struct {
		op   string
		site string // a function whose sites must hold what one call allocates (the whole call, for all but the worker)
	}{
		{"none", ""},
		{"small", "memprof.smallOp"},
		{"large", "memprof.largeOp"},
		{"two", "memprof.twoOp"},
		{"worker", "memprof.allocOnWorker"},
	}
	for _, tt := range tests {
		t.Run(tt.op, func(t *testing.T) {
			wantBytes, wantObjects := slotOf(t, testOps[tt.op])
			siteBytes := wantBytes
			if tt.op == "worker" {
				siteBytes = workerSlot(t)
			}
			s, err := ProfileOpSites(testOps[tt.op], OpSiteOptions{Calls: 50})
			if err != nil {
				t.Fatal(err)
			}
			if s.Calls != 50 {
				t.Errorf("got %d calls, want 50", s.Calls)
			}
			for _, st := range s.Sites {
				if st.BytesPerOp < 0 || st.AllocsPerOp < 0 {
					t.Errorf("site %s: got %v B, %v objects, want non-negative", st.Function, st.BytesPerOp, st.AllocsPerOp)
				}
			}
			// In this process the test framework's goroutines may
			// allocate during a loop: only the operation's own sites are
			// checked (TestOpSitesInChild checks a clean process).
			if tt.site == "" {
				for _, st := range s.Sites {
					if strings.Contains(st.Function, "memprof.") {
						t.Errorf("got site %+v, want none of this package", st)
					}
				}
				return
			}
			// "two" allocates on two lines of one function: two sites.
			fn := "github.com/memprof/memprof/" + tt.site
			var got, objects float64
			for _, st := range s.Sites {
				if st.Function == fn {
					got, objects = got+st.BytesPerOp, objects+st.AllocsPerOp
				}
			}
			if got != siteBytes || (tt.op != "worker" && objects != wantObjects) {
				t.Errorf("sites of %s: got %v B in %v objects per call, want %v B (in %v objects, but for the worker); sites %+v", fn, got, objects, siteBytes, wantObjects, s.Sites)
			}
		})
	}
}

func TestProfileOpSitesRefuses(t *testing.T) {
	tests := []struct {
		name string
		run  func() error
		opts OpSiteOptions
		want string
	}{
		{"no operation", nil, OpSiteOptions{}, "no operation"},
		{"negative calls", testOps["none"], OpSiteOptions{Calls: -1}, "calls must be positive"},
		{"failing operation", testOps["fails"], OpSiteOptions{}, "the test operation fails"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ProfileOpSites(tt.run, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestOpSitesInChild profiles in a fresh child (this test binary): the
// worker's allocation, on a goroutine without the caller's frames, is
// found; an unknown operation and a failing one are errors of their
// own, not of the others.
func TestOpSitesInChild(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	names := []string{"small", "nonesuch", "worker", "fails"}
	rs, err := OpSitesInChild(context.Background(), Child{Args: []string{"-test.run=^$"}}, testOpSitesTask, names, nil, OpSiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != len(names) {
		t.Fatalf("got %d results, want %d", len(rs), len(names))
	}
	small, smallObjects := slotOf(t, smallOp)
	worker := workerSlot(t)
	for i, want := range []struct {
		err  string
		site string
		b    float64
	}{{"", "github.com/memprof/memprof/memprof.smallOp", small}, {`no test operation "nonesuch"`, "", 0}, {"", "github.com/memprof/memprof/memprof.allocOnWorker", worker}, {"the test operation fails", "", 0}} {
		r := rs[i]
		if r.Name != names[i] {
			t.Errorf("result %d: got name %q, want %q", i, r.Name, names[i])
		}
		if want.err != "" {
			if r.Err == nil || !strings.Contains(r.Err.Error(), want.err) {
				t.Errorf("%s: got error %v, want one containing %q", r.Name, r.Err, want.err)
			}
			continue
		}
		if r.Err != nil {
			t.Errorf("%s: %v", r.Name, r.Err)
			continue
		}
		// The worker's channel send may allocate the runtime's sudogs
		// now and then (a per-P cache refilled), in the operation's loop
		// or in the baseline's, whose first frame outside the runtime is
		// the same line: bytes more or fewer there come with as many
		// objects more or fewer, each smaller than the worker's buffer.
		st := siteOf(t, r.Sites, want.site)
		switch {
		case r.Name == "small" && (st.BytesPerOp != want.b || st.AllocsPerOp != smallObjects):
			t.Errorf("%s: site %s: got %v B in %v objects per call, want %v B in %v (the runtime's count)", r.Name, want.site, st.BytesPerOp, st.AllocsPerOp, want.b, smallObjects)
		case r.Name == "worker" && !runtimeObjectsExplain(st, want.b, r.Sites.Calls):
			t.Errorf("%s: site %s: got %v B in %v objects per call over %d calls, want %v B in one object (more or fewer bytes only with as many objects more or fewer, each under %v B)", r.Name, want.site, st.BytesPerOp, st.AllocsPerOp, r.Sites.Calls, want.b, want.b)
		}
		if r.Sites.Calls < MinOpSiteCalls {
			t.Errorf("%s: got %d calls, want at least %d", r.Name, r.Sites.Calls, MinOpSiteCalls)
		}
	}
}

// runtimeObjectsExplain reports whether site st of an operation that
// allocates one object of b bytes per call, over calls calls, differs
// from b only by whole objects more or fewer, each smaller than b (the
// runtime's own, allocated now and then under the same line).
func runtimeObjectsExplain(st measure.OpSite, b float64, calls int) bool {
	n := float64(calls)
	objects := math.Round((st.AllocsPerOp - 1) * n)
	bytes := (st.BytesPerOp - b) * n
	if objects == 0 {
		return math.Abs(bytes) < 0.5
	}
	return (bytes > 0) == (objects > 0) && math.Abs(bytes) < math.Abs(objects)*b
}

// repeatsExtraTime is the extra time TestProfileOpSitesRepeats gives
// the cycling operation: a liveness bound, not a figure. Its repeats
// agree once the calls are a few dozen; each doubling's round is five
// collections of the test binary's heap, whose wall time a busy machine
// stretches (10 s ran out beside four busy loops:
// notes/2026-12-06-busy.md).
const repeatsExtraTime = 2 * time.Minute

// cycling is cyclingOp's cycle of sizes and its count of calls.
var cycling struct {
	cycle [7]int
	calls int
}

// cyclingOp allocates, call after call, the sizes of cycle in turn: a
// loop of a few calls allocates more or less than the next, depending on
// where in the cycle it starts, as an operation whose worker goroutines
// are scheduled one way or another does; over many calls, about the
// cycle's mean.
func cyclingOp() error {
	opSink = make([]byte, cycling.cycle[cycling.calls%len(cycling.cycle)])
	cycling.calls++
	return nil
}

// TestProfileOpSitesRepeats: the sites of an operation whose allocations
// vary from call to call come from enough calls that the repeats of its
// loop agree to within OpSiteAgreement, and the result says that its
// allocation depends on scheduling; without extra time, from the first
// repeats, saying so too. A constant operation's first repeats agree.
func TestProfileOpSitesRepeats(t *testing.T) {
	cycling.cycle = [7]int{1024, 2048, 4096, 1024, 2048, 4096, 8192}
	const first = 4
	s, err := ProfileOpSites(cyclingOp, OpSiteOptions{Calls: first, ExtraTime: repeatsExtraTime})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("cycling operation: %d calls (%v extra), repeats %v B per call", s.Calls, s.Extra, s.RepeatsBytesPerOp)
	if !s.SchedulingDependent || s.Calls <= first || len(s.RepeatsBytesPerOp) != OpSiteRepeats || !s.agree() {
		t.Errorf("got %d calls, repeats %v B per call, scheduling-dependent %v; want more than %d calls, %d repeats within %v of each other, scheduling-dependent", s.Calls, s.RepeatsBytesPerOp, s.SchedulingDependent, first, OpSiteRepeats, OpSiteAgreement)
	}
	// A loop and the baseline each miss the cycle's mean by less than a
	// whole cycle.
	var sum float64
	for _, size := range cycling.cycle {
		sum += float64(size)
	}
	mean := sum / float64(len(cycling.cycle))
	if tol := 2 * sum / float64(s.Calls); math.Abs(s.BytesPerOp-mean) > tol {
		t.Errorf("got %v B per call over %d calls, want the cycle's mean %v within two cycles over the calls (%v)", s.BytesPerOp, s.Calls, mean, tol)
	}
	s, err = ProfileOpSites(cyclingOp, OpSiteOptions{Calls: first})
	if err != nil {
		t.Fatal(err)
	}
	if !s.SchedulingDependent || s.Calls != first || s.Extra != 0 {
		t.Errorf("without extra time: got %d calls (extra %v), scheduling-dependent %v; want %d calls, none extra, scheduling-dependent", s.Calls, s.Extra, s.SchedulingDependent, first)
	}
	s, err = ProfileOpSites(smallOp, OpSiteOptions{Calls: first, ExtraTime: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if s.SchedulingDependent || s.Calls != first {
		t.Errorf("constant operation: got %d calls, repeats %v, scheduling-dependent %v; want %d calls, not", s.Calls, s.RepeatsBytesPerOp, s.SchedulingDependent, first)
	}
}

// TestUnattributedOpSite: sites that add up to the row's B/op within 2%
// (and a byte) are left as they are; otherwise the difference, more or
// less, is a site of its own.
func TestUnattributedOpSite(t *testing.T) {
	sites := []measure.OpSite{{Function: "lib.A", BytesPerOp: 1000, AllocsPerOp: 1}, {Function: "lib.B", BytesPerOp: 500, AllocsPerOp: 2}}
	tests := []struct {
		name                string
		bytesPerOp, allocs  float64
		wantBytes, wantObjs float64 // of the (unattributed) site; 0, 0 for none
	}{
		{"equal", 1500, 3, 0, 0},
		{"within 2%", 1520, 3, 0, 0},
		{"more", 1952, 4, 452, 1},
		{"less", 1400, 2.5, -100, -0.5},
		{"under a byte", 0.75, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := sites
			if tt.name == "under a byte" {
				in = nil
			}
			got := UnattributedOpSite(in, tt.bytesPerOp, tt.allocs)
			if len(in) > 0 && &got[0] != &in[0] && tt.wantBytes == 0 {
				t.Errorf("sites copied without a change")
			}
			var u *measure.OpSite
			for i := range got {
				if got[i].Function == measure.UnattributedSite {
					u = &got[i]
				}
			}
			switch {
			case tt.wantBytes == 0 && u != nil:
				t.Errorf("got an (unattributed) site %+v, want none", *u)
			case tt.wantBytes != 0 && (u == nil || u.BytesPerOp != tt.wantBytes || u.AllocsPerOp != tt.wantObjs):
				t.Errorf("got sites %+v, want an (unattributed) site of %v B in %v objects", got, tt.wantBytes, tt.wantObjs)
			}
		})
	}
	if len(sites) != 2 {
		t.Errorf("the sites given were changed: %+v", sites)
	}
}
