package gate

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/memprof/memprof/units"
)

// TestParseWaiverErrors: a malformed or unknown expires date, an issue
// that is not a URL and a min_delta that is not a percentage or a
// duration, or that is given to a budget without a time limit, are errors
// of the file at their line, never a budget that passes.
func TestParseWaiverErrors(t *testing.T) {
	budget := "version: 1\nbudgets:\n  - select: {type: Signature}\n    max_bytes_per_instance: 192B\n"
	timed := "version: 1\nbudgets:\n  - select: {type: Signature, op: verify}\n    max_ns_per_op: 2ms\n"
	tests := []parseCase{
		{"month 13", budget + "    expires: 2027-13-01\n", `b.yaml:5: expires: "2027-13-01" is not a date: write the day the waiver ends as YYYY-MM-DD`},
		{"no such day", budget + "    expires: 2027-02-30\n", `b.yaml:5: expires: "2027-02-30" is not a date`},
		{"day first", budget + "    expires: 31/03/2027\n", `b.yaml:5: expires: "31/03/2027" is not a date`},
		{"a time, not a day", budget + "    expires: 2027-03-31T12:00:00Z\n", `b.yaml:5: expires: "2027-03-31T12:00:00Z" is not a date`},
		{"words", budget + "    expires: next quarter\n", `b.yaml:5: expires: "next quarter" is not a date`},
		{"empty", budget + "    expires:\n", "b.yaml:5: expires must be a date such as 2027-03-31, got nothing"},
		{"a list", budget + "    expires: [2027-03-31]\n", "b.yaml:5: expires must be a date such as 2027-03-31, got a list"},
		{"issue not a URL", budget + "    expires: 2027-03-31\n    issue: \"#812\"\n", `b.yaml:6: issue: "#812" is not a URL: link the issue that tracks the budget`},
		{"issue without host", budget + "    issue: https://\n", `b.yaml:5: issue: "https://" is not a URL`},
		{"min_delta on bytes", budget + "    min_delta: 5%\n", "b.yaml:5: min_delta is a noise floor for " + strings.Join(metricKeys(Metric.IsTime), " and ") + ": bytes and allocation budgets stay exact"},
		{"min_delta negative", timed + "    min_delta: -5%\n", `b.yaml:5: min_delta: percentage "-5%": must be a finite number >= 0`},
		{"min_delta words", timed + "    min_delta: a bit\n", `b.yaml:5: min_delta: duration "a bit"`},
		{"min_delta empty", timed + "    min_delta: \"\"\n", "b.yaml:5: min_delta must be a percentage of the budget such as 5%, or a duration such as 50us"},
	}
	checkParse(t, tests)
}

// waiverFile is a budgets file whose first budget, Signature/blst's
// bytes, is a waiver ending on 2027-03-31; the second budget does not
// end. Both hold against results.json.
const waiverFile = `version: 1
budgets:
  - select: {type: Signature, lib: blst, repr: affine}
    max_bytes_per_instance: 192B   # raised for the new decoder
    expires: 2027-03-31
    issue: https://github.com/example/node/issues/812
    owner: crypto-team
  - select: {type: PublicKey, lib: blst}
    max_bytes_per_instance: 96
`

// at is a clock stopped at the RFC 3339 time s.
func at(t *testing.T, s string) func() time.Time {
	t.Helper()
	now, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return func() time.Time { return now }
}

// TestWaiverExpires: a budget holds through the last second of its
// expires day (UTC) and fails from the first second after, whatever was
// measured, with the date, owner and issue; budgets without expires are
// not touched. The clock is injected.
func TestWaiverExpires(t *testing.T) {
	rs := readFixture(t, checkResults)
	f, err := Parse("w.yaml", []byte(waiverFile))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Budgets[0].Expires.Format(dateLayout); got != "2027-03-31" || f.Budgets[0].ExpiresLine != 5 {
		t.Fatalf("expires: got %s at line %d, want 2027-03-31 at line 5", got, f.Budgets[0].ExpiresLine)
	}
	tests := []struct {
		now     string
		ok      bool
		waiver  Status
		expired bool
	}{
		{"2026-11-29T10:00:00Z", true, Pass, false},
		{"2027-03-31T23:59:59Z", true, Pass, false},
		{"2027-03-31T23:59:59-05:00", false, Fail, true}, // 04:59:59 UTC on April 1
		{"2027-04-01T00:00:00Z", false, Fail, true},
		{"2031-01-01T00:00:00Z", false, Fail, true},
	}
	for _, tt := range tests {
		t.Run(tt.now, func(t *testing.T) {
			rep := Check(f, rs, CheckOptions{Now: at(t, tt.now)})
			if rep.OK() != tt.ok {
				t.Errorf("OK: got %v, want %v", rep.OK(), tt.ok)
			}
			for _, o := range rep.Outcomes {
				want, wantExpired, detail := Pass, false, ""
				if o.Budget == f.Budgets[0] {
					want, wantExpired = tt.waiver, tt.expired
					if tt.expired {
						detail = "budget expired on 2027-03-31 (crypto-team, https://github.com/example/node/issues/812)"
					}
				}
				if o.Status != want || o.Expired != wantExpired || o.Detail != detail {
					t.Errorf("%s: got %v (expired %v, %q), want %v (expired %v, %q)", o.Case, o.Status, o.Expired, o.Detail, want, wantExpired, detail)
				}
			}
		})
	}
}

// TestUpdateDoesNotExtendWaivers: Update keeps expires and issue byte for
// byte while the waiver holds, and refuses, changing nothing, once it has
// expired: re-basing a gate does not renew a waiver.
func TestUpdateDoesNotExtendWaivers(t *testing.T) {
	rs := readFixture(t, checkResults)
	f, err := Parse("w.yaml", []byte(waiverFile))
	if err != nil {
		t.Fatal(err)
	}
	out, err := Update(f, Check(f, rs, CheckOptions{Now: at(t, "2027-03-31T12:00:00Z")}), 1.2)
	if err != nil {
		t.Fatalf("Update while the waiver holds: %v", err)
	}
	for _, line := range []string{"    expires: 2027-03-31\n", "    issue: https://github.com/example/node/issues/812\n"} {
		if !bytes.Contains(out, []byte(line)) {
			t.Errorf("updated file lacks %q:\n%s", line, out)
		}
	}
	out, err = Update(f, Check(f, rs, CheckOptions{Now: at(t, "2027-04-01T00:00:00Z")}), 1.2)
	want := "w.yaml:5: budget expired on 2027-03-31 (crypto-team, https://github.com/example/node/issues/812): --update does not extend a waiver"
	if err == nil || !strings.Contains(err.Error(), want) || out != nil {
		t.Errorf("Update after expiry: got %d bytes and %v, want nothing and an error holding %q", len(out), err, want)
	}
}

// TestNoiseFloor: a time over its budget by no more than min_delta (a
// percentage of the budget, or a duration) warns instead of failing; one
// over by more still fails. The limits are derived from the fixture's
// own samples: each puts the whole interquartile range above the budget,
// which fails without a floor.
func TestNoiseFloor(t *testing.T) {
	rs := readFixture(t, checkResults)
	q, _, err := TimeFigure(&rs.Throughput[0])
	if err != nil {
		t.Fatal(err)
	}
	limit := q.Q1 * 0.99
	excess := q.Median - limit
	ns := func(v float64) string { return units.FormatExact(v) }
	pct := func(f float64) string { return units.FormatExact(f*100) + "%" }
	tests := []struct {
		name, minDelta string
		want           Status
	}{
		{"no floor", "", Fail},
		{"percentage above the excess", pct(excess / limit * 1.01), Warn},
		{"percentage below the excess", pct(excess / limit * 0.99), Fail},
		{"duration above the excess", ns(excess * 1.01), Warn},
		{"duration below the excess", ns(excess * 0.99), Fail},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "version: 1\nbudgets:\n  - select: {type: Signature, lib: blst, op: verify}\n    max_ns_per_op: " + ns(limit) + "\n"
			if tt.minDelta != "" {
				src += "    min_delta: " + tt.minDelta + "\n"
			}
			f, err := Parse("t.yaml", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			rep := Check(f, rs, CheckOptions{FailOnTime: true})
			if len(rep.Outcomes) != 1 {
				t.Fatalf("got %d outcomes, want 1", len(rep.Outcomes))
			}
			o := rep.Outcomes[0]
			if o.Status != tt.want {
				t.Errorf("got %v (%s), want %v", o.Status, o.Detail, tt.want)
			}
			if tt.want == Warn && !strings.Contains(o.Detail, "within its min_delta "+tt.minDelta+": below the noise floor") {
				t.Errorf("detail %q does not name the floor %s", o.Detail, tt.minDelta)
			}
		})
	}
}
