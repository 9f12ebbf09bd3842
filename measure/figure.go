package measure

import (
	"strings"

	"github.com/memprof/memprof/units"
)

// Figure describes one measured quantity, whatever row carries it: its
// name, unit, resolution, samples, how a budget judges it and its names in
// compare and the exports. It says nothing of where a results file keeps
// it: package results binds each Figure to a field of its rows (its
// Figures registry), and the gate, compare and the exports read this
// description through that registry.
type Figure struct {
	// Name is the figure's JSON field in its row, and the name budgets,
	// messages and --columns know it by: "scan_bytes_per_instance".
	Name string
	// Title names the figure in sentences and in the gate's reports:
	// "GC scan bytes per instance".
	Title string
	Unit  units.Unit
	// Obtained says in a sentence how the figure is obtained.
	Obtained string
	// Signed: the figure is a difference of readings and may be below 0.
	Signed bool

	// Resolution names the figure that says how far from the truth this
	// one can be, per instance (offheap_resolution_bytes_per_instance);
	// "" for an exact figure.
	Resolution string
	// Samples names the list of samples this figure summarizes
	// (samples_ns), and Summary which statistic of it the figure is.
	// Sampled makes such a figure; Quartiles gives its first and third
	// quartiles.
	Samples string
	Summary Summary

	// Budget is the key of a budget on the figure
	// ("max_scan_bytes_per_instance"), "" for none, and Judge how the gate
	// holds it.
	Budget string
	Judge  Judge
	// Instead, for an estimate (JudgeEstimate), says which budget bounds
	// what it estimates ("max_gc_cpu_ns_per_instance bounds the
	// collector's CPU time").
	Instead string

	// Compare is the figure's metric in compare ("bytes/instance"), ""
	// when compare does not judge it. A figure with Samples is compared
	// by a Mann-Whitney U test over them, others exactly.
	Compare string

	// Dashboard is the unit of the figure's entries for
	// github-action-benchmark ("B/instance"), Bencher the Bencher measure
	// ("bytes-per-instance"), Bench its unit in the Go benchmark format
	// ("B/instance", no white space); "" where that export leaves it out.
	Dashboard, Bencher, Bench string
}

// Sampled is the one constructor of a figure summarized from a list of
// samples: f as the median of the list samples. Its quartiles follow
// from it (Quartiles); a registry that lists f lists them beside it.
func Sampled(f Figure, samples string) Figure {
	f.Samples, f.Summary = samples, SummaryMedian
	return f
}

// Quartiles returns the first and third quartiles of the samples of a
// sampled figure (Sampled): named as f without a "_median" suffix, with
// "_q1" or "_q3" added, titled as f with ", first quartile" or ", third
// quartile", shown but never budgeted, compared or exported.
func (f Figure) Quartiles() (q1, q3 Figure) {
	return f.quartile(SummaryQ1), f.quartile(SummaryQ3)
}

func (f Figure) quartile(q Summary) Figure {
	suffix, which := "_q1", "first"
	if q == SummaryQ3 {
		suffix, which = "_q3", "third"
	}
	return Figure{
		Name:     strings.TrimSuffix(f.Name, "_median") + suffix,
		Title:    f.Title + ", " + which + " quartile",
		Unit:     f.Unit,
		Obtained: "the " + which + " quartile of " + f.Samples,
		Signed:   f.Signed,
		Samples:  f.Samples,
		Summary:  q,
	}
}

// Summary is which statistic of its samples a figure is.
type Summary uint8

// The statistics (the quartiles of stats.SummarizeSamples).
const (
	SummaryNone Summary = iota
	SummaryMedian
	SummaryQ1
	SummaryQ3
)

// Of returns the statistic s of samples whose quartiles are q1, median
// and q3.
func (s Summary) Of(q1, median, q3 float64) float64 {
	switch s {
	case SummaryQ1:
		return q1
	case SummaryQ3:
		return q3
	}
	return median
}

// Judge is how the gate holds a figure to its budget.
type Judge uint8

// The judgements.
const (
	// JudgeExact: above the limit fails.
	JudgeExact Judge = iota
	// JudgeResolution: exact, but an excess within the row's resolution
	// of the figure warns (the reading cannot tell).
	JudgeResolution
	// JudgeNoise: a time judged over its samples by the noise rule: it
	// fails only when the median and the whole interquartile range exceed
	// the limit, and a min_delta may turn a failure into a warning.
	JudgeNoise
	// JudgeEstimate: judged as JudgeNoise, but where that fails it warns:
	// an estimate that a busy machine inflates (the runtime's mark time)
	// never fails a check.
	JudgeEstimate
)

// OverSamples reports whether the judgement holds the figure's samples to
// the limit (the noise rule) rather than its one value.
func (j Judge) OverSamples() bool { return j == JudgeNoise || j == JudgeEstimate }
