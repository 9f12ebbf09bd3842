package stats

import (
	"math"
	"slices"
	"testing"
)

func TestSummarizeSamples(t *testing.T) {
	// Expected values follow from definition 8 of Hyndman and Fan (the
	// quantile go-moremath and benchstat use): for n sorted values x[1..n],
	// h = 1/3 + p*(n + 1/3), Q(p) = x[floor(h)] + frac(h)*(x[floor(h)+1]-x[floor(h)]).
	tests := []struct {
		name   string
		values []float64
		want   Quartiles
	}{
		// n=10: h(0.25) = 1/3 + 2.5 + 1/12 = 2.91666..., h(0.5) = 5.5, h(0.75) = 8.0833...
		{"one to ten shuffled", []float64{7, 3, 10, 1, 5, 2, 9, 4, 8, 6}, Quartiles{Q1: 2 + 11.0/12, Median: 5.5, Q3: 8 + 1.0/12}},
		// n=5: h(0.25) = 1/3 + 1.3333 = 1.6667, h(0.5) = 3, h(0.75) = 4.3333.
		{"five with an outlier kept", []float64{100, 1000, 200, 300, 400}, Quartiles{Q1: 100 + 2.0/3*100, Median: 300, Q3: 400 + 1.0/3*600}},
		{"one value", []float64{42}, Quartiles{42, 42, 42}},
		{"all equal", []float64{5, 5, 5, 5}, Quartiles{5, 5, 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := slices.Clone(tt.values)
			got, err := SummarizeSamples(in)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				what      string
				got, want float64
			}{{"Q1", got.Q1, tt.want.Q1}, {"median", got.Median, tt.want.Median}, {"Q3", got.Q3, tt.want.Q3}} {
				if math.Abs(c.got-c.want) > 1e-9*math.Max(1, math.Abs(c.want)) {
					t.Errorf("%s: got %v, want %v", c.what, c.got, c.want)
				}
			}
			if !slices.Equal(in, tt.values) {
				t.Errorf("input was modified: got %v, want %v", in, tt.values)
			}
		})
	}
}

func TestSummarizeSamplesErrors(t *testing.T) {
	for _, values := range [][]float64{nil, {1, math.NaN()}, {math.Inf(1)}} {
		if _, err := SummarizeSamples(values); err == nil {
			t.Errorf("SummarizeSamples(%v): got no error, want one", values)
		}
	}
}
