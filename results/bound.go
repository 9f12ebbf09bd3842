package results

import "github.com/memprof/memprof/measure"

// ResolutionBound is what the engine writes of one resolution figure in
// a row, per instance: at most Most; Least is the coarseness of the
// readings themselves, which no run at that N can beat (where the figure
// is not exact).
type ResolutionBound struct{ Least, Most float64 }

// scanResolutionBound: the engine writes one runtime page plus the
// spreads of the live readings and of the holder alone's, over N. The
// holder alone's readings differ by the runtime's own objects, which the
// engine allows a page for; the live readings by those and by what the
// instances' heap makes the collector scan, at most all of it. So at
// least a page over N, at most three pages over N plus the bytes per
// instance.
func scanResolutionBound(m *measure.Measurement) ResolutionBound {
	n := float64(m.N)
	return ResolutionBound{measure.RuntimePageBytes / n, 3*measure.RuntimePageBytes/n + max(m.BytesPerInstance, 0)}
}

// offheapResolutionBound: 0 for the counted records (exact), two chunks
// over N in files written when the figure was the difference of two
// readings of the runtime's off-heap memory: then the coarseness of the
// readings themselves.
func offheapResolutionBound(m *measure.Measurement) ResolutionBound {
	chunks := 2 * measure.OffheapChunkBytes / float64(m.N)
	return ResolutionBound{chunks, chunks}
}

// rssResolutionBound: the engine writes 2 × (a chunk + one page of the
// system) over N, 0 where RSS cannot be read; a system's page (4 KiB to
// 64 KiB where Go runs) is at most a chunk.
func rssResolutionBound(m *measure.Measurement) ResolutionBound {
	return ResolutionBound{0, 2 * (measure.OffheapChunkBytes + measure.OffheapChunkBytes) / float64(m.N)}
}

// ResolutionBounds returns the least and the most resolution the engine
// writes of f, a resolution figure, in row, and whether f has such a
// bound (a resolution figure of an instance row with a positive n): the
// reader refuses a resolution above Most, and the gate's warning band
// (measure.JudgeResolution) is never narrower than Least, the reading's own
// coarseness.
func (f *Figure) ResolutionBounds(row FigureRow) (ResolutionBound, bool) {
	r, ok := row.(*Row)
	if !ok || f.bound == nil || r.N <= 0 {
		return ResolutionBound{}, false
	}
	return f.bound(&r.Measurement), true
}

// LeastResolutionOf returns the least resolution the engine writes of
// f's resolution figure in row: the coarseness of the reading itself
// (one runtime page over N for the scan bytes); 0 for an exact figure
// or one whose resolution has no such bound.
func (f *Figure) LeastResolutionOf(row FigureRow) float64 {
	if f.res == nil {
		return 0
	}
	b, _ := f.res.ResolutionBounds(row)
	return b.Least
}
