package gate

import (
	"strings"
	"testing"

	"github.com/memprof/memprof/results"
)

const checkResults = "../fixtures/budgets/results.json"

func readBudgets(t *testing.T, path string) *File {
	t.Helper()
	f, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

type wantOutcome struct {
	line   int
	cas    string
	status Status
}

func TestCheckFixtures(t *testing.T) {
	rs := readFixture(t, checkResults)
	sig, pk := rs.Instances[1], rs.Instances[0]
	tests := []struct {
		file     string
		want     []wantOutcome
		problems []string
		ok       bool
		opts     CheckOptions
	}{
		{"pass.yaml", []wantOutcome{
			{5, "Signature/blst/affine/pointer/min-pk", Pass}, {6, "Signature/blst/affine/pointer/min-pk", Pass}, {7, "Signature/blst/affine/pointer/min-pk", Pass},
			{11, "PublicKey/blst/affine/pointer/min-pk", Pass}, {11, "Signature/blst/affine/pointer/min-pk", Pass},
		}, nil, true, CheckOptions{}},
		{"exceeded.yaml", []wantOutcome{
			{5, "PublicKey/blst/affine/pointer/min-pk", Pass}, {7, "Signature/blst/affine/pointer/min-pk", Fail},
		}, nil, false, CheckOptions{}},
		{"failed-case.yaml", []wantOutcome{
			{5, "Signature/gnark/affine/pointer/min-pk", Error}, {7, "{type: G2, lib: blst, repr: affine, layout: pointer}", Error},
		}, nil, false, CheckOptions{}},
		{"no-match.yaml", []wantOutcome{
			{5, "Signature/blst/affine/pointer/min-pk", Pass},
		}, []string{"no-match.yaml:6: select {type: G1, lib: circl, repr: affine} matches no measured case"}, false, CheckOptions{}},
		{"time.yaml", []wantOutcome{
			{5, "Signature/blst/affine op=verify", Pass}, {7, "Signature/blst/affine op=verify", Warn}, {9, "Signature/blst/affine op=verify", Fail},
		}, nil, false, CheckOptions{FailOnTime: true}},
		// Without --fail-on-time a time above its budget warns.
		{"time.yaml", []wantOutcome{
			{5, "Signature/blst/affine op=verify", Pass}, {7, "Signature/blst/affine op=verify", Warn}, {9, "Signature/blst/affine op=verify", Warn},
		}, nil, true, CheckOptions{}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f := readBudgets(t, "../fixtures/budgets/"+tt.file)
			rep := Check(f, rs, tt.opts)
			if len(rep.Outcomes) != len(tt.want) {
				t.Fatalf("got %d outcomes, want %d: %+v", len(rep.Outcomes), len(tt.want), rep.Outcomes)
			}
			for i, w := range tt.want {
				o := rep.Outcomes[i]
				if o.Limit.Line != w.line || o.Case != w.cas || o.Status != w.status {
					t.Errorf("outcome %d: got line %d %s %s, want line %d %s %s (%s)", i, o.Limit.Line, o.Case, o.Status, w.line, w.cas, w.status, o.Detail)
				}
			}
			if len(rep.Problems) != len(tt.problems) {
				t.Errorf("got problems %v, want %v", rep.Problems, tt.problems)
			}
			for i := range min(len(rep.Problems), len(tt.problems)) {
				if !strings.Contains(rep.Problems[i].Error(), tt.problems[i]) {
					t.Errorf("problem %d: got %q, want it to contain %q", i, rep.Problems[i], tt.problems[i])
				}
			}
			if rep.OK() != tt.ok {
				t.Errorf("OK: got %v, want %v", rep.OK(), tt.ok)
			}
		})
	}

	// The measured values are the results file's, not a copy.
	f := readBudgets(t, "../fixtures/budgets/exceeded.yaml")
	rep := Check(f, rs, CheckOptions{})
	if got := rep.Outcomes[1]; got.Measured != sig.BytesPerInstance {
		t.Errorf("exceeded: measured %v, want %v", got.Measured, sig.BytesPerInstance)
	} else if by, frac := got.Over(); by != sig.BytesPerInstance-128 || frac != (sig.BytesPerInstance-128)/128 {
		t.Errorf("exceeded by: got %v (%v), want %v", by, frac, sig.BytesPerInstance-128)
	}
	if got := rep.Outcomes[0]; got.Measured != pk.BytesPerInstance {
		t.Errorf("holds: measured %v, want %v", got.Measured, pk.BytesPerInstance)
	}
}

func TestCheckTimeRule(t *testing.T) {
	tests := []struct {
		median, q1, limit float64
		want              Status
	}{
		{1.0, 0.9, 1.0, Pass}, // at the limit holds
		{0.9, 0.8, 1.0, Pass},
		{1.1, 0.95, 1.0, Warn}, // median above, IQR straddles
		{1.1, 1.0, 1.0, Warn},  // q1 exactly at the limit is not above it
		{1.1, 1.05, 1.0, Fail}, // whole IQR above
	}
	for _, tt := range tests {
		if got := timeVerdict(tt.median, tt.q1, tt.limit); got != tt.want {
			t.Errorf("timeVerdict(median %v, q1 %v, limit %v): got %s, want %s", tt.median, tt.q1, tt.limit, got, tt.want)
		}
	}
}

// TestCheckFailsClosed: whatever cannot be checked is an error, never a
// pass.
func TestCheckFailsClosed(t *testing.T) {
	rs := readFixture(t, checkResults)

	// Timing not available (check measured, no throughput): error.
	f := readBudgets(t, "../fixtures/budgets/time.yaml")
	rep := Check(f, rs, CheckOptions{TimingUnavailable: "timing is not available"})
	if rep.OK() || rep.Count(Error) != 3 {
		t.Errorf("timing unavailable: got OK %v with %d errors, want not OK with 3 errors", rep.OK(), rep.Count(Error))
	}

	// Results without throughput rows: time budgets are errors.
	noTimes := *rs
	noTimes.Throughput = nil
	rep = Check(f, &noTimes, CheckOptions{})
	if rep.OK() || rep.Count(Error) != 3 || !strings.Contains(rep.Outcomes[0].Detail, "timing is not available") {
		t.Errorf("no throughput rows: got OK %v, %d errors, detail %q; want 3 timing errors", rep.OK(), rep.Count(Error), rep.Outcomes[0].Detail)
	}

	// A time row that failed to measure.
	failed := *rs
	failed.Throughput = append(failed.Throughput[:0:0], rs.Throughput...)
	failed.Throughput[0].Error = "boom"
	rep = Check(f, &failed, CheckOptions{})
	if rep.Count(Error) != 3 {
		t.Errorf("failed time row: got %d errors, want 3", rep.Count(Error))
	}

	// An empty results file selects nothing: every budget is a problem.
	rep = Check(readBudgets(t, "../fixtures/budgets/pass.yaml"), &results.File{Schema: results.Schema}, CheckOptions{})
	if rep.OK() || len(rep.Problems) != 2 {
		t.Errorf("empty results: got OK %v with problems %v, want 2 problems", rep.OK(), rep.Problems)
	}

	// A budget naming a library whose case is unavailable while others
	// were measured: the unavailable one is reported as skipped, the rest
	// checked.
	f, err := Parse("skip.yaml", []byte("version: 1\nbudgets:\n  - select: {type: [PublicKey, G2], lib: blst}\n    max_bytes_per_instance: 1KiB\n"))
	if err != nil {
		t.Fatal(err)
	}
	rep = Check(f, rs, CheckOptions{})
	if !rep.OK() || rep.Count(Pass) != 1 || rep.Count(Skip) != 1 {
		t.Errorf("partly unavailable: got OK %v, %d pass, %d skip; want OK, 1 pass, 1 skip", rep.OK(), rep.Count(Pass), rep.Count(Skip))
	}

	// Off-heap within the reading's resolution warns; beyond it fails.
	f, err = Parse("offheap.yaml", []byte("version: 1\nbudgets:\n  - select: {type: Signature, lib: blst}\n    max_offheap_bytes_per_instance: 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		offheap, resolution float64
		want                Status
	}{{2, 2.62, Pass}, {4.5, 2.62, Warn}, {4.62, 2.62, Warn}, {4.7, 2.62, Fail}, {2.1, 0, Fail}} {
		one := *rs
		one.Instances = []results.Row{rs.Instances[1]}
		one.Instances[0].OffheapBytesPerInstance, one.Instances[0].OffheapResolution = tt.offheap, tt.resolution
		rep = Check(f, &one, CheckOptions{})
		if got := rep.Outcomes[0].Status; got != tt.want {
			t.Errorf("off-heap %v (resolution %v) against 2: got %s, want %s", tt.offheap, tt.resolution, got, tt.want)
		}
	}
}
