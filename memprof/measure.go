package memprof

import (
	"fmt"
	"os"
	"reflect"
	"runtime"
	"sync"
	"time"
	"unsafe"

	"github.com/memprof/memprof/measure"
)

// The automatic warm-up: autoWarmup instances, or as many as fit in
// autoWarmupTime for a slow constructor: for a constructor of a few
// microseconds the count, not the time, ends the warm-up, even on a
// loaded machine.
const (
	autoWarmup     = 10_000
	autoWarmupTime = 2 * time.Second
)

// measureMu serialises measurements in one process: the heap profile and
// MemProfileRate are process-wide.
var measureMu sync.Mutex

// Frame names the engine looks for in the profile; derived from the
// functions themselves so that a renamed module keeps working.
var (
	constructFrame      = funcName(constructInstances)
	sliceFrame          = funcName(constructSlice)
	holderFrame         = funcName(allocHolder)
	fewerConstructFrame = funcName(constructFewerInstances)
	fewerSliceFrame     = funcName(constructFewerSlice)
)

func funcName(f any) string {
	return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
}

// Measure measures case c in this process and returns what one instance
// keeps alive. It holds a process-wide lock while it runs, sets
// runtime.MemProfileRate to 1 for the profiled pass and restores it after.
//
// In a process shared with other code, a test binary included, only
// objects allocated below the engine's constructor frame are attributed
// to sites (other goroutines' allocations cannot be told from the
// instances'), and what else the live heap of a build holds is the
// (unattributed) site, reported with the figure (measure.UnattributedSite):
// objects a worker goroutine allocated for the instances, and whatever
// other goroutines allocated meanwhile. Other goroutines' allocations
// also disturb the HeapAlloc, RSS and off-heap cross-checks. A process
// of its own (MeasureInChild, ServeChild) attributes every object its
// builds add, on any goroutine, to the site that allocated it. (The
// engine reads the heap profile's records, which keep an allocation's
// first 32 frames: in a shared process, an object allocated deeper below
// the constructor than that is (unattributed) too.) The GC scan figure
// also follows the heap's history: instances that fill holes earlier work
// left in their size class share spans with its survivors, which the
// collector may scan by another rule (Green Tea scans a sparsely marked
// span object by object), and the offset is the same in every cycle, so
// the resolution does not show it; a fresh process does not have it.
//
// The instances are released before Measure returns; the Result retains
// nothing of them.
func Measure(c Case, opts ...Option) (*Result, error) {
	o := buildOptions(opts)
	if err := c.check(o); err != nil {
		return nil, err
	}
	o = c.oneOptions(o)
	measureMu.Lock()
	defer measureMu.Unlock()
	oldRate := runtime.MemProfileRate
	runtime.MemProfileRate = 0
	defer func() { runtime.MemProfileRate = oldRate }()

	if c.Prepare != nil {
		if err := c.Prepare(o.N); err != nil {
			return nil, fmt.Errorf("case %s: prepare: %w", c.Name, err)
		}
	}
	sizeof, estimate, returned, err := c.warmup(o)
	if err != nil {
		return nil, err
	}
	if err := CheckMemory(o.N, estimate); err != nil {
		return nil, fmt.Errorf("case %s: %w", c.Name, err)
	}

	if c.SizeOf != 0 {
		sizeof = c.SizeOf
	}
	r := &Result{N: o.N, SizeofBytes: int64(sizeof)}

	// The profiled pass of fewer instances comes first, when their sites
	// will be extended to N: what they allocate decides the rate at which
	// the footprint pass samples all N (fewerSites.sampleRate).
	plan := c.attributionPlan(o.N)
	if o.profileAll {
		plan = attributionPlan{full: o.N}
	}
	sc := scope{mark: markConstruct, whole: o.wholeProcess}
	var fewer *fewerSites
	var pass *profiledPass
	if plan.fewer > 0 {
		if pass, err = c.profilePass(plan, o.N, false, sc, o.Profile != nil); err != nil {
			return nil, err
		}
		fewer = newFewerSites(c.Layout(), plan, pass)
	}

	// Pass 1, profiling off (or sampling), all N instances: the
	// whole-footprint deltas and the live heap they keep, then the
	// collector's readings.
	fp, err := c.footprintPass(o, fewer.sampleRate(o.N), sc)
	if err != nil {
		return nil, err
	}
	c.recordOne(r, fp.built)
	if !o.SkipGC {
		if err := fp.gc.setFigures(r, o.N); err != nil {
			return nil, fmt.Errorf("case %s: %w", c.Name, err)
		}
	}

	// Pass 2, MemProfileRate 1: the sites of fewer instances extended to
	// N with pass 1's readings, or the heap profile of all N.
	fallback := ""
	if fewer != nil {
		fallback = fewer.extend(r, fp)
	}
	if fewer == nil || fallback != "" {
		plan = attributionPlan{full: o.N}
		if pass, err = c.profilePass(plan, o.N, fewer == nil && !o.SkipGC, sc, o.Profile != nil); err != nil {
			return nil, err
		}
		fillFigures(r, c.Layout(), pass)
		r.AttributionFallback = fallback
	}
	later := fewer == nil || fallback != ""
	settleShared(r, c.Layout(), fp, fewer, later, pass)
	if seeded := hashSeededSites(fewer, later, pass); c.Layout() != measure.Single && len(seeded) > 0 {
		if err := c.settleSpread(r, fp, seeded); err != nil {
			return nil, err
		}
	}
	nameSites(r, c.Layout(), returned)
	if o.Profile != nil {
		if _, err := o.Profile.Write(pass.proto); err != nil {
			return nil, fmt.Errorf("case %s: keeping heap profile: %w", c.Name, err)
		}
	}

	setFootprintFigures(r, fp, o.N)
	r.OffheapBytesPerInstance += weakHandleBytes(pass)
	return r, nil
}

// weakHandleBytes is the records outside the heap of the weak pointers'
// handles the profiled pass's instances added (one per object weak.Make
// was called on: weakHandleRecordBytes each), per instance of its first
// set.
func weakHandleBytes(pass *profiledPass) float64 {
	if len(pass.sets) == 0 || pass.plan.full == 0 {
		return 0
	}
	return float64(pass.sets[0].account.weakHandles*weakHandleRecordBytes) / float64(pass.plan.full)
}

// setFootprintFigures sets r's figures of the whole footprint of the N
// instances from the footprint pass's readings: the heap, off-heap,
// stack, runtime metadata, C heap and resident set figures.
func setFootprintFigures(r *Result, fp footprintReadings, N int) {
	before, after := fp.before, fp.after
	n := float64(N)
	heapDelta := float64(int64(after.heapAlloc) - int64(before.heapAlloc))
	r.HeapAllocBytesPerInstance = float64(fp.live.bytes) / n
	// The instances' finalizer and cleanup records, counted; OtherSys,
	// where the runtime keeps them among its other records, stays in the
	// resident set's account below.
	offheap := float64(int64(after.otherSys) - int64(before.otherSys))
	r.OffheapBytesPerInstance = float64(fp.finalizers*finalizerRecordBytes+fp.cleanups*cleanupRecordBytes) / n
	r.StackBytesPerInstance = float64(int64(after.stackInuse)-int64(before.stackInuse)) / n
	r.StackResolution = float64(stackResolution(fp.threads, fp.startingStack)) / n
	meta := float64(int64(after.metaSys) - int64(before.metaSys))
	r.RuntimeMetadataBytesPerInstance = meta / n
	r.RuntimeMetadataResolution = 2 * persistentChunk / n
	var cheap float64
	if before.cHeapWhy == "" && after.cHeapWhy == "" {
		cheap = float64(after.cHeap - before.cHeap)
		v := cheap / n
		r.CHeapBytesPerInstance = &v
	} else {
		r.CHeapUnavailable = after.cHeapWhy
	}
	if before.rss >= 0 && after.rss >= 0 {
		rss := float64(after.rss - before.rss)
		r.RSSBytesPerInstance = rss / n
		stacks := float64(int64(after.stackInuse) - int64(before.stackInuse))
		r.UnaccountedBytesPerInstance = (rss - heapDelta - offheap - meta - stacks - cheap) / n
		// Each reading counts whole pages (off by up to one), and is
		// taken while the runtime fills an off-heap chunk, resident page
		// by page but counted whole by OtherSys and the metadata figures
		// (off by up to one chunk): two of each over N, as the figures
		// are differences of two readings.
		r.RSSResolution = 2 * float64(persistentChunk+os.Getpagesize()) / n
	}
}

// warmup makes and drops a few instances (so lazy one-time set-up is not
// charged to them), checks that New behaves, and returns the size of one
// instance's representation, a generous estimate of the memory N
// instances need, and the type New (or NewSlice, NewAll) returns (nil for
// NewOne, which is built only when measured).
func (c *Case) warmup(o Options) (sizeof uintptr, perInstance uint64, returned reflect.Type, err error) {
	k, deadline := o.Warmup, time.Time{}
	if k < 0 {
		k, deadline = min(o.N, autoWarmup), time.Now().Add(autoWarmupTime)
	}
	k = max(k, 2)
	if c.NewOne != nil {
		return c.SizeOf, 0, nil, nil // one object, built once per pass: no warm-up
	}
	if c.NewAll != nil {
		v, err := callNewMany(c, k)
		if err != nil {
			return 0, 0, nil, err
		}
		return c.SizeOf, uint64(c.SizeOf) + 128, reflect.TypeOf(v), nil
	}
	if c.NewSlice != nil {
		v, err := callNewMany(c, k)
		if err != nil {
			return 0, 0, nil, err
		}
		t := reflect.TypeOf(v)
		if t.Kind() != reflect.Slice {
			return 0, 0, nil, fmt.Errorf("case %s: NewSlice returned %s, want a slice", c.Name, t)
		}
		if got := reflect.ValueOf(v).Len(); got != k {
			return 0, 0, nil, fmt.Errorf("case %s: NewSlice(%d) returned %d instances", c.Name, k, got)
		}
		size := t.Elem().Size()
		return size, uint64(size) + 64, t, nil
	}
	first, err := callNew(c, 0)
	if err != nil {
		return 0, 0, nil, err
	}
	prev := first
	for i := 1; i < k && (deadline.IsZero() || i < 2 || time.Now().Before(deadline)); i++ {
		v, err := callNew(c, i)
		if err != nil {
			return 0, 0, nil, err
		}
		if err := c.checkDistinct(i, prev, v); err != nil {
			return 0, 0, nil, err
		}
		prev = v
	}
	size := representationSize(first)
	// Round up to the next power of two as a stand-in for size classes,
	// plus the holder and map-like hidden costs.
	est := uint64(1)
	for est < uint64(size) {
		est <<= 1
	}
	return size, est + 64, reflect.TypeOf(first), nil
}

// representationSize is unsafe.Sizeof of what v represents: the pointee for
// a pointer, the value itself otherwise.
func representationSize(v any) uintptr {
	t := reflect.TypeOf(v)
	if t.Kind() == reflect.Pointer {
		return t.Elem().Size()
	}
	return t.Size()
}

// dataWord returns the data word of an interface value: the pointer itself
// for pointer-shaped types, the box otherwise.
func dataWord(v any) unsafe.Pointer {
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&v))[1]
}

func isNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface, reflect.UnsafePointer:
		return rv.IsNil()
	}
	return false
}

func callNew(c *Case, i int) (v any, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("case %s: New(%d) panicked: %v", c.Name, i, p)
		}
	}()
	v = c.New(i)
	if isNil(v) {
		return nil, fmt.Errorf("case %s: New(%d) returned nil", c.Name, i)
	}
	return v, nil
}

func callNewMany(c *Case, n int) (v any, err error) {
	name := c.manyName()
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("case %s: %s(%d) panicked: %v", c.Name, name, n, p)
		}
	}()
	v = c.newMany()(n)
	if isNil(v) {
		return nil, fmt.Errorf("case %s: %s(%d) returned nil", c.Name, name, n)
	}
	return v, nil
}

func (c *Case) manyName() string {
	switch {
	case c.NewSlice != nil:
		return "NewSlice"
	case c.NewOne != nil:
		return "NewOne"
	}
	return "NewAll"
}

// settle runs two GC cycles after the instances are built: the first frees
// the construction's garbage and publishes the heap profile as of that
// cycle (runtime.GC does), and queues the finalizers of garbage that has
// them; the second frees what those finalizers released.
func settle() {
	runtime.GC()
	runtime.GC()
}

// The profiled pass builds at most attributionFull instances below the
// engine's constructor frames and attributionFewer below their twins: a
// few thousand, so that every site of an instance appears in thousands of
// them, and multiples of 64 (the suites cycle through 64 vectors). They
// are four times apart, so that a structure growing in steps (a map's
// tables, a slice grown by append, rounded to the allocator's size
// classes) does not keep the same bytes in both, which would make it look
// like a structure's header, allocated once.
const (
	attributionFull  = 2048
	attributionFewer = 512
)

// hold returns what will keep n instances alive, still empty: the
// engine's holder of n nil entries for the pointer layout, nothing for
// the others (their constructor returns the structure).
func (c *Case) hold(n int) held {
	if c.New == nil {
		return held{}
	}
	return held{holder: allocHolder(n)}
}

// frames are the engine's constructor frames a pass builds instances
// below: the profile tells the instances of each apart by them.
type frames struct {
	instances func(newFn func(int) any, holder []any) (at int, panicked any)
	slice     func(newSlice func(int) any, n int) (v any, panicked any)
}

var (
	// mainFrames build every pass's instances.
	mainFrames = frames{constructInstances, constructSlice}
	// fewerFrames build the profiled pass's other instances (see
	// attributionPlan).
	fewerFrames = frames{constructFewerInstances, constructFewerSlice}
)

// fill makes the n instances into h, below the frames f.
func (c *Case) fill(h *held, n int, f frames) error {
	if many := c.newMany(); many != nil {
		v, p := f.slice(many, n)
		if p != nil {
			return fmt.Errorf("case %s: %s(%d) panicked: %v", c.Name, c.manyName(), n, p)
		}
		if isNil(v) {
			return fmt.Errorf("case %s: %s(%d) returned nil", c.Name, c.manyName(), n)
		}
		h.many = v
		return nil
	}
	holder := h.holder
	if at, p := f.instances(c.New, holder); p != nil {
		return fmt.Errorf("case %s: New(%d) panicked: %v", c.Name, at, p)
	}
	for i, v := range holder {
		if isNil(v) {
			return fmt.Errorf("case %s: New(%d) returned nil", c.Name, i)
		}
		if i > 0 {
			if err := c.checkDistinct(i, holder[i-1], v); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkDistinct fails when instance i is the object instance i-1 was: a
// shared object would measure as 0 B per instance.
func (c *Case) checkDistinct(i int, prev, v any) error {
	if w := dataWord(v); w != nil && w == dataWord(prev) {
		return fmt.Errorf("case %s: New returned the same object for instances %d and %d; each instance must be a new allocation (a shared object would measure as 0 B per instance)", c.Name, i-1, i)
	}
	return nil
}

// allocHolder allocates the harness's own slice that keeps instances alive.
// Its frame marks the holder in the profile.
//
//go:noinline
func allocHolder(n int) []any {
	return make([]any, n)
}

// constructInstances fills holder with New(i). Everything allocated below
// this frame and still live is charged to the instances.
//
//go:noinline
func constructInstances(newFn func(int) any, holder []any) (at int, panicked any) {
	return buildInstances(newFn, holder)
}

// constructSlice calls NewSlice(n) or NewAll(n). Everything allocated below this frame
// and still live is charged to the instances.
//
//go:noinline
func constructSlice(newSlice func(int) any, n int) (v any, panicked any) {
	return buildSlice(newSlice, n)
}

// constructFewerInstances is constructInstances below a frame of its own:
// the profiled pass's other instances (see attributionPlan).
//
//go:noinline
func constructFewerInstances(newFn func(int) any, holder []any) (at int, panicked any) {
	return buildInstances(newFn, holder)
}

// constructFewerSlice is constructSlice below a frame of its own.
//
//go:noinline
func constructFewerSlice(newSlice func(int) any, n int) (v any, panicked any) {
	return buildSlice(newSlice, n)
}

// buildInstances fills holder with New(i) and returns what New panicked
// with, if it did, and at which i.
func buildInstances(newFn func(int) any, holder []any) (at int, panicked any) {
	defer func() {
		if p := recover(); p != nil {
			panicked = p
		}
	}()
	for i := range holder {
		at = i
		holder[i] = newFn(i)
	}
	return 0, nil
}

// buildSlice calls newSlice(n) and returns what it panicked with, if it
// did.
func buildSlice(newSlice func(int) any, n int) (v any, panicked any) {
	defer func() {
		if p := recover(); p != nil {
			panicked = p
		}
	}()
	return newSlice(n), nil
}
