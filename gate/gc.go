package gate

import (
	"errors"
	"fmt"

	"github.com/memprof/memprof/model"
)

// errNoMarkSamples is MarkFigure's error for a row without
// gc_mark_samples_ns.
var errNoMarkSamples = errors.New("no gc_mark_samples_ns: the results predate the GC figures, or the case was measured without them; re-measure it with this memprof")

// MarkFigure is the GC mark-time figure check judges for an instance
// row, as TimeFigure is an operation's: the median and quartiles of its
// gc_mark_samples_ns (model.SummarizeSamples), not the stored summary
// (which the results reader has checked equals it). A row without
// samples has no figure.
func MarkFigure(r *model.Result) (model.Quartiles, error) {
	if len(r.GCMarkSamplesNs) == 0 {
		return model.Quartiles{}, errNoMarkSamples
	}
	return model.SummarizeSamples(r.GCMarkSamplesNs)
}

// gcFigure judges limit l of the collector's metrics against r, setting
// o, and reports whether l is one of them. The scan bytes are exact like
// the bytes, but read to a resolution (the runtime's own objects come and
// go between readings): an excess within it warns, as the off-heap
// figure's does. The mark time follows the noise rule of times. A row
// without the figure (a results file older than it) is an Error: a budget
// is never held by a figure that was not measured.
func gcFigure(o *Outcome, l Limit, r *model.Result) bool {
	switch l.Metric {
	case ScanBytesPerInstance:
		if r.ScanResolution <= 0 {
			o.Status, o.Detail = Error, "no scan_bytes_per_instance: the results predate the GC figures; re-measure it with this memprof"
			return true
		}
		o.Measured, o.Status = r.ScanBytesPerInstance, Pass
		switch {
		case o.Measured <= l.Value:
		case o.Measured-l.Value <= r.ScanResolution:
			o.Status = Warn
			o.Detail = fmt.Sprintf("above the budget by no more than the reading's resolution (%s per instance): measure at a larger N to tell", model.FormatBytes(r.ScanResolution))
		default:
			o.Status = Fail
		}
		return true
	case GCMarkNsPerInstance:
		q, err := MarkFigure(r)
		if err != nil {
			o.Status, o.Detail = Error, err.Error()
			return true
		}
		o.Measured, o.Q1, o.Q3 = q.Median, q.Q1, q.Q3
		o.Status = timeVerdict(o.Measured, o.Q1, l.Value)
		if o.Status == Warn {
			o.Detail = fmt.Sprintf("median above the budget but the interquartile range [%s, %s] reaches below it: likely noise, re-measure to be sure",
				model.FormatNs(o.Q1), model.FormatNs(o.Q3))
		}
		return true
	}
	return false
}
