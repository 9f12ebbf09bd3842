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
