package memprof

import (
	"fmt"
	"math"
	"slices"

	"github.com/memprof/memprof/measure"
)

// Extending the sites of fewer instances to N. The profiled pass builds
// attributionFull instances and then attributionFewer more, reading what
// each set adds to the heap; comparing a site's bytes and objects in the
// two sets tells how it grows with the instances (siteClass). The
// footprint pass's live heap of all N instances, and the heap profile it
// samples meanwhile, check the sites at N and give what the sites that
// grow in steps keep there.

// liveTolerance is how far the sites' account of a build can be from its
// live heap and still account for it, when the runtime started threads
// threads meanwhile.
func liveTolerance(threads int) heapCount {
	t := int64(max(threads, 0))
	return heapCount{liveSlackBytes + t*runtimePage, liveSlackObjects + t*runtimePage/16}
}

// within reports whether h is within tol of zero, bytes and objects.
func (h heapCount) within(tol heapCount) bool {
	return abs(h.bytes) <= tol.bytes && abs(h.objects) <= tol.objects
}

// footprintSamples is about how many allocations the footprint pass
// samples when the sites of fewer instances are extended to its N: its
// sampling rate (footprintSampleRate) is what the N instances' build
// allocates, estimated from the profiled instances, over footprintSamples.
// So a site that keeps a few percent of what the instances allocate shows
// in the sampled profile (a site beyond the profiled instances' is then
// profiled at N), and the records of the objects sampled take little
// memory outside the heap (about 24 bytes each).
const footprintSamples = 4096

// siteClass is how a site's cost grows with the instances, from the two
// sets of instances the profiled pass builds (attributionPlan).
type siteClass uint8

const (
	// perInstance: in proportion to the instances, bytes and objects
	// (every instance allocates the same there).
	perInstance siteClass = iota
	// once: the same bytes and objects in both sets (a structure's
	// header, allocated once however many instances it holds).
	once
	// grows: neither; in steps (a map's tables, a slice grown by
	// append), so that its figure at N is only known from N.
	grows
)

// classify returns how the site of row full (plan.full instances) and
// row fewer (plan.fewer instances) grows.
func classify(full, fewer siteRow, plan attributionPlan) siteClass {
	f, h := int64(plan.full), int64(plan.fewer)
	switch {
	case full.objects > 0 && full.objects*h == fewer.objects*f && full.bytes*h == fewer.bytes*f:
		return perInstance
	case full.objects > 0 && full.objects == fewer.objects && full.bytes == fewer.bytes:
		return once
	}
	return grows
}

// unattributedKey is the key of the row of what no site explains.
var unattributedKey = siteKey{function: measure.UnattributedSite}

// setRows returns the rows of a profiled set: its sites and, when the
// set's live heap holds more or less than they and the runtime's records
// explain, beyond liveSlack, a row of that (unattributedKey).
func setRows(set profiledSet) []siteRow {
	rows := set.account.sites
	if u := set.unexplained(); !u.within(liveTolerance(0)) {
		rows = append(rows[:len(rows):len(rows)], siteRow{site: unattributedKey, bytes: u.bytes, objects: u.objects})
	}
	return rows
}

// fewerSites are the sites of the profiled pass's two sets of instances,
// classified, to be extended to N once the footprint pass has read the N
// instances.
type fewerSites struct {
	layout  measure.Layout
	plan    attributionPlan
	full    []siteRow   // the plan.full instances', by site
	classes []siteClass // of full
	holder  heapCount   // the holder, of N entries
	// allocBytes is what the plan.full instances allocated, freed or not.
	allocBytes int64
	// mismatch, when set, says why the two sets' sites cannot be
	// compared (a site of one set only).
	mismatch string
}

// newFewerSites classifies the sites of the profiled pass's two sets.
func newFewerSites(layout measure.Layout, plan attributionPlan, pass *profiledPass) *fewerSites {
	full, fewer := pass.sets[0], pass.sets[1]
	f := &fewerSites{layout: layout, plan: plan, full: setRows(full), holder: full.account.holder, allocBytes: full.account.allocBytes}
	fewerRows := map[siteKey]siteRow{}
	for _, row := range setRows(fewer) {
		fewerRows[row.site] = row
	}
	for _, row := range f.full {
		f.classes = append(f.classes, classify(row, fewerRows[row.site], plan))
		delete(fewerRows, row.site)
	}
	for k := range fewerRows {
		f.mismatch = fmt.Sprintf("site %s:%d is in the sites of %d instances but not of %d", k.function, k.line, plan.fewer, plan.full)
		break
	}
	return f
}

// sampleRate is the rate at which the footprint pass of n instances
// samples their allocations: about footprintSamples samples of what they
// allocate, at least one in every byte (exact). It is 0 (no sampling) for
// no sites to extend (f nil) and for sites that cannot be (mismatch).
func (f *fewerSites) sampleRate(n int) int {
	if f == nil || f.mismatch != "" {
		return 0
	}
	alloc := float64(f.allocBytes) / float64(f.plan.full) * float64(n)
	return int(max(1, math.Round(alloc/footprintSamples)))
}

// extend sets r's figures at N from the sites of the profiled pass and
// the footprint pass's readings of the N instances fp:
//
//   - a site that costs the same per instance in both sets is exact from
//     them: its bytes and objects per instance are the full set's;
//   - a site of the same bytes and objects in both sets costs that once,
//     whatever N is;
//   - a growing site whose objects at N are all large (a slice grown by
//     append) is exact from the profile the footprint pass sampled;
//   - the one site that grows otherwise (a map's tables) takes what the
//     N instances keep beyond the others, if the sampled profile says it
//     holds about that much at N.
//
// r's figures are the sum of its sites'. Without a site to take the rest,
// the sites must add up to the live heap of the N instances to within
// its tolerance (liveTolerance): to the byte and the object, their
// figures are exactly those a profile of the N instances gives
// (r.HeapResolution is 0), and otherwise known to the tolerance
// (r.HeapResolution); with one,
// that live heap is the N instances' figure, to the tolerance
// (r.HeapResolution), and the site's share of it is never taken below
// zero. Otherwise it sets nothing and returns why: the sampled profile of
// the N instances shows a site the profiled instances do not have; two
// sites take the rest, whose shares only a profile of N tells; a site of
// one set only; sites that add up to more or less than the N instances
// keep, beyond the tolerance; a share of the rest that the sampled
// profile says is not that site's. r retains the sites' slot-size slices.
func (f *fewerSites) extend(r *Result, fp footprintReadings) (fallback string) {
	if f.mismatch != "" {
		return f.mismatch
	}
	sampled, fallback := f.sampledSites(r, fp)
	if fallback != "" {
		return fallback
	}
	known, rest, fallback := f.knownAtN(r, fp, sampled)
	if fallback != "" {
		return fallback
	}
	left, tol, fallback := f.leftAtN(r, fp, &known, rest)
	if fallback != "" {
		return fallback
	}
	if fallback := f.checkSampled(r, fp, sampled, left, tol); fallback != "" {
		return fallback
	}
	f.setSites(r, fp, sampled, known, left, tol)
	return ""
}

// sampledSites returns the sites of the sampled profile of the N
// instances (none without one), or why the sites of fewer instances do
// not extend to them: the sampled profile shows a site they do not have.
func (f *fewerSites) sampledSites(r *Result, fp footprintReadings) (sampled map[siteKey]siteRow, fallback string) {
	n := float64(r.N)
	rate := fp.sampleRate
	sampled = map[siteKey]siteRow{}
	if fp.sampled != nil {
		known := map[siteKey]bool{}
		for _, row := range f.full {
			known[row.site] = true
		}
		for _, row := range fp.sampled.sites {
			if row.bytes > 0 && !known[row.site] {
				return nil, fmt.Sprintf("the heap profile of the %d instances, sampled every %d B, shows a site the first %d do not have: %s:%d, about %.4g B per instance", r.N, rate, f.plan.full, row.site.function, row.site.line, float64(row.bytes)/n)
			}
			sampled[row.site] = row
		}
	}
	return sampled, ""
}

// exactAtN reports whether the sampled profile holds every object of the
// site at N: all of them large enough to be sampled with certainty.
func exactAtN(fp footprintReadings, row siteRow) bool {
	return fp.sampled != nil && len(row.sizes) > 0 && row.sizes[0] >= growthExactRates*int64(fp.sampleRate) && row.sampled == row.objects
}

// perN is v, a count times plan.full, per instance of r.
func (f *fewerSites) perN(r *Result, v int64) float64 {
	return float64(v) / (float64(int64(f.plan.full)) * float64(r.N))
}

// knownAtN returns what the sites that do not take the rest keep at N,
// times plan.full, so that it is a whole number, and the site that takes
// the rest (-1 for none), or why no one site can take it.
func (f *fewerSites) knownAtN(r *Result, fp footprintReadings, sampled map[siteKey]siteRow) (known heapCount, rest int, fallback string) {
	full := int64(f.plan.full)
	rest = -1 // the site that takes the rest
	for i, row := range f.full {
		switch f.classes[i] {
		case perInstance:
			known.bytes += row.bytes * int64(r.N)
			known.objects += row.objects * int64(r.N)
		case once:
			known.bytes += row.bytes * full
			known.objects += row.objects * full
		case grows:
			if at, ok := sampled[row.site]; ok && exactAtN(fp, at) {
				known.bytes += at.bytes * full
				known.objects += at.objects * full
				continue
			}
			if rest >= 0 {
				return known, rest, fmt.Sprintf("two sites grow in steps with the instances (%s:%d and %s:%d), and only all %d instances tell their shares", f.full[rest].site.function, f.full[rest].site.line, row.site.function, row.site.line, r.N)
			}
			rest = i
		}
	}
	return known, rest, ""
}

// leftAtN returns what the N instances keep beyond the other sites, times
// plan.full, and the live heap's tolerance, or why the sites do not add
// up to the live heap: with a site that takes the rest, it adds the rest
// to known and sets r.HeapResolution. The runtime's records the sampled
// profile shows (goroutine descriptors, wait records, the list of
// goroutines grown) are never the rest's: where their estimate is too
// coarse to tell the rest from them, only a profile of all N does. And
// the figures are exact (r.HeapResolution 0) only where the sites account
// for the live heap to the byte and the object; anywhere else in the
// tolerance, r.HeapResolution is the tolerance over N.
func (f *fewerSites) leftAtN(r *Result, fp footprintReadings, known *heapCount, rest int) (left, tol heapCount, fallback string) {
	n, full := float64(r.N), int64(f.plan.full)
	left = heapCount{fp.live.bytes*full - known.bytes, fp.live.objects*full - known.objects}
	tol = liveTolerance(fp.threads)
	tolFull := heapCount{tol.bytes * full, tol.objects * full}
	slack := fmt.Sprintf("%d B and %d objects (the runtime's own records, and a page for each of the %d threads it started)", tol.bytes, tol.objects, max(fp.threads, 0))
	if fp.sampled != nil {
		// The runtime's records, estimated: subtracted where there is a
		// rest (never the rest's), else where that brings the sites
		// closer to the live heap (those of a thread started for a
		// collection may fall outside the readings).
		rt := heapCount{fp.sampled.runtime.bytes * full, fp.sampled.runtime.objects * full}
		grown := heapCount{fp.sampled.grown.bytes * full, fp.sampled.grown.objects * full}
		without := recogniseGrownFree(left.sub(rt), grown)
		closer := abs(without.bytes) < abs(left.bytes) && abs(without.objects) <= abs(left.objects)+tolFull.objects
		if rest >= 0 || closer {
			if sigma := math.Sqrt(fp.sampled.runtimeVariance); 4*sigma > float64(tol.bytes) {
				return left, tol, fmt.Sprintf("the runtime's own records in the heap profile of the %d instances, sampled every %d B (goroutine descriptors, wait records), about %.4g B per instance, are known to ±%.4g B per instance, more than %s over N: only a profile of all %d tells the instances' bytes from them", r.N, fp.sampleRate, float64(fp.sampled.runtime.bytes)/n, 4*sigma/n, slack, r.N)
			}
			left = without
		}
	}
	account := fmt.Sprintf("the sites of %d instances account for %.4g B and %.6g objects per instance, the %d instances keep %.4g B and %.6g", full, f.perN(r, known.bytes), f.perN(r, known.objects), r.N, float64(fp.live.bytes)/n, float64(fp.live.objects)/n)
	switch {
	case rest < 0 && !left.within(tolFull):
		return left, tol, account + ": more than " + slack + " apart, and no site grows in steps to take the difference"
	case rest < 0 && left != (heapCount{}):
		// Within the tolerance but not to the byte: as far from exact
		// as the tolerance allows (an object some instances past the
		// profiled ones upsize hides in it).
		r.HeapResolution = float64(tol.bytes) / n
	case rest >= 0 && (left.bytes < -tolFull.bytes || left.objects < -tolFull.objects):
		return left, tol, account + fmt.Sprintf(": more than %s less, leaving nothing to the site that grows (%s:%d)", slack, f.full[rest].site.function, f.full[rest].site.line)
	case rest >= 0:
		left = heapCount{max(left.bytes, 0), max(left.objects, 0)}
		known.bytes += left.bytes
		known.objects += left.objects
		r.HeapResolution = float64(tol.bytes) / n
	}
	return left, tol, ""
}

// checkSampled returns why the sites' figures at N are not what the
// sampled profile of the N instances says they hold, to four standard
// deviations of its estimate and the tolerance: a site whose figure the
// profiled instances do not tell (shared growth every few thousand
// instances, taken for a structure's header; a rest that is not the
// growing site's) is profiled at N. "" where they are.
func (f *fewerSites) checkSampled(r *Result, fp footprintReadings, sampled map[siteKey]siteRow, left, tol heapCount) (fallback string) {
	n, full := float64(r.N), int64(f.plan.full)
	rate := fp.sampleRate
	for i, row := range f.full {
		if fp.sampled == nil || row.site == unattributedKey {
			continue
		}
		at := sampled[row.site]     // none sampled: zero
		var atN, objectsAtN float64 // bytes and objects at N, as extended
		switch {
		case f.classes[i] == perInstance:
			atN, objectsAtN = float64(row.bytes)*n/float64(full), float64(row.objects)*n/float64(full)
		case f.classes[i] == once:
			atN, objectsAtN = float64(row.bytes), float64(row.objects)
		case exactAtN(fp, at):
			continue
		default:
			atN, objectsAtN = float64(left.bytes)/float64(full), float64(left.objects)/float64(full)
		}
		sigma := max(at.sigma(), estimateSigma(atN, objectsAtN, rate))
		if d := math.Abs(atN - float64(at.bytes)); d > 4*sigma+float64(tol.bytes) {
			return fmt.Sprintf("site %s:%d keeps %.4g B per instance as extended from %d instances, where the heap profile of the %d, sampled every %d B, says %.4g (to %.2g)", row.site.function, row.site.line, atN/n, full, r.N, rate, float64(at.bytes)/n, (4*sigma+float64(tol.bytes))/n)
		}
	}
	return ""
}

// setSites sets r's figures and sites, extended to N.
func (f *fewerSites) setSites(r *Result, fp footprintReadings, sampled map[siteKey]siteRow, known, left, tol heapCount) {
	n, full := float64(r.N), int64(f.plan.full)
	r.BytesPerInstance, r.AllocsPerInstance = f.perN(r, known.bytes), f.perN(r, known.objects)
	r.Sites = nil
	var maxSlot int64
	for i, row := range f.full {
		s := resultSite(row)
		switch at, ok := sampled[row.site]; {
		case f.classes[i] == perInstance:
			s.BytesPerInstance = float64(row.bytes) / float64(full)
			s.AllocsPerInstance = float64(row.objects) / float64(full)
		case f.classes[i] == once:
			s.BytesPerInstance = float64(row.bytes) / n
			s.AllocsPerInstance = float64(row.objects) / n
		case ok && exactAtN(fp, at):
			s.BytesPerInstance = float64(at.bytes) / n
			s.AllocsPerInstance = float64(at.objects) / n
			s.SlotSizes = at.sizes // the slots at N
		default: // the site that takes the rest
			s.BytesPerInstance, s.AllocsPerInstance = f.perN(r, left.bytes), f.perN(r, left.objects)
		}
		for _, size := range s.SlotSizes {
			maxSlot = max(maxSlot, size)
		}
		r.Sites = append(r.Sites, s)
	}
	if f.layout == measure.Pointer {
		r.SlotBytes = float64(maxSlot)
	}
	if slices.ContainsFunc(f.full, func(row siteRow) bool { return row.site == unattributedKey }) {
		// What no site explains comes from the live heap, with the
		// runtime's own churn in it.
		r.HeapResolution = float64(tol.bytes) / n
	}
	r.HolderBytesPerInstance = float64(f.holder.bytes) / n
	r.AttributedN = f.plan.full
}

// estimateSigma is the standard deviation of a sampled profile's estimate
// of a site that holds bytes in objects objects, at sampling rate rate:
// each of its objects, of their mean size z and sampled with probability
// p, adds z²(1-p)/p to the variance.
func estimateSigma(bytes, objects float64, rate int) float64 {
	if objects <= 0 || bytes <= 0 || rate <= 1 {
		return 0
	}
	z := bytes / objects
	p := 1 - math.Exp(-z/float64(rate))
	return math.Sqrt(objects * z * z * (1 - p) / p)
}

// resultSite is the result's site of row, its figures not set.
func resultSite(row siteRow) Site {
	return Site{Function: row.site.function, File: row.site.file, Line: row.site.line, SlotSizes: row.sizes}
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
