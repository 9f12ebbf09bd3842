package memprof

import (
	"bytes"
	"fmt"

	"github.com/memprof/memprof/heapscan"
	"github.com/memprof/memprof/model"
)

// Extending the sites of fewer instances to N. The profiled pass builds
// attributionFull instances below the engine's constructor frame and
// attributionFewer below a twin frame; comparing a site's bytes and
// objects in the two sets tells how it grows with the instances
// (siteClass), and the footprint pass's live heap of all N instances
// gives what the sites that grow in steps keep at N.

// The N instances' live heap comes from two readings of the whole heap,
// between which the runtime takes and frees a little for itself (a
// wait's record, 112 bytes, comes and goes) and keeps the records of
// each thread it starts meanwhile (7 objects, 5.5 KiB in Go 1.26, when a
// cgo call or a collection wakes one): sites extended from fewer
// instances account for it when they come within one runtime page of it,
// and one more for each thread started, in objects of at least 16 bytes
// (liveResolution).
const (
	liveResolutionBytes   = runtimePage
	liveResolutionObjects = runtimePage / 16
)

// liveResolution is how far the N instances' live heap, read across a
// pass in which the runtime started `threads` new threads (few, since
// startThreads runs first), can be from
// what they keep, times plan.full.
func liveResolution(threads int, full int64) heapCount {
	pages := int64(1 + max(threads, 0))
	return heapCount{pages * liveResolutionBytes * full, pages * liveResolutionObjects * full}
}

// growthSampleRate is the runtime.MemProfileRate at which the footprint
// pass samples its instances when two sites grow in steps: the profile
// then holds, exactly, what a site keeps at N in objects of at least
// growthExactSize bytes (a slice grown by append: one large backing
// array), so that the other growing site (a map's tables) takes the
// rest. The runtime samples every allocation larger than about 18 times
// the rate (its sampling distance is drawn below that), and a sample of
// growthExactSize or more is scaled by exactly 1 in the written profile
// (1/(1-exp(-40)) is 1 in float64); the records of the few objects
// sampled (one per 64 KiB allocated, on average) take about 0.1 B per
// instance of off-heap memory at the scenarios' N of 1,000,000.
const (
	growthSampleRate = 64 << 10
	growthExactSize  = 40 * growthSampleRate
)

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
func classify(full, fewer heapscan.Row, plan attributionPlan) siteClass {
	f, h := int64(plan.full), int64(plan.fewer)
	switch {
	case full.Objects > 0 && full.Objects*h == fewer.Objects*f && full.Bytes*h == fewer.Bytes*f:
		return perInstance
	case full.Objects > 0 && full.Objects == fewer.Objects && full.Bytes == fewer.Bytes:
		return once
	}
	return grows
}

func keyOf(row heapscan.Row) siteKey { return siteKey{row.Function, row.File, row.Line} }

// fewerSites are the sites of the profiled pass's two sets of instances,
// read from its profile and classified, to be extended to N once the
// footprint pass has read the N instances.
type fewerSites struct {
	layout  model.Layout
	plan    attributionPlan
	full    *heapscan.Summary // the plan.full instances, by site
	hold    *heapscan.Summary // the holder, one of N entries
	classes []siteClass       // of full.Rows
	growing int               // how many sites grow
	// mismatch, when set, says why the two sets' sites cannot be
	// compared (a site of one set only).
	mismatch string
}

// readFewerSites reads the profile prof of plan's two sets of instances
// (one pass of heapscan's streaming reader) and classifies their sites.
func readFewerSites(layout model.Layout, prof []byte, plan attributionPlan) (*fewerSites, error) {
	h, err := heapscan.Read(bytes.NewReader(prof), heapscan.ReadOptions{})
	if err != nil {
		return nil, fmt.Errorf("reading heap profile: %w", err)
	}
	if h.Period != 1 {
		return nil, fmt.Errorf("heap profile has sampling period %d, want 1 (exact)", h.Period)
	}
	views, err := h.SummarizeEach(attributionViews(layout, true)...)
	if err != nil {
		return nil, fmt.Errorf("attributing heap profile: %w", err)
	}
	f := &fewerSites{layout: layout, plan: plan, full: views[0], hold: views[1]}
	fewerRows := make(map[siteKey]heapscan.Row, len(views[2].Rows))
	for _, row := range views[2].Rows {
		fewerRows[keyOf(row)] = row
	}
	for _, row := range f.full.Rows {
		c := classify(row, fewerRows[keyOf(row)], plan)
		delete(fewerRows, keyOf(row))
		f.classes = append(f.classes, c)
		if c == grows {
			f.growing++
		}
	}
	for k := range fewerRows {
		f.mismatch = fmt.Sprintf("site %s:%d is in the sites of %d instances but not of %d", k.function, k.line, plan.fewer, plan.full)
		break
	}
	return f, nil
}

// sampleRate is the rate at which the footprint pass samples its
// instances: growthSampleRate when two sites or more grow, 0 otherwise
// (and for no sites at all, f nil).
func (f *fewerSites) sampleRate() int {
	if f == nil || f.growing < 2 || f.mismatch != "" {
		return 0
	}
	return growthSampleRate
}

// extend sets r's figures at N from the sites of the profiled pass and
// the footprint pass's readings of the N instances fp, which the sites'
// figures at N must add up to:
//
//   - a site that costs the same per instance in both sets is exact from
//     them: its bytes and objects per instance are the full set's;
//   - a site of the same bytes and objects in both sets costs that once,
//     whatever N is;
//   - a growing site whose objects at N are all large (a slice grown by
//     append) is exact from the profile the footprint pass sampled
//     (growthSampleRate), when it did;
//   - the one site that grows otherwise (a map's tables) takes what the
//     N instances keep beyond the others.
//
// r's figures are the sum of its sites'. Without a site to take the
// rest, the sites must add up to the live heap of the N instances to
// within its resolution (liveResolution),
// and their figures are then exactly those a profile of the N instances
// gives; with one, that live heap is the N instances' figure, to that
// resolution, and the site's share of it is never taken below zero.
// Otherwise (two sites to take the rest, whose shares only a profile of
// N tells; a site of one set only; sites that add up to more or less
// than the N instances keep, beyond the resolution) it sets nothing and
// returns why. r retains the sites' slot-size slices of the profiles.
func (f *fewerSites) extend(r *Result, fp footprintReadings) (fallback string, err error) {
	if f.mismatch != "" {
		return f.mismatch, nil
	}
	sampled, err := f.sampledSites(fp.sampled)
	if err != nil {
		return "", err
	}
	n, full := float64(r.N), int64(f.plan.full)
	// known is what the sites that do not take the rest keep at N, times
	// plan.full, so that it is a whole number.
	var known heapCount
	rest := -1 // the site that takes the rest
	for i, row := range f.full.Rows {
		switch f.classes[i] {
		case perInstance:
			known.bytes += row.Bytes * int64(r.N)
			known.objects += row.Objects * int64(r.N)
		case once:
			known.bytes += row.Bytes * full
			known.objects += row.Objects * full
		case grows:
			if at, ok := sampled[keyOf(row)]; ok {
				known.bytes += at.Bytes * full
				known.objects += at.Objects * full
				continue
			}
			if rest >= 0 {
				return fmt.Sprintf("two sites grow in steps with the instances (%s:%d and %s:%d), and only all %d instances tell their shares", f.full.Rows[rest].Function, f.full.Rows[rest].Line, row.Function, row.Line, r.N), nil
			}
			rest = i
		}
	}
	// left is what the N instances keep beyond the other sites, times
	// plan.full.
	left := heapCount{fp.live.bytes*full - known.bytes, fp.live.objects*full - known.objects}
	tol := liveResolution(fp.threads, full)
	perN := func(v int64) float64 { return float64(v) / (float64(full) * n) }
	account := fmt.Sprintf("the sites of %d instances account for %.2f B and %.4f objects per instance, the %d instances keep %.2f B and %.4f", full, perN(known.bytes), perN(known.objects), r.N, float64(fp.live.bytes)/n, float64(fp.live.objects)/n)
	switch {
	case rest < 0 && (abs(left.bytes) > tol.bytes || abs(left.objects) > tol.objects):
		return account + fmt.Sprintf(": more than %d runtime pages apart (one, and one for each of the %d threads started), and no site grows in steps to take the difference", 1+max(fp.threads, 0), max(fp.threads, 0)), nil
	case rest >= 0 && (left.bytes < -tol.bytes || left.objects < -tol.objects):
		return account + fmt.Sprintf(": more than %d runtime pages less, leaving nothing to the site that grows (%s:%d)", 1+max(fp.threads, 0), f.full.Rows[rest].Function, f.full.Rows[rest].Line), nil
	case rest >= 0:
		left = heapCount{max(left.bytes, 0), max(left.objects, 0)}
		known.bytes += left.bytes
		known.objects += left.objects
	}

	r.BytesPerInstance, r.AllocsPerInstance = perN(known.bytes), perN(known.objects)
	r.Sites = nil
	var maxSlot int64
	for i, row := range f.full.Rows {
		s := Site{Function: row.Function, File: row.File, Line: row.Line, SlotSizes: row.Sizes}
		switch at, ok := sampled[keyOf(row)]; {
		case f.classes[i] == perInstance:
			s.BytesPerInstance = float64(row.Bytes) / float64(full)
			s.AllocsPerInstance = float64(row.Objects) / float64(full)
		case f.classes[i] == once:
			s.BytesPerInstance = float64(row.Bytes) / n
			s.AllocsPerInstance = float64(row.Objects) / n
		case ok:
			s.BytesPerInstance = float64(at.Bytes) / n
			s.AllocsPerInstance = float64(at.Objects) / n
			s.SlotSizes = at.Sizes // the slots at N
		default: // the site that takes the rest
			s.BytesPerInstance, s.AllocsPerInstance = perN(left.bytes), perN(left.objects)
		}
		for _, size := range s.SlotSizes {
			maxSlot = max(maxSlot, size)
		}
		r.Sites = append(r.Sites, s)
	}
	if f.layout == model.Pointer {
		r.SlotBytes = float64(maxSlot)
	}
	var holderBytes int64
	for _, row := range f.hold.Rows {
		holderBytes += row.Bytes
	}
	r.HolderBytesPerInstance = float64(holderBytes) / n
	r.AttributedN = f.plan.full
	return "", nil
}

// sampledSites returns the sites of the footprint pass's sampled profile
// prof (nil when it sampled nothing) whose figures are exact: every
// object of theirs at least growthExactSize bytes, so sampled and scaled
// by exactly 1.
func (f *fewerSites) sampledSites(prof []byte) (map[siteKey]heapscan.Row, error) {
	if prof == nil {
		return nil, nil
	}
	h, err := heapscan.Read(bytes.NewReader(prof), heapscan.ReadOptions{})
	if err != nil {
		return nil, fmt.Errorf("reading the footprint pass's heap profile: %w", err)
	}
	if h.Period != growthSampleRate {
		return nil, fmt.Errorf("the footprint pass's heap profile has sampling period %d, want %d", h.Period, growthSampleRate)
	}
	views, err := h.SummarizeEach(siteView(f.layout, constructFrame, sliceFrame))
	if err != nil {
		return nil, fmt.Errorf("attributing the footprint pass's heap profile: %w", err)
	}
	exact := map[siteKey]heapscan.Row{}
	for _, row := range views[0].Rows {
		if len(row.Sizes) > 0 && row.Sizes[0] >= growthExactSize && row.Sampled == row.Objects {
			exact[keyOf(row)] = row
		}
	}
	return exact, nil
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
