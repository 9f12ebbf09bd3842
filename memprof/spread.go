package memprof

import (
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"slices"
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
	maxSpreadBuild = 5 * time.Second
)

// hashSeededSites returns the sites of r's figure that hold growth of a
// hash-seeded structure, by function and line: those below
// hashSeededFrames that the profiled sets (fewer) do not find to cost the
// same per instance or once, of the sites extended to N or of those of a
// profile of all N (later, pass).
func hashSeededSites(fewer *fewerSites, later bool, pass *profiledPass) map[siteKey]bool {
	own := map[siteKey]bool{}
	var rows []siteRow
	if fewer != nil {
		for i, row := range fewer.full {
			if fewer.classes[i] != grows {
				own[siteKey{function: row.site.function, line: row.site.line}] = true
			}
		}
		rows = fewer.full
	}
	if later && pass != nil && len(pass.sets) > 0 {
		rows = pass.sets[0].account.sites
	}
	sites := map[siteKey]bool{}
	for _, row := range rows {
		if k := (siteKey{function: row.site.function, line: row.site.line}); row.hashSeeded && !own[k] {
			sites[k] = true
		}
	}
	return sites
}

// seedSpread is how far a hash-seeded structure's bytes may fall from
// one build to another: the count of its tables or nodes, k at N, varies
// as a count of random events does, by about √k, each of its largest
// slot. Two builds (this run and a reader's repeat) differ by √2 times
// that; twice their difference, over N, for each of sites.
func seedSpread(r *Result, sites map[siteKey]bool) float64 {
	var spread float64
	for _, s := range r.Sites {
		if !sites[siteKey{function: s.Function, line: s.Line}] || len(s.SlotSizes) == 0 {
			continue
		}
		k := s.AllocsPerInstance * float64(r.N)
		spread += 2 * math.Sqrt(2*max(k, 1)) * float64(slices.Max(s.SlotSizes)) / float64(r.N)
	}
	return spread
}

// settleSpread widens r's resolution to the spread of the live heap of
// the N instances over the footprint pass's build and spreadBuilds more
// (fp.live is the first), and says so in r.HeapNote. The instances must
// not stay reachable once dropped (a registry's fill, not its seed,
// would decide the spread: settleShared covers it).
//
// The builds share the structure's seed where it lives as long as the
// process (unique's map, a package's map): their spread can be less than
// that of processes, each with a seed of its own, and the resolution is
// at least seedSpread of the sites.
func (c *Case) settleSpread(r *Result, fp footprintReadings, sites map[siteKey]bool) error {
	if r.RetainedBytesPerInstance != 0 {
		return nil
	}
	floor := seedSpread(r, sites)
	note := func(s string) {
		if r.HeapNote != "" {
			r.HeapNote += "; "
		}
		r.HeapNote += s
	}
	if fp.built.took > maxSpreadBuild {
		r.HeapResolution = max(r.HeapResolution, floor)
		note(fmt.Sprintf("the instances grow a structure whose layout follows its hash seed; one build of N took %v, too long to repeat: the resolution covers the spread of its tables' or nodes' count, %.4g B per instance", fp.built.took.Round(time.Millisecond), floor))
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
	r.HeapResolution = max(r.HeapResolution, spread, floor)
	note(fmt.Sprintf("the instances grow a structure whose layout follows its hash seed: %d builds of N spread over %.4g B per instance, and the count of its tables or nodes by about %.4g; the resolution covers both", spreadBuilds+1, spread, floor))
	return nil
}
