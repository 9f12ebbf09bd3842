package gate

import (
	"fmt"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/stats"
)

// SampleFigure is the figure check and compare judge for a figure judged
// over its samples (results.Figure.Samples: an operation's time, the GC mark
// time) in row: the median and quartiles of the samples, as
// stats.SummarizeSamples computes them (the benchmath median that
// benchstat prints, Hyndman-Fan definition 8 quartiles), and their
// number. The row's stored summary is not read: the results reader has
// checked that it equals this one, so reports, check and compare all show
// the same figure. A row without samples has no figure.
func SampleFigure(f *results.Figure, row results.FigureRow) (q stats.Quartiles, n int, err error) {
	samples := f.SamplesOf(row)
	if len(samples) == 0 {
		if f.NeedsSamples {
			return stats.Quartiles{}, 0, fmt.Errorf("%s", f.Missing(row))
		}
		return stats.Quartiles{}, 0, fmt.Errorf("no %s: times are judged over the raw samples; re-measure it with this memprof", f.Samples)
	}
	q, err = stats.SummarizeSamples(samples)
	if err != nil {
		return stats.Quartiles{}, 0, err
	}
	return q, len(samples), nil
}

// MarkFigure is the GC mark-time figure check judges for an instance
// row, as TimeFigure is an operation's (SampleFigure of
// gc_mark_ns_per_instance).
func MarkFigure(r *results.Row) (stats.Quartiles, error) {
	q, _, err := SampleFigure(GCMarkNsPerInstance.f, r)
	return q, err
}

// CPUFigure is the GC CPU-time figure check judges for an instance row
// (SampleFigure of gc_cpu_ns_per_instance): the median and quartiles of
// its gc_cpu_samples_ns. A row without them has no figure, and the error
// says why (a file older than the figure, or gc_cpu_unavailable).
func CPUFigure(r *results.Row) (stats.Quartiles, error) {
	q, _, err := SampleFigure(GCCPUNsPerInstance.f, r)
	return q, err
}
