package memprof

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"time"
)

// A structure whose layout follows a hash seed (a map, unique's map)
// takes a number of tables or nodes for N entries that depends on their
// hashes: one build's figure is one draw. Where the instances grow one
// (a site below hashSeededFrames that does not cost the same per
// instance), the engine builds the N instances spreadBuilds more times,
// with profiling off, and widens the resolution to the spread of the
// live heaps of all the builds: each build's new keys fall where the seed
// puts them, as another seed's would.
const (
	spreadBuilds = 2
	// maxSpreadBuild bounds the build those repeat (the footprint
	// pass's): slower builds are not repeated, and the note says so.
	maxSpreadBuild = time.Second
)

// hashSeededGrowth reports whether r's figure holds growth of a
// hash-seeded structure: a site the profiled sets (fewer) find growing
// in steps below hashSeededFrames or, for sites from a profile of all N
// (pass), any site below them.
func hashSeededGrowth(fewer *fewerSites, later bool, pass *profiledPass) bool {
	if !later && fewer != nil {
		for i, row := range fewer.full {
			if fewer.classes[i] == grows && row.hashSeeded {
				return true
			}
		}
		return false
	}
	if pass == nil || len(pass.sets) == 0 {
		return false
	}
	for _, row := range pass.sets[0].account.sites {
		if row.hashSeeded {
			return true
		}
	}
	return false
}

// settleSpread widens r's resolution to the spread of the live heap of
// the N instances over the footprint pass's build and spreadBuilds more
// (fp.live is the first), and says so in r.HeapNote. The instances must
// not stay reachable once dropped (a registry's fill, not its seed,
// would decide the spread: settleShared covers it).
func (c *Case) settleSpread(r *Result, fp footprintReadings) error {
	if r.RetainedBytesPerInstance != 0 {
		return nil
	}
	note := func(s string) {
		if r.HeapNote != "" {
			r.HeapNote += "; "
		}
		r.HeapNote += s
	}
	if fp.built.took > maxSpreadBuild {
		note(fmt.Sprintf("the instances grow a structure whose layout follows its hash seed; one build of N took %v, too long to repeat: the spread of builds is not measured", fp.built.took.Round(time.Millisecond)))
		return nil
	}
	qr, err := newQueueReader()
	if err != nil {
		return err
	}
	lo, hi := fp.live.bytes, fp.live.bytes
	for range spreadBuilds {
		// Dropped instances' cleanups (unique's own, which remove their
		// entries) run before the build, as before the footprint pass's.
		qr.drain()
		h := c.hold(r.N)
		start := liveHeap()
		if err := c.fill(&h, r.N, mainFrames); err != nil {
			return err
		}
		runtime.GC()
		debug.FreeOSMemory()
		live := liveHeap().sub(start).bytes
		h.drop()
		runtime.KeepAlive(h.holder)
		lo, hi = min(lo, live), max(hi, live)
	}
	runtime.GC()
	spread := float64(hi-lo) / float64(r.N)
	r.HeapResolution = max(r.HeapResolution, spread)
	note(fmt.Sprintf("the instances grow a structure whose layout follows its hash seed: %d builds of N spread over %.4g B per instance, which the resolution covers", spreadBuilds+1, spread))
	return nil
}
