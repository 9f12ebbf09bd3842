package memprof

import "github.com/memprof/memprof/measure"

// fillFigures sets r's per-instance figures from a profiled pass of all
// r.N instances: its sites (the records of the heap profile that the
// build added, see records.go) and, when the build's live heap holds more
// or less than they and the runtime's records explain (beyond
// liveTolerance), a site of that, measure.UnattributedSite. The figures are
// the sum of the sites; they are exact (r.HeapResolution 0): every
// allocation of the build was recorded, and the live heap was read across
// the same build; but for what no site explains, read from the live heap
// with the runtime's own churn in it (r.HeapResolution is then that
// tolerance). r retains the sites' slot-size slices.
func fillFigures(r *Result, layout measure.Layout, pass *profiledPass) {
	set := pass.sets[0]
	n := float64(r.N)
	var bytesTotal, objects int64
	var maxSlot int64
	r.Sites = nil
	r.HeapResolution = 0
	for _, row := range setRows(set) {
		if row.site == unattributedKey {
			r.HeapResolution = float64(liveTolerance(0).bytes) / n
		}
		bytesTotal += row.bytes
		objects += row.objects
		for _, s := range row.sizes {
			maxSlot = max(maxSlot, s)
		}
		s := resultSite(row)
		s.BytesPerInstance, s.AllocsPerInstance = float64(row.bytes)/n, float64(row.objects)/n
		r.Sites = append(r.Sites, s)
	}
	// No live object is a valid answer: a binding whose instances live in
	// C memory keeps nothing on the Go heap (see the C-heap figure).
	r.BytesPerInstance = float64(bytesTotal) / n
	r.AllocsPerInstance = float64(objects) / n
	// A collection has no one slot per instance.
	switch layout {
	case measure.Pointer:
		r.SlotBytes = float64(maxSlot)
	case measure.Slice:
		r.ArraySlotBytesPerInstance = float64(maxSlot) / n
	case measure.Single:
		r.SlotBytes = float64(maxSlot) // the largest object of the one
	}
	r.HolderBytesPerInstance = float64(set.account.holder.bytes) / n
	r.AttributedN = r.N
}
