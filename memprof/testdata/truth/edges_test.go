//go:build unix

package truth

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/memprof/memprof/memprof"
)

// edgeCases are issue 33's edge cases, by name.
var edgeCases = map[string]memprof.Case{
	"parked":    {Name: "parked", New: NewParked},
	"select":    {Name: "select", New: NewSelectForever},
	"regmap":    {Name: "regmap", New: NewMapRegistered},
	"regslice":  {Name: "regslice", New: NewSliceRegistered},
	"mmap":      {Name: "mmap", New: NewMapped},
	"afterfunc": {Name: "afterfunc", New: NewTimed},
	"upsized":   {Name: "upsized", New: NewUpsized},
	"unique":    {Name: "unique", New: NewInterned},
}

// freshEnv asks a child of this test binary for the fresh truth of a
// case: "name N".
const freshEnv = "MEMPROF_TRUTH_FRESH"

// freshReading is what N instances built in a fresh process, with no
// memprof code on the way, add to its live heap: runtime.MemStats's
// HeapAlloc and HeapObjects after two collections, before and after.
type freshReading struct{ Bytes, Objects int64 }

// serveFresh serves the fresh readings freshEnv asks for (readFresh).
func serveFresh() { serveProbe(freshEnv, readFresh) }

// readFresh builds the N instances of the case a freshEnv request names
// and returns what they add to the live heap.
func readFresh(req string) (any, error) {
	name, ns, _ := strings.Cut(req, " ")
	n, err := strconv.Atoi(ns)
	c, ok := edgeCases[name]
	if err != nil || !ok {
		return nil, fmt.Errorf("want a case and N")
	}
	holder := make([]any, n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range holder {
		holder[i] = c.New(i)
	}
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(holder)
	return freshReading{int64(after.HeapAlloc) - int64(before.HeapAlloc), int64(after.HeapObjects) - int64(before.HeapObjects)}, nil
}

// fresh returns what n instances of the case add to a fresh process's
// live heap, per instance (freshReading).
func fresh(t *testing.T, name string, n int) (bytes, objects float64) {
	t.Helper()
	var r freshReading
	probe(t, "fresh process for "+name, freshEnv, name+" "+strconv.Itoa(n), &r)
	return float64(r.Bytes) / float64(n), float64(r.Objects) / float64(n)
}

// liveSlack is what a live heap read around a build may hold of the
// runtime's own churn (wait records taken from and returned to caches,
// as memprof's liveSlackBytes says): the fresh truths, read from the
// live heap, are known to that, over N.
const (
	liveSlackBytes   = 2048
	liveSlackObjects = 64
)

// edgeTruth is what a case's instances keep, per instance: from their
// construction (exact), or from fresh processes (to liveSlack over N;
// three, each with a seed of its own, for a structure whose layout
// follows its hash seed).
type edgeTruth struct {
	bytes, objects []float64
	slack          float64 // bytes per instance the truth is known to
	// registry: the instances enter a structure that keeps what they
	// add to it after the engine drops them; own is what each keeps
	// itself, the rest being growth they share.
	registry bool
	own      float64
	// seeded: the instances grow a structure whose layout follows its
	// hash seed, of one seed per process.
	seeded bool
}

func edgeTruthOf(t *testing.T, name string, n int) edgeTruth {
	t.Helper()
	nf := float64(n)
	exact := func(bytes, objects float64) edgeTruth {
		return edgeTruth{bytes: []float64{bytes}, objects: []float64{objects}}
	}
	switch name {
	case "parked":
		// The goroutine's descriptor (a runtime.g) and its wait record
		// (a sudog) are the runtime's records, not the instance's.
		return exact(sizeClass(t, unsafe.Sizeof(Parked{}))+chanSlot(t), 2)
	case "select":
		return exact(sizeClass(t, unsafe.Sizeof(Value{})), 1)
	case "upsized":
		small, big := sizeClass(t, SmallBuf), sizeClass(t, BigBuf)
		return exact(sizeClass(t, unsafe.Sizeof(Upsized{}))+small+UpsizedCount*(big-small)/nf, 2)
	}
	tr := edgeTruth{slack: liveSlackBytes / nf, registry: true}
	switch name {
	case "regmap", "regslice":
		tr.own = sizeClass(t, unsafe.Sizeof(Registered{}))
	case "mmap":
		tr.own = sizeClass(t, unsafe.Sizeof(Mapped{}))
	case "afterfunc":
		tr.own = sizeClass(t, unsafe.Sizeof(Timed{}))
	}
	builds := 1
	if name == "unique" {
		builds = 3
		tr.registry = false // unique's map drops what the instances interned once they are gone
		tr.seeded = true
	}
	for range builds {
		b, o := fresh(t, name, n)
		tr.bytes, tr.objects = append(tr.bytes, b), append(tr.objects, o)
	}
	return tr
}

// TestEdges measures each of issue 33's edge cases in a child process (as
// the memprof command does) and checks bytes and objects per instance
// against the truth within the resolution the result claims (and the
// truth's own slack), that the resolution is no larger than the
// runtime's churn and, for a registry, the difference of its builds,
// and that a registry's figure agrees with the result's own HeapAlloc
// figure within it.
func TestEdges(t *testing.T) {
	n := instances(t)
	child := memprof.Child{Args: []string{"-test.run=^$"}}
	for _, name := range []string{"parked", "select", "regmap", "regslice", "mmap", "afterfunc", "upsized", "unique"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			want := edgeTruthOf(t, name, n)
			r, err := memprof.MeasureInChild(context.Background(), child, name, "", memprof.N(n))
			if err != nil {
				t.Fatal(err)
			}
			checkEdge(t, r, want)
		})
	}
}

func checkEdge(t *testing.T, r *memprof.Result, want edgeTruth) {
	t.Helper()
	defer func() {
		if t.Failed() {
			t.Logf("sites from %d instances (fallback %q), resolution %v, HeapAlloc %v, retained %v (%s):", r.AttributedN, r.AttributionFallback, r.HeapResolution, r.HeapAllocBytesPerInstance, r.RetainedBytesPerInstance, r.HeapNote)
			for _, s := range r.Sites {
				t.Logf("  %s:%d  %v B  %v objects  slots %v", s.Function, s.Line, s.BytesPerInstance, s.AllocsPerInstance, s.SlotSizes)
			}
		}
	}()
	t.Logf("%v B in %v objects per instance (resolution %v), HeapAlloc %v; truth %v B in %v objects (to %v); %s", r.BytesPerInstance, r.AllocsPerInstance, r.HeapResolution, r.HeapAllocBytesPerInstance, want.bytes, want.objects, want.slack, r.HeapNote)
	nf := float64(r.N)
	res := r.HeapResolution
	objectsRes := res / 16 // objects of at least 16 bytes
	objectsSlack := 0.0
	if want.slack > 0 {
		objectsSlack = liveSlackObjects / nf
	}
	within := func(got, want, tol float64) bool {
		return math.Abs(got-want) <= tol+1e-9*math.Max(1, math.Abs(want))
	}
	for i := range want.bytes {
		if !within(r.BytesPerInstance, want.bytes[i], res+want.slack) || !within(r.AllocsPerInstance, want.objects[i], objectsRes+objectsSlack) {
			t.Errorf("got %v B in %v objects per instance (resolution %v B), want %v B in %v (to %v)", r.BytesPerInstance, r.AllocsPerInstance, res, want.bytes[i], want.objects[i], want.slack)
		}
	}
	// The resolution is no wider than the runtime's churn and a page per
	// thread the runtime may start (four), over N; for a registry, than
	// twice the growth the instances share in a fresh process (how much
	// of it N instances add depends on how full the registry was); for a
	// hash-seeded structure, than a fiftieth of the instance.
	bound := (liveSlackBytes + 4*runtimePage) / nf
	if want.registry {
		bound = max(bound, 2*(want.bytes[0]-want.own))
	}
	if want.seeded {
		// The spread of its tables' or nodes' count: a fiftieth of
		// the instance is still a figure worth reading.
		bound = max(bound, want.bytes[0]/50)
	}
	if res > bound {
		t.Errorf("resolution: got %v B per instance, want at most %v", res, bound)
	}
	if want.registry && !within(r.BytesPerInstance, r.HeapAllocBytesPerInstance, res+want.slack) {
		t.Errorf("got %v B per instance, and the same result's HeapAlloc figure %v, beyond the resolution %v", r.BytesPerInstance, r.HeapAllocBytesPerInstance, res)
	}
}
