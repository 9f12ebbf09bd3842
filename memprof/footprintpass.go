package memprof

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"time"
)

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
	// retained is what the live heap still holds, the holder aside, once
	// the instances are dropped and collected: what a structure they
	// entered keeps of them (a registry), and the runtime's churn.
	retained heapCount
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
	// heap profile's records left, and returns the pages they freed too:
	// a page freed by a plain collection stays resident until a later
	// FreeOSMemory returns it, which would take it off the RSS growth of
	// the build (a [64]byte with a finalizer read -43 B unaccounted per
	// instance where a fresh process reads -30).
	flushProcCaches()
	qr.drain()
	debug.FreeOSMemory()
	if sampleRate > 0 {
		snapBefore = recsBefore.snapshot()
	}
	debug.FreeOSMemory()
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
	dropped := func() {
		q1 = qr.read()
		// The live heap of a fresh collection: the GC readings since the
		// last one allocate, and their garbage is not what stays (a few
		// KiB of it read as a registry's growth at N = 100,000).
		runtime.GC()
		fp.retained = liveHeap().sub(held)
	}
	if o.SkipGC {
		h.drop()
		settle()
		dropped()
	} else if err := c.gcPass(&h, n, fp.builtCPU, gr, &fp.gc, dropped); err != nil {
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
