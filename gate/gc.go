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

// CPUFigure is the GC CPU-time figure check judges for an instance row:
// the median and quartiles of its gc_cpu_samples_ns, as MarkFigure's. A
// row without samples has no figure: the error says why (a file older
// than the figure, or a system whose CPU time was not read).
func CPUFigure(r *model.Result) (model.Quartiles, error) {
	if len(r.GCCPUSamplesNs) == 0 {
		if r.GCCPUUnavailable != "" {
			return model.Quartiles{}, fmt.Errorf("no gc_cpu_samples_ns: %s", r.GCCPUUnavailable)
		}
		return model.Quartiles{}, errors.New("no gc_cpu_samples_ns: the results predate the GC CPU figures, or the case was measured without them; re-measure it with this memprof")
	}
	return model.SummarizeSamples(r.GCCPUSamplesNs)
}

// gcFigure judges limit l of the collector's metrics against r, setting
// o, and reports whether l is one of them. The scan bytes are exact like
// the bytes, but read to a resolution (the runtime's own objects come and
// go between readings): an excess within it warns, as the off-heap
// figure's does. The CPU time follows the noise rule of times, min_delta
// included (b's). The mark time is the runtime's estimate, which a busy
// machine inflates: judged by the same rule, it warns where it would
// fail. A row without the figure (a results file older than it) is an
// Error: a budget is never held by a figure that was not measured.
func gcFigure(o *Outcome, b *Budget, l Limit, r *model.Result) bool {
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
	case GCCPUNsPerInstance:
		q, err := CPUFigure(r)
		if err != nil {
			o.Status, o.Detail = Error, err.Error()
			return true
		}
		timeOutcome(o, q, l.Value)
		noiseFloor(b, l, o)
		return true
	case GCMarkNsPerInstance:
		q, err := MarkFigure(r)
		if err != nil {
			o.Status, o.Detail = Error, err.Error()
			return true
		}
		timeOutcome(o, q, l.Value)
		if o.Status == Fail {
			o.Status = Warn
			o.Detail = "the runtime's estimate of mark-worker time, which a busy machine inflates, is above the budget: it warns and never fails; max_gc_cpu_ns_per_instance bounds the CPU time"
		}
		return true
	}
	return false
}

// timeOutcome sets o from the time figure q against limit by the noise
// rule: above the budget with the interquartile range reaching below it
// is a warning.
func timeOutcome(o *Outcome, q model.Quartiles, limit float64) {
	o.Measured, o.Q1, o.Q3 = q.Median, q.Q1, q.Q3
	o.Status = timeVerdict(o.Measured, o.Q1, limit)
	if o.Status == Warn {
		o.Detail = fmt.Sprintf("median above the budget but the interquartile range [%s, %s] reaches below it: likely noise, re-measure to be sure",
			model.FormatNs(o.Q1), model.FormatNs(o.Q3))
	}
}
