package memprof

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
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
// the constructor than that is (unattributed) too.)
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
	before, after := fp.before, fp.after
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
	nameSites(r, c.Layout(), returned)
	if o.Profile != nil {
		if _, err := o.Profile.Write(pass.proto); err != nil {
			return nil, fmt.Errorf("case %s: keeping heap profile: %w", c.Name, err)
		}
	}

	n := float64(o.N)
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
	return r, nil
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

// footprintReadings are what the footprint pass reads of N instances.
type footprintReadings struct {
	// before and after are the process's memory before the holder is
	// allocated and once the instances are built and their garbage
	// collected.
	before, after footprint
	// live is what the instances keep: the live heap's growth across
	// their construction, from once the holder is allocated. Nothing
	// else is allocated between the readings but what the runtime takes
	// for itself (a wait's record, and the records of each thread it
	// starts meanwhile, threads), rarely and little.
	live    heapCount
	threads int
	built   builtInstances
	// builtCPU is the CPU time building the instances took (buildClock).
	builtCPU time.Duration
	gc       gcReadings
	// finalizers and cleanups are how many the instances had: the
	// runtime's counts of queued finalizers and cleanups moved by them
	// when the instances were dropped and collected.
	finalizers, cleanups int64
	// startingStack is the stack size of new goroutines once the
	// instances were built.
	startingStack int64
	// sampleRate is the rate at which the pass sampled its allocations
	// (footprintSampleRate), 0 for none; sampled is what the sampled heap
	// profile says the build added, within the measurement's scope.
	sampleRate int
	sampled    *buildAccount
}

// footprintPass allocates N instances with profiling off (or sampling at
// sampleRate) and reads the process's memory before and after; around
// them, unless o.SkipGC, the collector's readings (gcPass): with the
// holder alone before the instances are built, and with the instances
// live and then dropped after. It also returns what c.recordOne reads of
// the instances and how long building them took, and how many finalizers
// and cleanups they had. Between its readings of the heap the engine
// allocates nothing (readFootprint, the record buffers, the GC
// readings), so that their difference is the instances'.
//
// With sampleRate above 0 the pass samples allocations at that
// runtime.MemProfileRate and returns what the heap profile's records say
// the build added, within sc (fp.sampled): the sites of all N instances,
// estimated from a few thousand samples, and exactly those of large
// objects.
func (c *Case) footprintPass(o Options, sampleRate int, sc scope) (fp footprintReadings, err error) {
	n := o.N
	gr, err := newGCReader()
	if err != nil {
		return fp, fmt.Errorf("case %s: %w", c.Name, err)
	}
	qr, err := newQueueReader()
	if err != nil {
		return fp, fmt.Errorf("case %s: %w", c.Name, err)
	}
	startThreads()
	fp.gc = newGCReadings()
	fp.sampleRate = sampleRate
	var recsBefore, recsAfter *recordBuffer
	var snapBefore recordSnapshot
	if sampleRate > 0 {
		recsBefore, recsAfter = newRecordBuffer(recordSpare), newRecordBuffer(2*recordSpare)
	}
	st := openStatm()
	defer st.close()
	defer func() { runtime.MemProfileRate = 0 }()
	// FreeOSMemory runs a GC and returns free pages, so that the RSS
	// reading starts from the live heap only; the second cycle frees what
	// finalizers queued by the first released (and what sync.Pool caches
	// the first one moved aside held), and what taking the snapshot of the
	// heap profile's records left.
	qr.drain()
	debug.FreeOSMemory()
	if sampleRate > 0 {
		snapBefore = recsBefore.snapshot()
	}
	runtime.GC()
	fp.before = readFootprint(st)
	runtime.MemProfileRate = sampleRate
	h := c.hold(n)
	held, threads := liveHeap(), threadsCreated()
	if !o.SkipGC {
		gr.cycles(fp.gc.before)
	}
	start, startCPU := time.Now(), buildClock()
	err = c.fill(&h, n, mainFrames)
	fp.built = c.built(&h, time.Since(start))
	fp.builtCPU = buildClock() - startCPU
	if err != nil {
		return fp, err
	}
	// One cycle frees the construction's garbage and queues the
	// finalizers of what has them; FreeOSMemory's cycle frees what they
	// released, and returns the free pages, so that the RSS reading holds
	// what the instances keep resident.
	runtime.GC()
	debug.FreeOSMemory()
	fp.after = readFootprint(st)
	fp.live = heapCount{int64(fp.after.heapAlloc), int64(fp.after.heapObjects)}.sub(held)
	fp.threads = threadsCreated() - threads
	runtime.MemProfileRate = 0
	var afterRecs []runtime.MemProfileRecord
	if sampleRate > 0 {
		// The records as of the last collection, while the instances are
		// alive; read into a buffer allocated beforehand (or, when they
		// do not fit, into a new one, collecting the old).
		var ok bool
		if afterRecs, ok = recsAfter.read(); !ok {
			afterRecs = recsAfter.grow()
			runtime.GC()
		}
	}
	fp.startingStack = qr.startingStack()
	q0 := qr.read()
	var q1 queueCounts
	if o.SkipGC {
		h.drop()
		settle()
		q1 = qr.read()
	} else if err := c.gcPass(&h, n, fp.builtCPU, gr, &fp.gc, func() { q1 = qr.read() }); err != nil {
		return fp, fmt.Errorf("case %s: %w", c.Name, err)
	}
	fp.finalizers, fp.cleanups = int64(q1.finalizersQueued-q0.finalizersQueued), int64(q1.cleanupsQueued-q0.cleanupsQueued)
	if sampleRate > 0 {
		a := account(snapBefore, snapshotOf(afterRecs), sc, sampleRate)
		fp.sampled = &a
	}
	runtime.KeepAlive(recsAfter)
	return fp, nil
}

// recordSpare is the room a record buffer keeps for the buckets a build
// adds to the heap profile (one per allocation stack and size): a
// record takes 288 bytes.
const recordSpare = 4096

// attributionPlan says which instances the profiled pass builds: full
// instances below the engine's constructor frames and, when fewer is not
// zero, that many more below their twins (fewerFrames), built beside them to
// tell the sites that cost the same per instance from those that do not.
type attributionPlan struct{ full, fewer int }

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

// attributionPlan returns what the profiled pass of n instances builds:
// all n when there are few (no more than the two sets would be), or one
// instance (the single layout), or when the layout holds them in one
// backing array (the slice layout: its slot at N comes from N);
// attributionFull and attributionFewer instances otherwise, from which
// attribute extends the sites to N.
func (c *Case) attributionPlan(n int) attributionPlan {
	if n <= attributionFull+attributionFewer || c.Layout() == measure.Slice || c.Layout() == measure.Single {
		return attributionPlan{full: n}
	}
	return attributionPlan{full: attributionFull, fewer: attributionFewer}
}

// profiledSet is what one set of the profiled pass's instances added to
// the heap: its sites, and the live heap's growth across its build (from
// once the holder is allocated).
type profiledSet struct {
	account buildAccount
	live    heapCount
}

// unexplained is the part of the set's live heap that neither its sites
// nor the runtime's records explain. The runtime's records that the
// snapshots show may or may not be in the live heap's readings (a thread
// the runtime starts for the collection that publishes a snapshot
// allocates its records after the reading before it): of the two
// accounts, with and without them, the one closer to the live heap.
func (p profiledSet) unexplained() heapCount {
	without := p.live.sub(p.account.total())
	with := without.sub(p.account.runtime)
	if abs(with.bytes) <= abs(without.bytes) {
		return with
	}
	return without
}

// profiledPass is what the profiled pass read: its sets of instances (the
// plan.full below the engine's constructor frames, then the plan.fewer
// below their twins), the threads the runtime started meanwhile, and the
// heap profile as written, when it was asked for.
type profiledPass struct {
	plan    attributionPlan
	sets    []profiledSet
	threads int
	proto   []byte
}

// profilePass builds the instances of plan at MemProfileRate 1, on a
// shallow stack (onShallowStack), and returns what each set added to the
// heap: a snapshot of the heap profile's records and a reading of the
// live heap after a collection before the set is built and after it
// (settled: its garbage collected), within sc. Unless collected (the GC
// pass dropped and collected the footprint pass's instances), it
// collects them first. The pointer layout's holder is one of n entries,
// as the footprint pass's, of which the two sets take the first ones: the
// holder's figure is that at N. With keep, it also writes the heap
// profile, while the instances are alive.
func (c *Case) profilePass(plan attributionPlan, n int, collected bool, sc scope, keep bool) (*profiledPass, error) {
	if !collected {
		runtime.GC() // frees the footprint pass's instances
	}
	if qr, err := newQueueReader(); err == nil {
		qr.drain() // and those an earlier pass left with finalizers
	}
	pass := &profiledPass{plan: plan}
	buf := newRecordBuffer(recordSpare)
	// snapshot takes a snapshot of the records, with profiling off (its
	// own allocations are not the instances'), and collects what it left
	// so that the next reading of the live heap holds none of it.
	snapshot := func(b *recordBuffer) recordSnapshot {
		runtime.MemProfileRate = 0
		s := b.snapshot()
		runtime.GC()
		runtime.MemProfileRate = 1
		return s
	}
	// The rate stays 1 until the profile is written: the profile's period
	// and its scaling are taken from the rate at write time.
	defer func() { runtime.MemProfileRate = 0 }()
	// The collector is off while the instances are built: a cycle started
	// by one of the constructor's allocations would allocate the runtime's
	// own objects meanwhile, and the heap would not settle where the
	// footprint pass's does. The footprint pass keeps the collector on,
	// so its RSS is not inflated by garbage.
	var full, fewer held
	var err error
	threads := threadsCreated()
	// The snapshots and live-heap readings around each set, in room
	// allocated beforehand: what each set added is worked out once the
	// pass is over, with profiling off, so that none of it is in a set's
	// readings.
	snaps := make([]recordSnapshot, 0, 3)
	lives := make([]heapCount, 0, 2)
	onShallowStack(func() {
		snaps = append(snaps, snapshot(buf))
		h := c.hold(n)
		if h.holder != nil {
			full.holder, fewer.holder = h.holder[:plan.full], h.holder[plan.full:plan.full+plan.fewer]
		}
		start := liveHeap()
		gcPercent := debug.SetGCPercent(-1)
		defer debug.SetGCPercent(gcPercent)
		if err = c.fill(&full, plan.full, mainFrames); err != nil {
			return
		}
		settle()
		lives = append(lives, liveHeap().sub(start))
		snaps = append(snaps, snapshot(buf))
		if plan.fewer == 0 {
			return
		}
		start = liveHeap()
		if err = c.fill(&fewer, plan.fewer, fewerFrames); err != nil {
			return
		}
		settle()
		lives = append(lives, liveHeap().sub(start))
		snaps = append(snaps, snapshot(buf))
	})
	pass.threads = threadsCreated() - threads
	if err != nil {
		return nil, err
	}
	runtime.MemProfileRate = 0
	for i, mark := range []frameMark{markConstruct, markFewer}[:len(lives)] {
		pass.sets = append(pass.sets, profiledSet{
			account: account(snaps[i], snaps[i+1], scope{mark: mark, whole: sc.whole}, 1),
			live:    lives[i],
		})
	}
	runtime.MemProfileRate = 1
	if keep {
		var buf bytes.Buffer
		if err := pprof.Lookup("heap").WriteTo(&buf, 0); err != nil {
			return nil, fmt.Errorf("case %s: writing heap profile: %w", c.Name, err)
		}
		pass.proto = buf.Bytes()
	}
	for _, h := range []*held{&full, &fewer} {
		runtime.KeepAlive(h.holder)
		runtime.KeepAlive(h.many)
	}
	return pass, nil
}

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
