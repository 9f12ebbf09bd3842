package gate

import (
	"errors"
	"strings"
	"testing"
)

func compareFixtures(t *testing.T, basePath, headPath string, opts CompareOptions) (*Comparison, error) {
	t.Helper()
	return Compare(readFixture(t, "../fixtures/compare/"+basePath), readFixture(t, "../fixtures/compare/"+headPath), opts)
}

func TestCompareFixtures(t *testing.T) {
	c, err := compareFixtures(t, "base.json", "head.json", CompareOptions{Tolerance: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		change Change
		fails  bool
	}
	wants := map[string]want{
		"Signature/blst/affine/pointer/min-pk bytes/instance":  {Regressed, true},
		"Signature/blst/affine/pointer/min-pk allocs/instance": {Unchanged, false},
		"PublicKey/blst/affine/pointer/min-pk bytes/instance":  {Unchanged, false},
		"PublicKey/blst/affine/pointer/min-pk allocs/instance": {Unchanged, false},
		"G1/gnark/affine/pointer bytes/instance":               {Missing, true},
		"G1/gnark/affine/pointer allocs/instance":              {Missing, true},
		"G2/gnark/affine/pointer bytes/instance":               {New, false},
		"G2/gnark/affine/pointer allocs/instance":              {New, false},
		"Signature/blst/affine op=verify time/op":              {Regressed, false}, // a warning: times fail only with FailOnTime
		"Signature/blst/affine op=aggregate time/op":           {Unchanged, false},
		"Signature/blst/affine op=decompress time/op":          {Unchanged, false},
		"Signature/blst/affine op=sign time/op":                {Improved, false},
	}
	if len(c.Rows) != len(wants) {
		t.Errorf("got %d rows, want %d", len(c.Rows), len(wants))
	}
	seenPass := false
	for _, r := range c.Rows {
		k := r.Case + " " + r.Metric
		w, ok := wants[k]
		if !ok {
			t.Errorf("unexpected row %s", k)
			continue
		}
		if r.Change != w.change || r.Fails != w.fails {
			t.Errorf("%s: got %s (fails %v), want %s (fails %v); note %q", k, r.Change, r.Fails, w.change, w.fails, r.Note)
		}
		if r.Warns != (w.change == Regressed && !w.fails) {
			t.Errorf("%s: got warns %v, want %v", k, r.Warns, !r.Warns)
		}
		if !r.Fails {
			seenPass = true
		} else if seenPass {
			t.Errorf("%s: failing row after a passing one; want failing rows first", k)
		}
	}
	if c.Failures != 3 || c.Verdict() != "3 regressions" || c.TimeWarnings != 1 {
		t.Errorf("got %d failures, verdict %q, %d time warnings; want 3, %q, 1", c.Failures, c.Verdict(), c.TimeWarnings, "3 regressions")
	}

	// Figures follow from the construction in fixtures_test.go.
	row := func(k string) Row {
		for _, r := range c.Rows {
			if r.Case+" "+r.Metric == k {
				return r
			}
		}
		t.Fatalf("no row %s", k)
		return Row{}
	}
	if r := row("Signature/blst/affine/pointer/min-pk bytes/instance"); r.Base != 192 || r.Head != 288 || r.Delta != 96 || r.DeltaFraction != 0.5 {
		t.Errorf("bytes regression: got base %v head %v delta %v (%v), want 192, 288, +96 (0.5)", r.Base, r.Head, r.Delta, r.DeltaFraction)
	}
	if r := row("Signature/blst/affine op=verify time/op"); r.P >= 0.05 || r.N1 != 10 || r.N2 != 10 || r.DeltaFraction < 0.0999 || r.DeltaFraction > 0.1001 {
		t.Errorf("verify: got p=%v n=%d+%d delta %v, want p<0.05, n=10+10, +10%%", r.P, r.N1, r.N2, r.DeltaFraction)
	}
	if r := row("Signature/blst/affine op=aggregate time/op"); r.P < 0.05 || r.DeltaFraction <= 0.05 {
		t.Errorf("aggregate: got p=%v delta %v, want p>=0.05 with a delta above the 5%% tolerance (insignificant)", r.P, r.DeltaFraction)
	}
	if r := row("Signature/blst/affine op=decompress time/op"); r.P >= 0.05 || r.DeltaFraction > 0.05 {
		t.Errorf("decompress: got p=%v delta %v, want significant and within tolerance", r.P, r.DeltaFraction)
	}
}

func TestCompareOptions(t *testing.T) {
	tests := []struct {
		name     string
		opts     CompareOptions
		failures int
	}{
		{"strict", CompareOptions{Tolerance: 0.05, FailOnTime: true}, 4},
		{"times warn by default", CompareOptions{Tolerance: 0.05}, 3},
		{"allow missing", CompareOptions{Tolerance: 0.05, AllowMissing: true, FailOnTime: true}, 2},
		{"bytes tolerance covers +96", CompareOptions{Tolerance: 0.05, ToleranceBytes: 96, FailOnTime: true}, 3},
		{"bytes tolerance below +96", CompareOptions{Tolerance: 0.05, ToleranceBytes: 95, FailOnTime: true}, 4},
		{"time tolerance above +10%", CompareOptions{Tolerance: 0.11, FailOnTime: true}, 3},
		{"zero time tolerance flags the significant +2%", CompareOptions{Tolerance: 0, FailOnTime: true}, 5},
		{"zero time tolerance, times warning", CompareOptions{Tolerance: 0}, 3},
	}
	for _, tt := range tests {
		c, err := compareFixtures(t, "base.json", "head.json", tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		if c.Failures != tt.failures {
			t.Errorf("%s: got %d failures, want %d", tt.name, c.Failures, tt.failures)
		}
	}
	same, err := compareFixtures(t, "base.json", "base.json", CompareOptions{Tolerance: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	if !same.OK() || same.Verdict() != "no regression detected" {
		t.Errorf("base vs itself: got %d failures, verdict %q; want none", same.Failures, same.Verdict())
	}
}

func TestCompareEnvMismatch(t *testing.T) {
	_, err := compareFixtures(t, "base.json", "head-other-env.json", CompareOptions{})
	var em *EnvMismatchError
	if !errors.As(err, &em) {
		t.Fatalf("got %v, want an *EnvMismatchError", err)
	}
	var fields []string
	for _, d := range em.Diffs {
		fields = append(fields, d.Field)
	}
	if got, want := strings.Join(fields, ","), "cpu,go_version"; got != want {
		t.Errorf("differing fields: got %s, want %s", got, want)
	}
	for _, w := range []string{`cpu (base "Fixture CPU @ 3.00GHz", head "Other CPU @ 2.00GHz")`, "go_version", "--allow-env-mismatch"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not contain %q", err, w)
		}
	}
	c, err := compareFixtures(t, "base.json", "head-other-env.json", CompareOptions{AllowEnvMismatch: true})
	if err != nil {
		t.Fatalf("allowed mismatch: %v", err)
	}
	if len(c.EnvDiffs) != 2 || !c.OK() {
		t.Errorf("allowed mismatch: got %d env diffs, OK %v; want 2 diffs and OK (same measurements)", len(c.EnvDiffs), c.OK())
	}
}

func TestCompareNoSamples(t *testing.T) {
	_, err := compareFixtures(t, "base.json", "head-no-samples.json", CompareOptions{})
	if !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "head has no samples_ns") {
		t.Errorf("got %v, want ErrBadInput naming head's missing samples_ns", err)
	}
}
