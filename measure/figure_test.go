package measure

import (
	"testing"

	"github.com/memprof/memprof/units"
)

// TestSampledQuartiles: a sampled figure is the median of its list, and
// its quartiles are named after it (without a _median suffix), titled
// after it, of its unit and sign, and neither budgeted, compared nor
// exported.
func TestSampledQuartiles(t *testing.T) {
	tests := []struct {
		name, wantQ1, wantQ3 string
	}{
		{"ns_per_op_median", "ns_per_op_q1", "ns_per_op_q3"},
		{"gc_cpu_ns_per_instance", "gc_cpu_ns_per_instance_q1", "gc_cpu_ns_per_instance_q3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Sampled(Figure{Name: tt.name, Title: "a time", Unit: units.Nanoseconds, Signed: true,
				Resolution: "its_resolution", Budget: "max_" + tt.name, Judge: JudgeNoise, Compare: "time",
				Dashboard: "ns", Bencher: "ns", Bench: "ns"}, "its_samples")
			if f.Samples != "its_samples" || f.Summary != SummaryMedian {
				t.Fatalf("Sampled: got samples %q, summary %d; want its_samples, the median", f.Samples, f.Summary)
			}
			q1, q3 := f.Quartiles()
			for _, q := range []struct {
				got        Figure
				name, word string
				summary    Summary
			}{{q1, tt.wantQ1, "first", SummaryQ1}, {q3, tt.wantQ3, "third", SummaryQ3}} {
				want := Figure{Name: q.name, Title: "a time, " + q.word + " quartile", Unit: units.Nanoseconds,
					Obtained: "the " + q.word + " quartile of its_samples", Signed: true, Samples: "its_samples", Summary: q.summary}
				if q.got != want {
					t.Errorf("got %+v, want %+v", q.got, want)
				}
			}
		})
	}
}

// TestSummaryOf: each statistic picks its quartile.
func TestSummaryOf(t *testing.T) {
	for s, want := range map[Summary]float64{SummaryQ1: 1, SummaryMedian: 2, SummaryQ3: 3} {
		if got := s.Of(1, 2, 3); got != want {
			t.Errorf("%d: got %v, want %v", s, got, want)
		}
	}
}
