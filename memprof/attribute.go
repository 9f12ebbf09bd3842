package memprof

import (
	"bytes"
	"fmt"
	"regexp"

	"github.com/memprof/memprof/heapscan"
	"github.com/memprof/memprof/model"
)

// attribute fills r's per-instance figures from the heap profile prof,
// which the profiled pass wrote while the instances of plan were alive,
// and from fp, the footprint pass's readings of all N. It reads prof
// once, with heapscan's streaming reader, and groups its in-use samples
// in one pass into the views it needs: the objects below the
// constructor's frame (the instances), by site, those below the holder's
// frame (the harness's own slice), and, when plan profiled fewer than N
// instances, those below the twin frames, by site. r.N must be set.
//
// When the plan's sites do not account for what the N instances keep
// (see extendSites), attribute sets nothing and returns why: the caller
// then profiles all N and attributes that profile.
func attribute(r *Result, layout model.Layout, prof []byte, plan attributionPlan, fp footprintReadings) (fallback string, err error) {
	h, err := heapscan.Read(bytes.NewReader(prof), heapscan.ReadOptions{})
	if err != nil {
		return "", fmt.Errorf("reading heap profile: %w", err)
	}
	if h.Period != 1 {
		return "", fmt.Errorf("heap profile has sampling period %d, want 1 (exact)", h.Period)
	}
	views, err := h.SummarizeEach(attributionViews(layout, plan.fewer > 0)...)
	if err != nil {
		return "", fmt.Errorf("attributing heap profile: %w", err)
	}
	if plan.fewer == 0 {
		fillFigures(r, layout, views[0], views[1])
		return "", nil
	}
	return extendSites(r, layout, views[0], views[2], views[1], plan, fp), nil
}

// runtimeWaits matches the functions through which the runtime parks a
// goroutine on a semaphore (sync.WaitGroup.Wait, sync.Mutex.Lock, ...).
// Parking may allocate a sudog that the runtime then keeps in its cache
// for good: a live object below the constructor's frame (when the
// constructor waits on its own worker goroutines, as blst's and
// gnark-crypto's batch conversions do) that belongs to the runtime, not to
// the instances. The heap profile hides the runtime's frames, so these
// functions are the innermost visible frame of such an allocation.
var runtimeWaits = regexp.MustCompile(`^(internal/)?(sync|poll)\.runtime_(Semacquire|SemacquireMutex|SemacquireRWMutex|SemacquireRWMutexR|SemacquireWaitGroup|notifyListWait)$`)

// attributionViews are the summaries attribution reads of a profile of a
// case of the given layout: the instances, by site (without the runtime's
// parking records, see runtimeWaits), and the holder; with fewer, the
// other instances (attributionPlan), by site.
func attributionViews(layout model.Layout, fewer bool) []heapscan.Options {
	frame, fewerFrame := constructFrame, fewerConstructFrame
	if layout != model.Pointer {
		frame, fewerFrame = sliceFrame, fewerSliceFrame
	}
	views := []heapscan.Options{
		{Sample: "inuse", GroupBy: "site", FocusFunction: frame, Ignore: runtimeWaits},
		{Sample: "inuse", GroupBy: "function", FocusFunction: holderFrame},
	}
	if fewer {
		views = append(views, heapscan.Options{Sample: "inuse", GroupBy: "site", FocusFunction: fewerFrame, Ignore: runtimeWaits})
	}
	return views
}

// fillFigures sets r's per-instance figures from the summaries of the
// instances (grouped by site) and of the holder, a profile of all r.N
// instances. r retains the sites' slot-size slices of inst.
func fillFigures(r *Result, layout model.Layout, inst, hold *heapscan.Summary) {
	n := float64(r.N)
	var bytesTotal, objects int64
	var maxSlot int64
	r.Sites = nil
	for _, row := range inst.Rows {
		bytesTotal += row.Bytes
		objects += row.Objects
		for _, s := range row.Sizes {
			maxSlot = max(maxSlot, s)
		}
		r.Sites = append(r.Sites, Site{
			Function:          row.Function,
			File:              row.File,
			Line:              row.Line,
			BytesPerInstance:  float64(row.Bytes) / n,
			AllocsPerInstance: float64(row.Objects) / n,
			SlotSizes:         row.Sizes,
		})
	}
	// No live object is a valid answer: a binding whose instances live in
	// C memory keeps nothing on the Go heap (see the C-heap figure).
	r.BytesPerInstance = float64(bytesTotal) / n
	r.AllocsPerInstance = float64(objects) / n
	// A collection has no one slot per instance.
	switch layout {
	case model.Pointer:
		r.SlotBytes = float64(maxSlot)
	case model.Slice:
		r.ArraySlotBytesPerInstance = float64(maxSlot) / n
	case model.Single:
		r.SlotBytes = float64(maxSlot) // the largest object of the one
	}
	var holderBytes int64
	for _, row := range hold.Rows {
		holderBytes += row.Bytes
	}
	r.HolderBytesPerInstance = float64(holderBytes) / n
	r.AttributedN = r.N
}

// The N instances' live heap comes from two readings of the whole heap,
// between which the runtime takes and frees a little for itself (a
// wait's record, 112 bytes, comes and goes; a new thread's records are 7
// objects, 5.5 KiB): sites extended from fewer instances account for it
// when they come within one runtime page of it, in objects of at least
// 16 bytes.
const (
	liveResolutionBytes   = runtimePage
	liveResolutionObjects = runtimePage / 16
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

// siteKey identifies a site across the views of one profile.
type siteKey struct {
	function, file string
	line           int64
}

// extendSites sets r's figures at N from the sites of the profiled pass
// (full and fewer: the views of plan's two sets of instances; hold: the
// holder's, one of N entries) and from the live heap of the N instances
// (fp.live), which the sites' figures at N must add up to:
//
//   - a site that costs the same per instance in both sets is exact from
//     them: its bytes and objects per instance are the full set's;
//   - a site of the same bytes and objects in both sets costs that once,
//     whatever N is;
//   - the one site that grows otherwise (a map's tables, a slice grown by
//     append) takes what the N instances keep beyond the others.
//
// r's figures are the sum of its sites'. Without a growing site, the
// sites must add up to the live heap of the N instances to within its
// resolution (liveResolutionBytes and liveResolutionObjects), and their
// figures are exactly those a profile of the N instances gives; with
// one, that live heap is the N instances' figure, to that resolution,
// and the growing site's share of it is never taken below zero.
// Otherwise (two growing sites, whose shares of the rest only a profile
// of N tells; a site of one set only; sites that add up to more or less
// than the N instances keep, beyond the resolution) it sets nothing and
// returns why. r retains the sites' slot-size slices of full.
func extendSites(r *Result, layout model.Layout, full, fewer, hold *heapscan.Summary, plan attributionPlan, fp footprintReadings) (fallback string) {
	n := float64(r.N)
	fewerRows := make(map[siteKey]heapscan.Row, len(fewer.Rows))
	for _, row := range fewer.Rows {
		fewerRows[siteKey{row.Function, row.File, row.Line}] = row
	}
	// known is what the sites that do not grow keep at N, times
	// plan.full, so that it is a whole number.
	var known heapCount
	classes := make([]siteClass, len(full.Rows))
	growing := -1
	for i, row := range full.Rows {
		k := siteKey{row.Function, row.File, row.Line}
		classes[i] = classify(row, fewerRows[k], plan)
		delete(fewerRows, k)
		switch classes[i] {
		case perInstance:
			known.bytes += row.Bytes * int64(r.N)
			known.objects += row.Objects * int64(r.N)
		case once:
			known.bytes += row.Bytes * int64(plan.full)
			known.objects += row.Objects * int64(plan.full)
		case grows:
			if growing >= 0 {
				return fmt.Sprintf("two sites grow in steps with the instances (%s:%d and %s:%d), and only all %d instances tell their shares", full.Rows[growing].Function, full.Rows[growing].Line, row.Function, row.Line, r.N)
			}
			growing = i
		}
	}
	for k := range fewerRows {
		return fmt.Sprintf("site %s:%d is in the sites of %d instances but not of %d", k.function, k.line, plan.fewer, plan.full)
	}
	// rest is what the N instances keep beyond the sites that do not
	// grow, times plan.full.
	rest := heapCount{fp.live.bytes*int64(plan.full) - known.bytes, fp.live.objects*int64(plan.full) - known.objects}
	tol := heapCount{liveResolutionBytes * int64(plan.full), liveResolutionObjects * int64(plan.full)}
	perN := func(v int64) float64 { return float64(v) / (float64(plan.full) * n) }
	account := fmt.Sprintf("the sites of %d instances account for %.2f B and %.4f objects per instance, the %d instances keep %.2f B and %.4f", plan.full, perN(known.bytes), perN(known.objects), r.N, float64(fp.live.bytes)/n, float64(fp.live.objects)/n)
	switch {
	case growing < 0 && (abs(rest.bytes) > tol.bytes || abs(rest.objects) > tol.objects):
		return account + ": more than one runtime page apart, and no site grows in steps to take the difference"
	case growing >= 0 && (rest.bytes < -tol.bytes || rest.objects < -tol.objects):
		return account + fmt.Sprintf(": more than one runtime page less, leaving nothing to the site that grows (%s:%d)", full.Rows[growing].Function, full.Rows[growing].Line)
	case growing >= 0:
		rest = heapCount{max(rest.bytes, 0), max(rest.objects, 0)}
		known.bytes += rest.bytes
		known.objects += rest.objects
	}
	r.BytesPerInstance, r.AllocsPerInstance = perN(known.bytes), perN(known.objects)
	r.Sites = nil
	var maxSlot int64
	for i, row := range full.Rows {
		s := Site{Function: row.Function, File: row.File, Line: row.Line, SlotSizes: row.Sizes}
		switch classes[i] {
		case perInstance:
			s.BytesPerInstance = float64(row.Bytes) / float64(plan.full)
			s.AllocsPerInstance = float64(row.Objects) / float64(plan.full)
		case once:
			s.BytesPerInstance = float64(row.Bytes) / n
			s.AllocsPerInstance = float64(row.Objects) / n
		case grows:
			s.BytesPerInstance, s.AllocsPerInstance = perN(rest.bytes), perN(rest.objects)
		}
		for _, size := range row.Sizes {
			maxSlot = max(maxSlot, size)
		}
		r.Sites = append(r.Sites, s)
	}
	if layout == model.Pointer {
		r.SlotBytes = float64(maxSlot)
	}
	var holderBytes int64
	for _, row := range hold.Rows {
		holderBytes += row.Bytes
	}
	r.HolderBytesPerInstance = float64(holderBytes) / n
	r.AttributedN = plan.full
	return ""
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
