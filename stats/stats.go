// Package stats summarises samples: SummarizeSamples is the one
// definition of a timing's median and quartiles, FitSweep and SweepFits
// the one fit of a sweep's line. It imports only memprof's leaves
// (measure, units).
package stats

import (
	"fmt"
	"math"
	"slices"

	"github.com/aclements/go-moremath/stats"
	"golang.org/x/perf/benchmath"
)

// Quartiles summarises per-sample values the way benchstat does: the median
// from golang.org/x/perf/benchmath (AssumeNothing, the distribution-free
// summary benchstat prints), and the first and third quartiles from the
// same order statistics (go-moremath's stats.Sample.Quantile, the library
// benchmath is built on; Hyndman and Fan's definition 8). No value is
// discarded: there is no outlier filtering. values is not modified.
type Quartiles struct {
	Q1, Median, Q3 float64
}

// SummarizeSamples returns the quartiles of values; it is an error to pass
// no values or a value that is not finite.
func SummarizeSamples(values []float64) (Quartiles, error) {
	if len(values) == 0 {
		return Quartiles{}, fmt.Errorf("summarizing samples: no samples")
	}
	for i, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Quartiles{}, fmt.Errorf("summarizing samples: sample %d is %v", i, v)
		}
	}
	sorted := slices.Clone(values) // NewSample sorts in place
	s := benchmath.NewSample(sorted, &benchmath.DefaultThresholds)
	sum := benchmath.AssumeNothing.Summary(s, 0.95)
	ss := stats.Sample{Xs: s.Values, Sorted: true}
	return Quartiles{Q1: ss.Quantile(0.25), Median: sum.Center, Q3: ss.Quantile(0.75)}, nil
}
