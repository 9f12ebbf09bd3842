package gate

import (
	"slices"
	"testing"
	"time"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
)

// TestBaseWarnings: a base measured at another commit than the expected
// one, or longer ago than the allowed age, or that records neither, is
// warned about; a current one is not. The clock is injected.
func TestBaseWarnings(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	env := func(commit string, measured time.Time) measure.Env {
		e := measure.Env{Commit: commit}
		if !measured.IsZero() {
			e.Time = measured.Format(time.RFC3339)
		}
		return e
	}
	full := "44550ef1d2c3b4a5968778695a4b3c2d1e0f9a8b"
	tests := []struct {
		name   string
		base   measure.Env
		want   string
		maxAge time.Duration
		warns  []string
	}{
		{"current", env(full, now.Add(-time.Hour)), full, DefaultMaxBaseAge, nil},
		{"short hash of the same commit", env(full, now), "44550ef", DefaultMaxBaseAge, nil},
		{"nothing asked", env("", time.Time{}), "", 0, nil},
		{"another commit", env("0123abcd0123", now), full, 0,
			[]string{"the base was measured at commit 0123abcd0123, not at the expected base commit 44550ef1d2c3: it may not be the base of this change"}},
		{"too short to be the same", env(full, now), "4455", 0,
			[]string{"the base was measured at commit 44550ef1d2c3, not at the expected base commit 4455: it may not be the base of this change"}},
		{"no commit recorded", env("", now), full, 0,
			[]string{"the base records no commit, so it cannot be checked against the expected base commit 44550ef1d2c3"}},
		{"stale", env(full, now.Add(-9*24*time.Hour)), "", DefaultMaxBaseAge,
			[]string{"the base is stale: measured 9 days ago (2026-11-20T12:00:00Z), more than the 7 days allowed"}},
		{"exactly the allowed age", env(full, now.Add(-DefaultMaxBaseAge)), "", DefaultMaxBaseAge, nil},
		{"no time recorded", env(full, time.Time{}), "", DefaultMaxBaseAge, []string{"the base records no time, so its age is unknown"}},
		{"both", env("0123abcd", now.Add(-36*time.Hour)), full, 24 * time.Hour, []string{
			"the base was measured at commit 0123abcd, not at the expected base commit 44550ef1d2c3: it may not be the base of this change",
			"the base is stale: measured 36 hours ago (2026-11-28T00:00:00Z), more than the 24 hours allowed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := BaseWarnings(tt.base, tt.want, tt.maxAge, now)
			if !slices.Equal(got, tt.warns) {
				t.Errorf("got %q, want %q", got, tt.warns)
			}
		})
	}
}

// TestCompareWarnsStaleBase: Compare puts the base's warnings in the
// comparison, without failing it.
func TestCompareWarnsStaleBase(t *testing.T) {
	base, head := readFixture(t, "../fixtures/compare/base.json"), readFixture(t, "../fixtures/compare/base.json")
	base.Env.ScanRule, head.Env.ScanRule = measure.ScanDense, measure.ScanDense // both recorded: no warning of their own
	c, err := Compare(base, head, CompareOptions{BaseCommit: "0123abc", MaxBaseAge: DefaultMaxBaseAge, Now: func() time.Time { return time.Now() }})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"the base records no commit, so it cannot be checked against the expected base commit 0123abc", "the base records no time, so its age is unknown"}
	if !slices.Equal(c.Warnings, want) || !c.OK() {
		t.Errorf("got warnings %q, OK %v; want %q and OK", c.Warnings, c.OK(), want)
	}
}

// TestEnvDiffsIgnoreProvenance: the machine, the commit and the time tell
// runs apart; they do not make two environments incomparable.
func TestEnvDiffsIgnoreProvenance(t *testing.T) {
	a := fixtureEnv
	b := fixtureEnv
	a.Machine, a.Commit, a.Time = "runner-a", "0123abc", "2026-11-29T10:00:00Z"
	b.Machine, b.Commit, b.Time = "runner-b", "4567def", "2026-11-30T10:00:00Z"
	if d := results.EnvDiffs(a, b); len(d) != 0 {
		t.Errorf("got %v, want no difference", d)
	}
}

func TestParseAge(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"7d", 7 * 24 * time.Hour, true}, {"1.5d", 36 * time.Hour, true}, {"36h", 36 * time.Hour, true}, {"0", 0, true},
		{"-1d", 0, false}, {"-2h", 0, false}, {"week", 0, false}, {"", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseAge(tt.in)
			if (err == nil) != tt.ok || got != tt.want {
				t.Errorf("got %v, %v; want %v (ok %v)", got, err, tt.want, tt.ok)
			}
		})
	}
}
