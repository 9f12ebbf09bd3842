package gate

import (
	"errors"
	"strings"
	"testing"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/stats"
	"github.com/memprof/memprof/vocab"
)

// withSamples replaces the samples of rs's operation op with samples,
// keeping the row's summary that of its samples.
func withSamples(t *testing.T, rs *results.File, op vocab.Op, samples []float64) {
	t.Helper()
	for i := range rs.Throughput {
		if rs.Throughput[i].Op == op {
			rs.Throughput[i] = opRow(t, rs.Throughput[i], samples)
			return
		}
	}
	t.Fatalf("no operation %s", op)
}

func opRow(t *testing.T, r results.ThroughputRow, samples []float64) results.ThroughputRow {
	t.Helper()
	q, err := stats.SummarizeSamples(samples)
	if err != nil {
		t.Fatal(err)
	}
	r.SamplesNs, r.Samples = samples, len(samples)
	r.NsPerOpMedian, r.NsPerOpQ1, r.NsPerOpQ3 = q.Median, q.Q1, q.Q3
	return r
}

func findRow(c *Comparison, cas, metric string) (Row, bool) {
	for _, r := range c.Rows {
		if r.Case == cas && r.Metric == metric {
			return r, true
		}
	}
	return Row{}, false
}

// TestCompareFailsClosed: comparisons that cannot conclude anything fail
// (exit 1 in the CLI) or are refused as bad input (exit 2), each with the
// reason; bytes comparisons stay exact and unaffected.
func TestCompareFailsClosed(t *testing.T) {
	verify := "Signature/blst/affine op=verify"
	// baseVerify is the base fixture with n samples of verify.
	baseVerify := func(n int) func() *results.File {
		return func() *results.File {
			rs := fixtureBase()
			rs.Throughput[0] = opRow(t, rs.Throughput[0], seq(n, 1_000_000, 1_000))
			return rs
		}
	}
	type wantRow struct {
		cas, metric string
		change      Change
		fails       bool
		note        string
	}
	tests := []struct {
		name     string
		base     func() *results.File
		head     func(t *testing.T) *results.File
		opts     CompareOptions
		wantErr  string // a refusal: the error must contain this
		badInput bool   // and wrap ErrBadInput
		rows     []wantRow
		ok       bool // the comparison passes
	}{
		{"GOOS differs", fixtureBase, func(t *testing.T) *results.File {
			rs := fixtureBase()
			rs.Env.GOOS = "darwin"
			return rs
		}, CompareOptions{}, `results come from different environments: goos (base "linux", head "darwin")`, false, nil, false},
		{"one sample in head", fixtureBase, func(t *testing.T) *results.File {
			rs := fixtureHead()
			withSamples(t, rs, "verify", []float64{5_000_000})
			return rs
		}, CompareOptions{Tolerance: 0.05, FailOnTime: true}, "", false, []wantRow{
			{verify, "time/op", Unmeasured, true, "too few samples to judge (n=1; at least 4 needed)"},
			{"Signature/blst/affine/pointer/min-pk", "bytes/instance", Regressed, true, ""},
			{"PublicKey/blst/affine/pointer/min-pk", "bytes/instance", Unchanged, false, ""},
		}, false},
		{"three samples in base", baseVerify(3), func(t *testing.T) *results.File { return fixtureHead() }, CompareOptions{Tolerance: 0.05, FailOnTime: true}, "", false, []wantRow{
			{verify, "time/op", Unmeasured, true, "too few samples to judge (n=3; at least 4 needed)"},
		}, false},
		// Without --fail-on-time a time that cannot be judged warns.
		{"three samples in base, times warning", baseVerify(3), func(t *testing.T) *results.File { return fixtureHead() }, CompareOptions{Tolerance: 0.05}, "", false, []wantRow{
			{verify, "time/op", Unmeasured, false, "too few samples to judge (n=3; at least 4 needed); a time: it warns and does not fail without --fail-on-time"},
		}, false},
		{"four samples cannot reach alpha 0.01", baseVerify(4), func(t *testing.T) *results.File {
			rs := fixtureHead()
			withSamples(t, rs, "verify", seq(4, 2_000_000, 1_000))
			return rs
		}, CompareOptions{Tolerance: 0.05, Alpha: 0.01, FailOnTime: true}, "", false, []wantRow{
			{verify, "time/op", Unmeasured, true, "too few samples to judge at alpha 0.01 (n=4+4: the smallest possible p is 0.0286)"},
		}, false},
		{"head's libraries disagreed", fixtureBase, func(t *testing.T) *results.File {
			rs := fixtureBase() // same times as base: would pass
			rs.Agreement = &results.Agreement{Cases: 20, Libs: []vocab.Lib{"blst", "circl", "gnark"}, OK: false}
			return rs
		}, CompareOptions{}, "", false, []wantRow{
			{verify, "time/op", Unmeasured, true, "head: the libraries disagreed (agreement.ok is false; blst, circl, gnark on 20 cases): no time measured with them can be trusted"},
			{"Signature/blst/affine/pointer/min-pk", "bytes/instance", Unchanged, false, ""},
		}, false},
		{"head's libraries disagreed, no times", func() *results.File {
			rs := fixtureBase()
			rs.Throughput = nil
			return rs
		}, func(t *testing.T) *results.File {
			rs := fixtureBase()
			rs.Throughput = nil
			rs.Agreement = &results.Agreement{Cases: 20, Libs: []vocab.Lib{"blst", "gnark"}, OK: false}
			return rs
		}, CompareOptions{}, "", false, []wantRow{
			{"agreement check", "agreement", Unmeasured, true, "head: the libraries disagreed (agreement.ok is false; blst, gnark on 20 cases): no time measured with them can be trusted"},
		}, false},
		{"duplicated case in head", fixtureBase, func(t *testing.T) *results.File {
			rs := fixtureBase()
			dup := rs.Instances[1]
			dup.BytesPerInstance = 1
			rs.Instances = append(rs.Instances, dup)
			return rs
		}, CompareOptions{}, "head: instances[3] (Signature/blst/affine/pointer): duplicate of instances[1]: one case measured twice", true, nil, false},
		{"an operation at two batch sizes is two cases", fixtureBase, func(t *testing.T) *results.File {
			rs := fixtureBase()
			r := rs.Throughput[0]
			r.Batch = 64
			rs.Throughput = append(rs.Throughput, r)
			return rs
		}, CompareOptions{}, "", false, []wantRow{
			{verify, "time/op", Unchanged, false, "not significant (p=1.000)"},
			{verify + " batch=64", "time/op", New, false, ""},
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Compare(tt.base(), tt.head(t), tt.opts)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got error %v, want one containing %q", err, tt.wantErr)
				}
				if tt.badInput != errors.Is(err, ErrBadInput) {
					t.Errorf("errors.Is(err, ErrBadInput): got %v, want %v", !tt.badInput, tt.badInput)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.rows {
				r, ok := findRow(c, w.cas, w.metric)
				if !ok {
					t.Errorf("no row %s %s; rows %+v", w.cas, w.metric, c.Rows)
					continue
				}
				if r.Change != w.change || r.Fails != w.fails || (w.note != "" && r.Note != w.note) {
					t.Errorf("%s %s: got %s (fails %v, note %q), want %s (fails %v, note %q)", w.cas, w.metric, r.Change, r.Fails, r.Note, w.change, w.fails, w.note)
				}
			}
			if c.OK() != tt.ok {
				t.Errorf("OK: got %v, want %v (%d failures)", c.OK(), tt.ok, c.Failures)
			}
		})
	}
}

// TestCheckTimesFailClosed: a results file whose agreement check failed
// passes no time budget (memory budgets are unaffected), and a row
// without samples has no time to check.
func TestCheckTimesFailClosed(t *testing.T) {
	f := readBudgets(t, "../fixtures/budgets/time.yaml")
	tests := []struct {
		name   string
		edit   func(rs *results.File)
		detail string
	}{
		{"libraries disagreed", func(rs *results.File) {
			rs.Agreement = &results.Agreement{Cases: 20, Libs: []vocab.Lib{"blst", "gnark"}, OK: false}
		}, "the libraries disagreed (agreement.ok is false; blst, gnark on 20 cases): no time measured with them can be trusted"},
		{"no samples", func(rs *results.File) { rs.Throughput[0].SamplesNs = nil },
			"no samples_ns: times are judged over the raw samples; re-measure it with this memprof"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := fixtureCheckResults()
			tt.edit(rs)
			rep := Check(f, rs, CheckOptions{})
			if rep.OK() || len(rep.Outcomes) != len(f.Budgets) {
				t.Fatalf("got OK %v with %d outcomes, want %d errors", rep.OK(), len(rep.Outcomes), len(f.Budgets))
			}
			for _, o := range rep.Outcomes {
				if o.Status != Error || o.Detail != tt.detail {
					t.Errorf("%s line %d: got %s %q, want ERROR %q", o.Case, o.Limit.Line, o.Status, o.Detail, tt.detail)
				}
			}
		})
	}
	rs := fixtureCheckResults()
	rs.Agreement = &results.Agreement{Cases: 20, Libs: []vocab.Lib{"blst", "gnark"}, OK: false}
	if rep := Check(readBudgets(t, "../fixtures/budgets/pass.yaml"), rs, CheckOptions{}); !rep.OK() {
		t.Errorf("memory budgets with a failed agreement check: got %d failures, %d errors; want them checked as usual", rep.Count(Fail), rep.Count(Error))
	}
}

// TestCheckAndCompareReadOneTime: check judges TimeFigure's figure (the
// samples' median and quartiles), as compare does, even when the stored
// summary says otherwise (a hand-edited file the reader refuses); compare
// refuses such a file as bad input.
func TestCheckAndCompareReadOneTime(t *testing.T) {
	rs := fixtureCheckResults()
	row := &rs.Throughput[0]
	q, err := stats.SummarizeSamples(row.SamplesNs)
	if err != nil {
		t.Fatal(err)
	}
	row.NsPerOpMedian, row.NsPerOpQ1, row.NsPerOpQ3 = 1, 1, 1 // "1ns": would pass any budget
	rep := Check(readBudgets(t, "../fixtures/budgets/time.yaml"), rs, CheckOptions{})
	for _, o := range rep.Outcomes {
		if o.Measured != q.Median || o.Q1 != q.Q1 || o.Q3 != q.Q3 {
			t.Errorf("check line %d: got median %v [%v, %v], want the samples' %v [%v, %v]", o.Limit.Line, o.Measured, o.Q1, o.Q3, q.Median, q.Q1, q.Q3)
		}
	}
	want := "throughput[0] (Signature/blst/affine op=verify): ns_per_op_median is 1, but the samples_ns give 1450000"
	if _, err := Compare(rs, rs, CompareOptions{}); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), want) {
		t.Errorf("compare: got %v, want ErrBadInput with %q", err, want)
	}
}
