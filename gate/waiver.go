package gate

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/memprof/memprof/units"
	"gopkg.in/yaml.v3"
)

// A budget may be a waiver that ends, and a time budget may have a noise
// floor:
//
//	- select: {type: Signature, lib: gnark, repr: affine}
//	  max_bytes_per_instance: 288B    # raised while the decoder is fixed
//	  expires: 2027-03-31
//	  issue: https://github.com/example/node/issues/812
//	  owner: crypto-team
//	- select: {type: Signature, lib: blst, op: verify}
//	  max_ns_per_op: 2ms
//	  min_delta: 5%                   # or a duration: 50us
//
// A budget with expires holds through the end of that day (UTC) and fails
// afterwards, whatever is measured, with "budget expired on 2027-03-31
// (owner, issue)": a temporary exception cannot become permanent, and
// check --update (Update) does not extend it. A time more than its limit
// by no more than min_delta (of the limit, or absolute) warns instead of
// failing; bytes and allocation budgets stay exact.

// dateLayout is how expires is written: a day, YYYY-MM-DD.
const dateLayout = "2006-01-02"

// NoiseFloor is a time budget's min_delta: an excess over the limit that
// never fails, as a fraction of the limit or in nanoseconds.
type NoiseFloor struct {
	// Fraction of the limit (0.05 for 5%), or Ns nanoseconds: one of the
	// two is set.
	Fraction float64
	Ns       float64
	// Raw is the value as written ("5%", "50us").
	Raw string
}

// Of returns the floor for a limit of limit nanoseconds.
func (f NoiseFloor) Of(limit float64) float64 {
	if f.Raw == "" {
		return 0
	}
	if f.Ns > 0 {
		return f.Ns
	}
	return f.Fraction * limit
}

// MaxWaiverYears is how far ahead an expires may be: a waiver that ends
// in 9999 never ends.
const MaxWaiverYears = 100

// HasExpiry reports whether the budget ends (it has an expires). A day is
// a day: 0001-01-01, Go's zero time, is one too (long past).
func (b *Budget) HasExpiry() bool { return b.ExpiresSet || !b.Expires.IsZero() }

// ExpiresAt is the instant the budget stops holding: the end of its
// expires day, UTC (the zero time when it does not expire).
func (b *Budget) ExpiresAt() time.Time {
	if !b.HasExpiry() {
		return time.Time{}
	}
	return b.Expires.AddDate(0, 0, 1)
}

// Expired reports whether the budget has expired at now.
func (b *Budget) Expired(now time.Time) bool {
	return b.HasExpiry() && !now.Before(b.ExpiresAt())
}

// ExpiryText says when the budget expired or expires and who to ask:
// "budget expired on 2027-03-31 (crypto-team, https://...)".
func (b *Budget) ExpiryText(now time.Time) string {
	verb := "expires"
	if b.Expired(now) {
		verb = "expired"
	}
	s := "budget " + verb + " on " + b.Expires.Format(dateLayout)
	var who []string
	for _, v := range []string{b.Owner, b.Issue} {
		if v != "" {
			who = append(who, v)
		}
	}
	if len(who) > 0 {
		s += " (" + strings.Join(who, ", ") + ")"
	}
	return s
}

// waiver checks a budget's expires, issue and min_delta.
func (p *parser) waiver(b *Budget, y *budgetYAML) {
	if v := &y.Expires; given(v) {
		if s, ok := p.scalar("expires", v, "a date such as 2027-03-31"); ok {
			p.expires(b, v, s)
		}
	}
	if v := &y.Issue; given(v) {
		if s, ok := p.scalar("issue", v, "the URL of the issue that tracks the budget"); ok {
			p.issue(b, v, s)
		}
	}
	if v := &y.MinDelta; given(v) {
		s, ok := p.scalar("min_delta", v, "a percentage of the budget such as 5%, or a duration such as 50us")
		if !ok {
			return
		}
		f, err := parseNoiseFloor(s)
		if err != nil {
			p.errorf(v, "min_delta: %v", err)
			return
		}
		b.MinDelta, b.minDeltaLine = f, v.Line
	}
}

// issue reads a budget's issue, s, written v.
func (p *parser) issue(b *Budget, v *yaml.Node, s string) {
	if u, err := url.Parse(s); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		p.errorf(v, "issue: %q is not a URL: link the issue that tracks the budget (https://...)", s)
		return
	}
	b.Issue = s
}

// expires reads a budget's expires, s, written v.
func (p *parser) expires(b *Budget, v *yaml.Node, s string) {
	d, err := time.Parse(dateLayout, s)
	if err != nil {
		p.errorf(v, "expires: %q is not a date: write the day the waiver ends as YYYY-MM-DD (it holds through the end of that day, UTC)", s)
		return
	}
	if limit := time.Now().UTC().AddDate(MaxWaiverYears, 0, 0); d.After(limit) {
		p.errorf(v, "expires: %s is more than %d years ahead: a waiver ends; give a day before %s", s, MaxWaiverYears, limit.Format(dateLayout))
		return
	}
	b.Expires, b.ExpiresLine, b.ExpiresSet = d, v.Line, true
}

// scalar returns the trimmed text of a key's value, or reports that it
// must be want (it is a mapping, a list, nothing or empty).
func (p *parser) scalar(key string, v *yaml.Node, want string) (string, bool) {
	s := strings.TrimSpace(v.Value)
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" || s == "" {
		p.errorf(v, "%s must be %s, got %s", key, want, kindName(v))
		return "", false
	}
	return s, true
}

// parseNoiseFloor reads min_delta: a percentage ("5%") or a duration
// ("50us").
func parseNoiseFloor(s string) (NoiseFloor, error) {
	if strings.HasSuffix(s, "%") {
		v, err := units.ParsePercent(s)
		if err != nil {
			return NoiseFloor{}, fmt.Errorf("%w (write 5%% or a duration such as 50us)", err)
		}
		return NoiseFloor{Fraction: v, Raw: s}, nil
	}
	ns, err := units.ParseDuration(s)
	if err != nil {
		return NoiseFloor{}, fmt.Errorf("%w, or a percentage of the budget such as 5%%", err)
	}
	return NoiseFloor{Ns: ns, Raw: s}, nil
}

// checkWaiver refuses a min_delta on a budget without a time limit:
// bytes and allocations are exact.
func (p *parser) checkWaiver(b *Budget) bool {
	if b.MinDelta.Raw == "" {
		return true
	}
	timed := false
	for _, l := range b.Limits {
		if !l.Metric.IsTime() {
			continue
		}
		timed = true
		if b.MinDelta.Ns > l.Value {
			p.errs = append(p.errs, keyProblem{line: b.minDeltaLine,
				msg: fmt.Sprintf("min_delta %s is more than the budget's %s %s: a noise floor is at most the budget", b.MinDelta.Raw, l.Metric.Key(), l.Raw)})
			return false
		}
	}
	if timed {
		return true
	}
	p.errs = append(p.errs, keyProblem{line: b.minDeltaLine,
		msg: "min_delta is a noise floor for " + strings.Join(metricKeys(Metric.IsTime), " and ") + ": bytes and allocation budgets stay exact"})
	return false
}

// expire fails every outcome of a budget that has expired at now: the
// waiver ended, whatever was measured.
func expire(b *Budget, outs []Outcome, now time.Time) []Outcome {
	if !b.Expired(now) {
		return outs
	}
	for i := range outs {
		outs[i].Status, outs[i].Expired, outs[i].Detail = Fail, true, b.ExpiryText(now)
	}
	return outs
}

// noiseFloor turns the failure of a time within its budget's min_delta
// into a warning.
func noiseFloor(b *Budget, l Limit, o *Outcome) {
	floor := b.MinDelta.Of(l.Value)
	if o.Status != Fail || floor <= 0 || o.Measured-l.Value > floor {
		return
	}
	by, frac := o.Over()
	o.Status = Warn
	o.Detail = fmt.Sprintf("above the budget by %s (%s), within its min_delta %s: below the noise floor", units.FormatNs(by), units.FormatPercent(frac), b.MinDelta.Raw)
}

// expiredWaivers is Update's refusal of a report with an expired budget:
// one line per budget, at its expires line.
func expiredWaivers(f *File, rep *Report) error {
	var errs []error
	seen := map[*Budget]bool{}
	for _, o := range rep.Outcomes {
		if !o.Expired || seen[o.Budget] {
			continue
		}
		seen[o.Budget] = true
		errs = append(errs, &PosError{File: f.Path, Line: o.Budget.ExpiresLine,
			Msg: o.Detail + ": --update does not extend a waiver; renew its expires or remove the budget by hand"})
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("not updating %s: %w", f.Path, errors.Join(errs...))
}
