package gate

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/memprof/memprof/measure"
)

// DefaultMaxBaseAge is the age beyond which a comparison's base is called
// stale unless CompareOptions.MaxBaseAge says otherwise: 7 days.
const DefaultMaxBaseAge = 7 * 24 * time.Hour

// BaseWarnings says why a comparison's base may not be the base of the
// change: it was measured at another commit than want (a full commit or a
// prefix of one, as short hashes are; "" checks nothing), or more than
// maxAge before now (0 checks nothing). A base that does not record its
// commit or its time, when they are to be checked, is a warning too: it
// cannot be shown to be current. Warnings never fail a comparison.
func BaseWarnings(base measure.Env, want string, maxAge time.Duration, now time.Time) []string {
	var out []string
	want = strings.TrimSpace(want)
	switch {
	case want == "":
	case base.Commit == "":
		out = append(out, fmt.Sprintf("the base records no commit, so it cannot be checked against the expected base commit %s", short(want)))
	case !sameCommit(base.Commit, want):
		out = append(out, fmt.Sprintf("the base was measured at commit %s, not at the expected base commit %s: it may not be the base of this change", short(base.Commit), short(want)))
	}
	if maxAge > 0 {
		measured, ok := base.Measured()
		switch {
		case !ok:
			out = append(out, "the base records no time, so its age is unknown")
		case now.Sub(measured) > maxAge:
			out = append(out, fmt.Sprintf("the base is stale: measured %s ago (%s), more than the %s allowed", Age(now.Sub(measured)), measured.UTC().Format(time.RFC3339), Age(maxAge)))
		}
	}
	return out
}

// sameCommit reports whether a and b name one commit: equal, or one a
// prefix of the other of at least 7 hex digits (a short hash).
func sameCommit(a, b string) bool {
	a, b = strings.ToLower(a), strings.ToLower(b)
	if len(a) > len(b) {
		a, b = b, a
	}
	return a == b || len(a) >= 7 && strings.HasPrefix(b, a)
}

// short writes a commit as 12 characters at most.
func short(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

// Age writes a duration as people read an age: whole days from two days
// on ("9 days"), else whole hours ("36 hours"), else minutes.
func Age(d time.Duration) string {
	unit := func(n int64, one string) string {
		if n == 1 {
			return "1 " + one
		}
		return strconv.FormatInt(n, 10) + " " + one + "s"
	}
	switch {
	case d >= 48*time.Hour:
		return unit(int64(d/(24*time.Hour)), "day")
	case d >= time.Hour:
		return unit(int64(d/time.Hour), "hour")
	}
	return unit(int64(d/time.Minute), "minute")
}

// ParseAge reads an age: a number of days ("7d") or a Go duration
// ("36h", "90m"). It must not be negative; 0 turns the check off.
func ParseAge(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	if days, ok := strings.CutSuffix(t, "d"); ok {
		n, err := strconv.ParseFloat(days, 64)
		if err != nil || n < 0 || n > 1e5 {
			return 0, fmt.Errorf("age %q: want a number of days such as 7d, or a duration such as 36h", s)
		}
		return time.Duration(n * float64(24*time.Hour)), nil
	}
	d, err := time.ParseDuration(t)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("age %q: want a number of days such as 7d, or a duration such as 36h", s)
	}
	return d, nil
}
