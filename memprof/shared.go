package memprof

import (
	"fmt"
	"math"

	"github.com/memprof/memprof/measure"
)

// Growth shared among the instances (a registry they all enter: a map, a
// slice, the runtime's timer heaps) is what the N instances add to it
// from the state it is in when they are built. The footprint pass builds
// them from one state: after the warm-up and the profiled pass. Where the
// instances stay reachable after the engine drops them (the registry
// keeps them), every later build starts from a fuller registry: a
// profile of all N taken after the footprint pass (a fallback, or the
// profile of all N of few instances) crosses other steps of its growth
// than the footprint pass did. settleShared takes the figure from the
// footprint pass's state then, and widens the resolution to the growth
// the instances share, which a registry's fill decides.

// settleShared checks r's figure against the footprint pass's live heap
// (fp) and, where the instances stay reachable after they are dropped,
// says so and widens the resolution to the growth they share: the sites
// that fewer (the profiled pass's two sets, nil for none) does not find
// to cost the same per instance or once. later says that r's sites come
// from a profile of all N taken after the footprint pass, whose build
// added pass's runtime records (exact) to the live heap.
//
// A case of one object (the single layout) is left alone: its footprint
// pass runs the lazy set-up its profiled build does not (see one.go).
func settleShared(r *Result, layout measure.Layout, fp footprintReadings, fewer *fewerSites, later bool, pass *profiledPass) {
	if layout == measure.Single {
		return
	}
	n := float64(r.N)
	tol := liveTolerance(fp.threads)
	// The footprint pass's figure: its live heap less the runtime's
	// records, as its sampled profile estimates them, or as the profile of
	// all N counted them in its own build.
	var rt heapCount
	var sigma float64
	switch {
	case fp.sampled != nil:
		rt, sigma = fp.sampled.runtime, math.Sqrt(fp.sampled.runtimeVariance)
	case later && pass != nil && len(pass.sets) > 0:
		rt = pass.sets[0].account.runtime
	}
	// What stays live once the instances are dropped, the runtime's
	// records aside (goroutine descriptors, which it never frees).
	kept := fp.retained.sub(rt)
	retained := float64(kept.bytes) > float64(tol.bytes)+4*sigma
	if retained {
		r.RetainedBytesPerInstance = float64(kept.bytes) / n
	}
	// What the live heap holds beyond the sites and the records, but for
	// the free of an array of goroutines the profile never recorded.
	var grown heapCount
	if fp.sampled != nil {
		grown = fp.sampled.grown
	}
	sites := heapCount{int64(math.Round(r.BytesPerInstance * n)), int64(math.Round(r.AllocsPerInstance * n))}
	u := recogniseGrownFree(fp.live.sub(rt).sub(sites), grown)
	diff, diffObjects := float64(u.bytes)/n, float64(u.objects)/n
	slack := float64(tol.bytes)/n + r.HeapResolution
	// Without a sampled profile of the footprint pass, its own runtime
	// records are unknown where the later build had any: a goroutine's
	// descriptor that build reused, the footprint pass's allocated.
	unknown := fp.sampled == nil && rt != (heapCount{})
	switch {
	case math.Abs(diff) <= slack:
	case unknown:
		r.HeapNote = fmt.Sprintf("the live heap of the N instances (heapalloc_bytes_per_instance) holds the runtime's own records beside them (goroutine descriptors, wait records, never the instances'), which the footprint pass did not sample; the profile of all N counted %.4g B per instance of them in its own build", float64(rt.bytes)/n)
	case math.Abs(diff) <= slack+4*sigma/n:
		r.HeapNote = fmt.Sprintf("the live heap of the N instances (heapalloc_bytes_per_instance) holds the runtime's own records beside them, about %.4g B per instance as the sampled profile estimates them (to ±%.4g): goroutine descriptors and wait records, never the instances'", float64(rt.bytes)/n, 4*sigma/n)
	case later && retained:
		// The profile's build started from a registry the footprint pass
		// had filled: the figure is the footprint pass's, and what the
		// sites of the later build do not explain of it the
		// (unattributed) site's.
		addUnattributed(r, diff, diffObjects)
		r.HeapNote = fmt.Sprintf("the instances stay reachable after they are dropped (a registry keeps them), and all N were profiled after the footprint pass had added N of them: the figure is the footprint pass's live heap of the N instances, and (unattributed) the %.4g B per instance by which the later build's sites differ from it", diff)
	default:
		r.HeapResolution = max(r.HeapResolution, math.Abs(diff))
		r.HeapNote = fmt.Sprintf("the sites differ from the live heap of the N instances less the runtime's records by %.4g B per instance, which the resolution covers", diff)
	}
	if !retained || fewer == nil {
		return
	}
	own := map[[2]string]bool{} // function and line of the sites that cost the same per instance, or once
	for i, row := range fewer.full {
		if fewer.classes[i] != grows && row.site != unattributedKey {
			own[[2]string{row.site.function, fmt.Sprint(row.site.line)}] = true
		}
	}
	var shared float64
	for _, s := range r.Sites {
		if !own[[2]string{s.Function, fmt.Sprint(s.Line)}] {
			shared += s.BytesPerInstance
		}
	}
	if shared = math.Abs(shared); shared > r.HeapResolution {
		r.HeapResolution = shared
		if r.HeapNote != "" {
			r.HeapNote += "; "
		}
		r.HeapNote += fmt.Sprintf("the instances stay reachable after they are dropped (a registry keeps %.4g B per instance of them once they are dropped): what they add to what they share (%.4g B per instance here) depends on how full it was when they were built, and the resolution covers it", r.RetainedBytesPerInstance, shared)
	}
}

// addUnattributed adds bytes and objects per instance to r's figures and
// to its (unattributed) site, adding the site where r has none.
func addUnattributed(r *Result, bytes, objects float64) {
	r.BytesPerInstance += bytes
	r.AllocsPerInstance += objects
	for i := range r.Sites {
		if r.Sites[i].Function == measure.UnattributedSite {
			r.Sites[i].BytesPerInstance += bytes
			r.Sites[i].AllocsPerInstance += objects
			return
		}
	}
	r.Sites = append(r.Sites, Site{Function: measure.UnattributedSite, BytesPerInstance: bytes, AllocsPerInstance: objects})
}
