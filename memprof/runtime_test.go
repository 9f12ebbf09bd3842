package memprof

import (
	"context"
	"encoding/json"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"iter"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unique"
	"unsafe"
	"weak"
)

// framesAssert and framesSwitch assert v to cacheProber, in a type
// assertion and in a type switch of their own, for
// TestRuntimeRecordFrames.
//
//go:noinline
func framesAssert(v any) bool {
	_, ok := v.(cacheProber)
	return ok
}

//go:noinline
func framesSwitch(v any) bool {
	switch v.(type) {
	case cacheProber:
		return true
	}
	return false
}

// TestRuntimeRecordFrames: the runtime functions the engine takes for
// those that allocate the runtime's own records exist in this runtime,
// under these names (a renamed one would let its records count as the
// instances'). Each is made to allocate whatever the runtime has cached:
// the test waits for the records, it does not count on the scheduler.
func TestRuntimeRecordFrames(t *testing.T) {
	prev := runtime.MemProfileRate
	runtime.MemProfileRate = 1
	defer func() { runtime.MemProfileRate = prev }()
	want := []string{"runtime.acquireSudog", "runtime.newproc1", "runtime.malg", "runtime.buildTypeAssertCache", "runtime.buildInterfaceSwitchCache"}

	// A type assertion and a type switch at call sites of their own,
	// missing their caches until the runtime builds them.
	for range assertCacheMisses {
		if !framesAssert(cacheProbe{}) || !framesSwitch(cacheProbe{}) {
			t.Fatal("cacheProbe does not implement cacheProber")
		}
	}

	// Wait records: a collection empties the central cache of them, and a
	// goroutine blocked in one select takes one per channel at once on one
	// P, whose cache holds at most p.sudogbuf's 128; the rest are new.
	runtime.GC()
	release := parkInSelect(4 * sudogsPerP)
	defer release()

	// Goroutine descriptors: the runtime reuses those of dead goroutines,
	// as many as the process ever had at once; parked goroutines, doubling
	// in number from 1,000 each round they are missing, outgrow them.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer func() { close(stop); wg.Wait() }()
	batch := 1000
	deadline := time.Now().Add(recordFramesWait)
	for {
		seen := recordFrames(t)
		var missing []string
		for _, fn := range want {
			if !seen[fn] {
				missing = append(missing, fn)
			}
		}
		if len(missing) == 0 {
			return
		}
		if time.Now().After(deadline) || batch > maxParked {
			t.Fatalf("no heap-profile record below %v: has the runtime renamed them?", missing)
		}
		if slices.Contains(missing, "runtime.malg") || slices.Contains(missing, "runtime.newproc1") {
			wg.Add(batch)
			for range batch {
				go func() {
					defer wg.Done()
					<-stop
				}()
			}
			batch *= 2
			continue
		}
		time.Sleep(time.Millisecond) // the selecting goroutine has not run yet
	}
}

// sudogsPerP is how many wait records a P caches (runtime.p.sudogbuf).
const sudogsPerP = 128

// maxParked bounds the batches of goroutines TestRuntimeRecordFrames
// parks (about 63,000 in all when a descriptor's frame is missing).
const maxParked = 1000 << 5

// recordFramesWait bounds how long TestRuntimeRecordFrames waits for a
// goroutine it started to run: a liveness bound on a busy machine, not a
// measurement.
const recordFramesWait = time.Minute

// parkInSelect starts a goroutine blocked in one select on k channels of
// its own, and returns the function that releases it and waits for it to
// end. Blocked, it holds a wait record per channel.
func parkInSelect(k int) (release func()) {
	cases := make([]reflect.SelectCase, k)
	for i := range cases {
		cases[i] = reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(make(chan struct{}))}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		reflect.Select(cases)
	}()
	return func() {
		cases[0].Chan.Close()
		<-done
	}
}

// recordFrames collects the heap profile's records after a collection and
// returns which of runtimeRecordFrames their stacks pass through.
func recordFrames(t *testing.T) map[string]bool {
	t.Helper()
	runtime.GC()
	seen := map[string]bool{}
	for _, rec := range heapRecords() {
		for f := range stackFrames(&rec) {
			if slices.Contains(runtimeRecordFrames, f.Function) {
				seen[f.Function] = true
			}
		}
	}
	return seen
}

// heapRecords returns every record of the heap profile as it stands (the
// engine's recordBuffer, grown until they fit).
func heapRecords() []runtime.MemProfileRecord { return new(recordBuffer).grow() }

// stackFrames yields the frames of a record's stack, callee first,
// inlined calls included.
func stackFrames(rec *runtime.MemProfileRecord) iter.Seq[runtime.Frame] {
	return func(yield func(runtime.Frame) bool) {
		frames := runtime.CallersFrames(rec.Stack())
		for {
			f, more := frames.Next()
			if !yield(f) || !more {
				return
			}
		}
	}
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
	// Last object first (backwards): a span keeps its objects' records
	// in a list by address, which a record for an object below all the
	// others joins at its head; in allocation order each walked the
	// whole list (a third of this test's CPU, with weakRecordSize).
	// The records and their size are the same in either order.
	before := otherSys()
	for _, p := range slices.Backward(objects[:recordTestObjects]) {
		runtime.SetFinalizer(p, func(*[2]uint64) {})
	}
	mid := otherSys()
	for _, p := range slices.Backward(objects[recordTestObjects:]) {
		runtime.AddCleanup(p, func(int) {}, 0)
	}
	after := otherSys()
	runtime.KeepAlive(objects)
	return map[string]float64{"finalizer": (mid - before) / recordTestObjects, "cleanup": (after - mid) / recordTestObjects, "weak": weakRecordSize(), "profile": profileRecordSize()}, nil
}

// profileRecordSize returns how much runtime.MemStats.OtherSys grows per
// object allocated at runtime.MemProfileRate 1, in this process (fresh:
// no freed record to reuse), less what it grows by when as many objects
// are allocated with profiling off: what the heap's growth adds to
// OtherSys cancels.
func profileRecordSize() float64 {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	otherSys := func() float64 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return float64(ms.OtherSys)
	}
	objects, twins := make([]*[2]uint64, recordTestObjects), make([]*[2]uint64, recordTestObjects)
	prev := runtime.MemProfileRate
	runtime.MemProfileRate = 0
	before := otherSys()
	for i := range twins {
		twins[i] = new([2]uint64)
	}
	mid := otherSys()
	// On a goroutine of its own: each allocation at rate 1 walks its
	// stack, and this one is two frames deep. The records are per object,
	// whatever the stack.
	done := make(chan struct{})
	runtime.MemProfileRate = 1
	go func() {
		for i := range objects {
			objects[i] = new([2]uint64)
		}
		close(done)
	}()
	<-done
	runtime.MemProfileRate = prev
	after := otherSys()
	runtime.KeepAlive(objects)
	runtime.KeepAlive(twins)
	return (after - mid - (mid - before)) / recordTestObjects
}

// weakRecordSize returns how much runtime.MemStats.GCSys grows per weak
// pointer made to a live object (weak.Make), in this process (fresh: no
// freed record to reuse), less what it grows by when as many handles'
// worth of objects are allocated without one: what the heap's growth
// adds to GCSys cancels.
func weakRecordSize() float64 {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	objects := make([]*[2]uint64, recordTestObjects)
	for i := range objects {
		objects[i] = new([2]uint64)
	}
	ptrs := make([]weak.Pointer[[2]uint64], recordTestObjects)
	twins := make([]*[2]uint64, recordTestObjects)
	gcSys := func() float64 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return float64(ms.GCSys)
	}
	before := gcSys()
	for i := range twins {
		twins[i] = new([2]uint64) // as many bytes as the handles take on the heap
	}
	mid := gcSys()
	for i, p := range slices.Backward(objects) { // backwards: see recordSizes
		ptrs[i] = weak.Make(p)
	}
	after := gcSys()
	runtime.KeepAlive(objects)
	runtime.KeepAlive(twins)
	runtime.KeepAlive(ptrs)
	return ((after - mid) - (mid - before)) / recordTestObjects
}

// TestRecordSizes: the sizes the engine counts a finalizer's and a
// cleanup's record at (runtime.specialfinalizer, runtime.specialCleanup)
// are what the runtime takes outside the heap for one, in a fresh
// process: a runtime that changes them fails here.
func TestRecordSizes(t *testing.T) {
	var got struct{ Finalizer, Cleanup, Weak, Profile float64 }
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
	t.Logf("outside the heap: %v B per object allocated at MemProfileRate 1", got.Profile)
	// OtherSys grows by the record and, measured from 100,000 to 2,000,000
	// objects, about 1.7 B more per object that the runtime's source does
	// not say: allowed up to 2 B more beyond the readings' tolerance, and
	// the estimate, which counts the record, falls short by that much.
	if got.Profile < ProfileRecordBytes-tol || got.Profile > ProfileRecordBytes+2+tol {
		t.Errorf("an object allocated at MemProfileRate 1 takes %v B outside the heap, want ProfileRecordBytes %d to %d more (to %v)", got.Profile, ProfileRecordBytes, 2, tol)
	}
	// GCSys grows by the fixed-size allocator's 16 KiB chunks; half a word
	// tells a record of another number of words.
	t.Logf("outside the heap: %v B per weak pointer's handle", got.Weak)
	if wtol := float64(unsafe.Sizeof(uintptr(0))) / 2; math.Abs(got.Weak-weakHandleRecordBytes) > wtol {
		t.Errorf("a weak pointer's handle takes %v B outside the heap, want weakHandleRecordBytes %d (to %v)", got.Weak, weakHandleRecordBytes, wtol)
	}
}

// TestWeakHandleFrame: each weak.Make on an object without a weak pointer
// allocates one handle on the heap below weakHandleFrame, and a second
// weak.Make on the same object none, in this runtime: the engine counts
// the records outside the heap by these handles.
func TestWeakHandleFrame(t *testing.T) {
	const k = 1000
	prev := runtime.MemProfileRate
	runtime.MemProfileRate = 1
	defer func() { runtime.MemProfileRate = prev }()
	objects := make([]*[4]uint64, k)
	for i := range objects {
		objects[i] = new([4]uint64)
	}
	runtime.GC()
	before := newRecordBuffer(recordSpare).snapshot()
	ptrs := make([]weak.Pointer[[4]uint64], 2*k)
	for i, p := range objects {
		ptrs[i] = weak.Make(p)
		ptrs[k+i] = weak.Make(p) // the same handle again
	}
	// The profile is as of the last completed collection.
	runtime.GC()
	runtime.GC()
	after := newRecordBuffer(recordSpare).snapshot()
	runtime.KeepAlive(objects)
	runtime.KeepAlive(ptrs)
	// Counted as account counts them (this test's own frames are the
	// engine's, which account leaves out).
	var handles int64
	for key, c := range after {
		if infoOf(key.stack).weakHandle {
			handles += c.inuse - before[key].inuse
		}
	}
	if handles != k {
		t.Errorf("%d weak pointers to %d objects: %d handles below %s, want %d", 2*k, k, handles, weakHandleFrame, k)
	}
}

// TestRuntimePage: an object larger than the largest size class is given
// a span of its own, whole runtime pages, which the heap counts: objects
// one byte past the largest class (runtime/metrics' allocs-by-size
// buckets) grow the heap by that size rounded up to runtimePage each, in
// this runtime.
func TestRuntimePage(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	// A cycle that an earlier test's garbage started may still be
	// sweeping, freeing objects between the readings (36,408 B read for
	// 40,960 beside four busy loops): runtime.GC returns once its own
	// cycle is swept, and with the collector off none starts after it.
	runtime.GC()
	// The histogram's buckets are the size classes, the last from one
	// byte past the largest to infinity.
	classes := []metrics.Sample{{Name: "/gc/heap/allocs-by-size:bytes"}}
	metrics.Read(classes)
	buckets := classes[0].Value.Float64Histogram().Buckets
	size := uintptr(buckets[len(buckets)-2])
	const objects = 64
	var ms runtime.MemStats
	keep := make([][]byte, objects)
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc
	for i := range keep {
		keep[i] = make([]byte, size)
	}
	runtime.ReadMemStats(&ms)
	runtime.KeepAlive(keep)
	got := float64(ms.HeapAlloc-before) / objects
	want := float64((size + runtimePage - 1) / runtimePage * runtimePage)
	// Other goroutines' allocations between the readings, well under the
	// difference a page of another size would make.
	if tol := float64(runtimePage) / 4; math.Abs(got-want) > tol {
		t.Errorf("a %d-byte object grows the heap by %v B, want %v B (whole pages of runtimePage %d B, to %v B)", size, got, want, runtimePage, tol)
	}
}

// TestPersistentChunk: persistentChunk is the running runtime's
// persistentChunkSize (runtime/malloc.go), the chunk it maps its records
// outside the heap in.
func TestPersistentChunk(t *testing.T) {
	if got := runtimeSourceConst(t, "malloc.go", "persistentChunkSize"); got != persistentChunk {
		t.Errorf("runtime.persistentChunkSize is %d, want persistentChunk %d", got, persistentChunk)
	}
}

// TestGrowthExactRates: the runtime draws its sampling distance as
// -ln(q/2^randomBitCount) rates (runtime.nextSample), at most
// randomBitCount·ln 2 of them, so an object of growthExactRates rates is
// sampled with certainty, and scaled by exactly 1.
func TestGrowthExactRates(t *testing.T) {
	bits := runtimeSourceConst(t, "malloc.go", "randomBitCount")
	if most := float64(bits) * math.Ln2; growthExactRates <= most {
		t.Errorf("the runtime's sampling distance reaches %v rates, want growthExactRates %d above it", most, growthExactRates)
	}
	if scale := 1 / (1 - math.Exp(-growthExactRates)); scale != 1 {
		t.Errorf("a sample of growthExactRates %d rates is scaled by %v, want exactly 1", growthExactRates, scale)
	}
}

// runtimeSourceConst returns the integer constant name declared in file of
// the running runtime's source (GOROOT/src/runtime), at any level of the
// file. The test is skipped where the source is not that of the running
// runtime.
func runtimeSourceConst(t *testing.T, file, name string) int64 {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("no go command to find the runtime's source: %v", err)
	}
	root := strings.TrimSpace(string(out))
	version, err := os.ReadFile(filepath.Join(root, "VERSION"))
	if err != nil || strings.SplitN(string(version), "\n", 2)[0] != runtime.Version() {
		t.Skipf("the source in %s is not that of the running runtime %s", root, runtime.Version())
	}
	path := filepath.Join(root, "src", "runtime", file)
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var val ast.Expr
	ast.Inspect(f, func(n ast.Node) bool {
		if vs, ok := n.(*ast.ValueSpec); ok {
			for i, id := range vs.Names {
				if id.Name == name && i < len(vs.Values) {
					val = vs.Values[i]
				}
			}
		}
		return val == nil
	})
	if val == nil {
		t.Fatalf("no constant %s in %s", name, path)
	}
	v, ok := constant.Int64Val(evalConst(t, val))
	if !ok {
		t.Fatalf("%s in %s is not an integer", name, path)
	}
	return v
}

// evalConst evaluates a constant expression of integer literals.
func evalConst(t *testing.T, e ast.Expr) constant.Value {
	t.Helper()
	switch e := e.(type) {
	case *ast.BasicLit:
		return constant.MakeFromLiteral(e.Value, e.Kind, 0)
	case *ast.ParenExpr:
		return evalConst(t, e.X)
	case *ast.BinaryExpr:
		x, y := evalConst(t, e.X), evalConst(t, e.Y)
		if e.Op == token.SHL || e.Op == token.SHR {
			s, _ := constant.Uint64Val(y)
			return constant.Shift(x, e.Op, uint(s))
		}
		return constant.BinaryOp(x, e.Op, y)
	}
	t.Fatalf("cannot evaluate %T", e)
	return nil
}

// TestRuntimeGrownFrames: below each of runtimeGrownFrames the runtime
// grows an array by replacing it, each new one larger, the one it
// replaced freed: goroutines parked in doubling batches, at
// MemProfileRate 1, leave records below the frame of which more were
// allocated than are live, and the live ones no smaller than any freed.
func TestRuntimeGrownFrames(t *testing.T) {
	prev := runtime.MemProfileRate
	runtime.MemProfileRate = 1
	defer func() { runtime.MemProfileRate = prev }()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer func() { close(stop); wg.Wait() }()
	for _, fn := range runtimeGrownFrames {
		if !slices.Contains(runtimeRecordFrames, fn) {
			t.Errorf("%s is not among runtimeRecordFrames: its arrays would count as the instances'", fn)
		}
	}
	deadline := time.Now().Add(recordFramesWait)
	for batch := 1000; ; batch *= 2 {
		wg.Add(batch)
		for range batch {
			go func() {
				defer wg.Done()
				<-stop
			}()
		}
		runtime.GC()
		runtime.GC()
		grown := grownArrays(t)
		missing := 0
		for _, fn := range runtimeGrownFrames {
			a := grown[fn]
			switch {
			case a.allocs < 2 || a.inuse >= a.allocs:
				missing++
			case a.minLive < a.maxFreed:
				t.Fatalf("below %s a live array of %d B where one of %d B was freed: not grown by replacing", fn, a.minLive, a.maxFreed)
			}
		}
		if missing == 0 {
			return
		}
		if time.Now().After(deadline) || batch > maxParked {
			t.Fatalf("no array replaced below %v: has the runtime stopped growing it so?", runtimeGrownFrames)
		}
	}
}

// grownArray is what the heap profile's records below one frame say.
type grownArray struct {
	allocs, inuse     int64
	minLive, maxFreed int64
}

// grownArrays reads the records below each of runtimeGrownFrames.
func grownArrays(t *testing.T) map[string]grownArray {
	t.Helper()
	out := map[string]grownArray{}
	for _, rec := range heapRecords() {
		for f := range stackFrames(&rec) {
			if slices.Contains(runtimeGrownFrames, f.Function) && rec.AllocObjects > 0 {
				a := out[f.Function]
				size := rec.AllocBytes / rec.AllocObjects
				a.allocs += rec.AllocObjects
				a.inuse += rec.InUseObjects()
				if rec.InUseObjects() > 0 && (a.minLive == 0 || size < a.minLive) {
					a.minLive = size
				}
				if rec.FreeObjects > 0 {
					a.maxFreed = max(a.maxFreed, size)
				}
				out[f.Function] = a
				break
			}
		}
	}
	return out
}

// TestHashSeededFrames: a map, unique's map and sync.Map, grown at
// MemProfileRate 1, allocate their tables and nodes below a frame of each
// of hashSeededFrames' prefixes, in this runtime (a renamed package would
// let their growth pass for a structure's that no seed decides).
func TestHashSeededFrames(t *testing.T) {
	prev := runtime.MemProfileRate
	runtime.MemProfileRate = 1
	// 1,000 entries grow all three (a map makes its first table past
	// its eighth entry and grows it from there; unique's map and
	// sync.Map make a node per entry); 10,000 unique.Make at rate 1 took
	// 0.2 s of CPU.
	const k = 1_000
	m := map[int]*int{}
	var sm sync.Map
	var handles []unique.Handle[[2]uint64]
	for i := range k {
		m[i] = new(int)
		sm.Store(i, i)
		handles = append(handles, unique.Make([2]uint64{uint64(i), 0x5eed}))
	}
	runtime.MemProfileRate = prev
	runtime.GC()
	records := heapRecords()
	// Live until the profile is read, garbage after (a package variable
	// kept them, and their records at rate 1, for the rest of the run).
	runtime.KeepAlive(m)
	runtime.KeepAlive(&sm)
	runtime.KeepAlive(handles)
	seen := map[string]bool{}
	for _, rec := range records {
		if infoOf(rec.Stack0).hashSeeded {
			for f := range stackFrames(&rec) {
				for _, p := range hashSeededFrames {
					if strings.HasPrefix(f.Function, p) {
						seen[p] = true
					}
				}
			}
		}
	}
	for _, p := range hashSeededFrames {
		if !seen[p] {
			t.Errorf("no allocation of a growing map, unique's map or sync.Map below a function named %s*: has the runtime renamed it?", p)
		}
	}
}
