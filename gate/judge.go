package gate

import (
	"fmt"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
)

// judge holds the figure of limit l in the measured row to the limit, as
// its entry's Judge says, setting o's figures and status. A row that
// lacks the figure (a file older than it, a reading the engine could not
// take) is an Error: a budget is never held by a figure that was not
// measured. A time above its budget warns unless opts.FailOnTime.
func judge(o *Outcome, b *Budget, l Limit, row results.FigureRow, opts CheckOptions) {
	f := l.Metric.f
	if f.Judge.OverSamples() {
		q, _, err := SampleFigure(f, row)
		if err != nil {
			o.Status, o.Detail = Error, err.Error()
			return
		}
		o.Measured, o.Q1, o.Q3 = q.Median, q.Q1, q.Q3
		o.Status = timeVerdict(o.Measured, o.Q1, l.Value)
		if o.Status == Warn {
			o.Detail = fmt.Sprintf("median above the budget but the interquartile range [%s, %s] reaches below it: likely noise, re-measure to be sure",
				units.FormatNs(o.Q1), units.FormatNs(o.Q3))
		}
		noiseFloor(b, l, o)
		if f.Judge == measure.JudgeEstimate && o.Status == Fail {
			o.Status = Warn
			o.Detail = "an estimate, which a busy machine inflates: above its budget it warns and never fails; " + f.Instead
		}
		if o.Status == Fail && !opts.FailOnTime {
			o.Status, o.TimeWarning = Warn, true
			o.Detail = "median and interquartile range above the budget: a time warns and does not fail without --fail-on-time (times move with the machine; gate them on a pinned, quiet runner)"
		}
		return
	}
	v, ok := f.Value(row)
	if !ok {
		o.Status, o.Detail = Error, f.Missing(row)
		return
	}
	o.Measured, o.Status = v, Pass
	if v <= l.Value {
		return
	}
	o.Status = Fail
	// A figure read to a resolution (the off-heap figure in the runtime's
	// 256 KiB chunks, the scan bytes): within it of the budget, it may be
	// the reading, not the instances.
	if band := warnBand(f, row, l.Value); f.Judge == measure.JudgeResolution && v-l.Value <= band {
		o.Status = Warn
		res := units.FormatBytes(band) + " per instance"
		if r := f.ResolutionOf(row); r > band {
			res = units.FormatBytes(r) + " per instance; a warning allows no more than the budget, " + units.FormatBytes(band)
		}
		o.Detail = fmt.Sprintf("above the budget by no more than the reading's resolution (%s): measure at a larger N to tell", res)
	}
}

// warnBand is how far above limit a figure read to a resolution warns
// rather than fails: the row's resolution, but never wider than the
// budget itself, so that a coarse reading cannot pass as a warning a
// figure many times its budget; a budget smaller than the reading's own
// coarseness (one runtime page over N for the scan bytes: a budget of 0)
// still warns within that.
func warnBand(f *results.Figure, row results.FigureRow, limit float64) float64 {
	return min(f.ResolutionOf(row), max(limit, f.LeastResolutionOf(row)))
}

// timeVerdict applies the noise rule: a time fails only when its median
// exceeds the limit and so does its whole interquartile range (q1 above
// the limit); a median above the limit with q1 at or below it warns.
func timeVerdict(median, q1, limit float64) Status {
	switch {
	case median <= limit:
		return Pass
	case q1 > limit:
		return Fail
	}
	return Warn
}
