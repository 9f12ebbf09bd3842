package memprof

import (
	"bytes"
	"fmt"
	"regexp"

	"github.com/memprof/memprof/heapscan"
	"github.com/memprof/memprof/model"
)

// attribute fills r's per-instance figures from the heap profile prof,
// which the profiled pass wrote while the instances were alive. It reads
// prof once, with heapscan's streaming reader, and groups its in-use
// samples in one pass into the two views it needs: the objects below the
// constructor's frame (the instances), by site, and those below the
// holder's frame (the harness's own slice). r.N must be set.
func attribute(r *Result, layout model.Layout, prof []byte) error {
	h, err := heapscan.Read(bytes.NewReader(prof), heapscan.ReadOptions{})
	if err != nil {
		return fmt.Errorf("reading heap profile: %w", err)
	}
	if h.Period != 1 {
		return fmt.Errorf("heap profile has sampling period %d, want 1 (exact)", h.Period)
	}
	views, err := h.SummarizeEach(attributionViews(layout, false)...)
	if err != nil {
		return fmt.Errorf("attributing heap profile: %w", err)
	}
	fillFigures(r, layout, views[0], views[1])
	return nil
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
// profiled pass's other instances (attributionPlan), by site.
func attributionViews(layout model.Layout, fewer bool) []heapscan.Options {
	views := []heapscan.Options{
		siteView(layout, constructFrame, sliceFrame),
		{Sample: "inuse", GroupBy: "function", FocusFunction: holderFrame},
	}
	if fewer {
		views = append(views, siteView(layout, fewerConstructFrame, fewerSliceFrame))
	}
	return views
}

// siteView is the summary by site of the instances below a constructor
// frame: instances, for the pointer layout, slice for the others.
func siteView(layout model.Layout, instances, slice string) heapscan.Options {
	frame := instances
	if layout != model.Pointer {
		frame = slice
	}
	return heapscan.Options{Sample: "inuse", GroupBy: "site", FocusFunction: frame, Ignore: runtimeWaits}
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
