package memprof

import (
	"bytes"
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/pprof"

	"github.com/memprof/memprof/measure"
)

// recordSpare is the room a record buffer keeps for the buckets a build
// adds to the heap profile (one per allocation stack and size): a
// record takes 288 bytes.
const recordSpare = 4096

// attributionPlan says which instances the profiled pass builds: full
// instances below the engine's constructor frames and, when fewer is not
// zero, that many more below their twins (fewerFrames), built beside them to
// tell the sites that cost the same per instance from those that do not.
type attributionPlan struct{ full, fewer int }

// attributionPlan returns what the profiled pass of n instances builds:
// all n when there are few (no more than the two sets would be), or one
// instance (the single layout), or when the layout holds them in one
// backing array (the slice layout: its slot at N comes from N);
// attributionFull and attributionFewer instances otherwise, from which
// attribute extends the sites to N.
func (c *Case) attributionPlan(n int) attributionPlan {
	if ProfiledInstances(c.Layout(), n) == n {
		return attributionPlan{full: n}
	}
	return attributionPlan{full: attributionFull, fewer: attributionFewer}
}

// ProfiledInstances is how many instances of a case of layout l measured
// at n the profiled pass builds in one stretch with the collector off,
// their garbage and its records kept until a collection: all n where
// there are few, one object or one array, else the larger of its two
// sets (attributionPlan), collected between them. A fallback to a
// profile of all n (Result.AttributionFallback) builds n.
func ProfiledInstances(l measure.Layout, n int) int {
	if n <= attributionFull+attributionFewer || l == measure.Slice || l == measure.Single {
		return n
	}
	return max(attributionFull, attributionFewer)
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
//
// Where the runtime grew an array of its own in the build (allgs), the
// free of the one it replaced, which the profile may never have recorded,
// is the runtime's too (recogniseGrownFree).
func (p profiledSet) unexplained() heapCount {
	without := p.live.sub(p.account.total())
	with := recogniseGrownFree(without.sub(p.account.runtime), p.account.grown)
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
	// so that the next reading of the live heap holds none of it. The
	// last one need not (collect false): no reading of this pass follows,
	// and every pass collects before its first (footprintPass,
	// profilePass); unless the profile is kept, which is written as that
	// collection publishes it.
	snapshot := func(b *recordBuffer, collect bool) recordSnapshot {
		runtime.MemProfileRate = 0
		s := b.snapshot()
		if collect {
			runtime.GC()
		}
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
		snaps = append(snaps, snapshot(buf, true))
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
		snaps = append(snaps, snapshot(buf, plan.fewer > 0 || keep))
		if plan.fewer == 0 {
			return
		}
		start = liveHeap()
		if err = c.fill(&fewer, plan.fewer, fewerFrames); err != nil {
			return
		}
		settle()
		lives = append(lives, liveHeap().sub(start))
		snaps = append(snaps, snapshot(buf, keep))
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

// recogniseGrownFree returns u, what the live heap holds beyond what the
// records explain, less the free of arrays that grown (a build's
// largest array the runtime grew, runtimeGrownFrames) replaced: where u
// falls short by no more than grown's bytes and objects, the live heap
// lost an array the profile never recorded (allocated while profiling was
// off), the runtime's own, not the instances'.
func recogniseGrownFree(u, grown heapCount) heapCount {
	if grown.objects == 0 || u.bytes >= 0 {
		return u
	}
	freed := heapCount{min(-u.bytes, grown.bytes), min(max(-u.objects, 0), grown.objects)}
	return heapCount{u.bytes + freed.bytes, u.objects + freed.objects}
}
