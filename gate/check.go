package gate

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// Status is the verdict on one limit for one case.
type Status int

// The statuses, from best to worst.
const (
	// Pass: the measurement is within the limit.
	Pass Status = iota
	// Skip: a case not checked while other cases of its budget were
	// (Outcome.Skipped says why): one the budget names by library that is
	// unavailable in this build (for example blst without cgo), one that
	// needs cgo in results measured without it (env.cgo false), one an
	// optional budget selects that the results lack; or every case of a
	// budget that needs cgo, in such results, when the check was told to
	// skip them (CheckOptions.SkipCgo). It does not fail the gate but is
	// reported. A budget none of whose cases was checked is an Error
	// whatever its skips.
	Skip
	// Warn: a time whose median exceeds the limit while part of its
	// interquartile range does not, or an off-heap figure above the limit
	// by no more than its resolution (noise cannot be ruled out).
	Warn
	// Fail: the limit is exceeded.
	Fail
	// Error: the limit could not be checked (the case failed to measure,
	// is unavailable in this build, or timing is not available). Errors
	// fail the gate: it fails closed.
	Error
)

func (s Status) String() string {
	return [...]string{"PASS", "SKIP", "WARN", "FAIL", "ERROR"}[s]
}

// SkipKind is why a case was skipped (Outcome.Skipped).
type SkipKind int

// The reasons to skip a case.
const (
	// NotSkipped: the outcome is not a Skip.
	NotSkipped SkipKind = iota
	// SkipUnavailable: the case is unavailable in this build (it needs
	// cgo, or its library lacks it) while other cases of its budget were
	// checked.
	SkipUnavailable
	// SkipOptional: the results lack the case, and its budget is optional.
	SkipOptional
	// SkipCgo: every case of the budget needs cgo, the results were
	// measured with cgo off, and the check skips such budgets
	// (CheckOptions.SkipCgo, memprof check --skip-cgo).
	SkipCgo
)

// Outcome is the check of one limit of one budget against one case.
type Outcome struct {
	Budget *Budget
	Limit  Limit
	// Case names the case: Signature/blst/affine/pointer, or
	// Signature/blst/affine op=verify for an operation.
	Case   string
	Status Status
	// Measured is the measured value (the median, for times); Q1 and Q3
	// the interquartile range of a time.
	Measured float64
	Q1, Q3   float64
	// Detail explains an Error, a Skip or a Warn.
	Detail string
	// Skipped is why a Skip was skipped.
	Skipped SkipKind
	// needsCgo marks the outcome of a case that needs cgo, in results
	// measured without it.
	needsCgo bool
	// Expired reports that the outcome fails because its budget expired
	// (Budget.Expires), whatever was measured.
	Expired bool
	// TimeWarning reports a time above its budget that warns because
	// the check does not fail on times (CheckOptions.FailOnTime).
	TimeWarning bool
}

// Over returns how much the measurement exceeds the limit, absolutely and
// as a fraction of the limit (+Inf for a zero limit).
func (o Outcome) Over() (by, fraction float64) {
	by = o.Measured - o.Limit.Value
	if o.Limit.Value == 0 {
		if by > 0 {
			return by, inf
		}
		return by, 0
	}
	return by, by / o.Limit.Value
}

// Report is the result of checking a budgets file against results.
type Report struct {
	File     *File
	Outcomes []Outcome
	// Problems are budgets that select nothing: the file does not fit
	// what exists, which makes the file invalid (the gate fails closed).
	Problems []error
	// Now is the instant the budgets' expires were judged at.
	Now time.Time
}

// Count returns how many outcomes have status s.
func (r *Report) Count(s Status) int {
	n := 0
	for _, o := range r.Outcomes {
		if o.Status == s {
			n++
		}
	}
	return n
}

// Checked returns how many outcomes checked a figure against its limit
// (they hold, warn or fail).
func (r *Report) Checked() int { return r.Count(Pass) + r.Count(Warn) + r.Count(Fail) }

// Skipped returns how many outcomes are skips of kind k.
func (r *Report) Skipped(k SkipKind) int {
	n := 0
	for _, o := range r.Outcomes {
		if o.Status == Skip && o.Skipped == k {
			n++
		}
	}
	return n
}

// OK reports whether the gate passes: no problems, no failures, no
// errors, and at least one figure checked (a gate that checked nothing
// never passes). Warnings pass.
func (r *Report) OK() bool {
	return len(r.Problems) == 0 && r.Count(Fail) == 0 && r.Count(Error) == 0 && r.Checked() > 0
}

// CheckOptions tune Check.
type CheckOptions struct {
	// TimingUnavailable, when set, is why no times were measured: every
	// time limit then ends as an Error with this text, never as a pass.
	TimingUnavailable string
	// Now is the clock a budget's expires is judged by; nil means
	// time.Now.
	Now func() time.Time
	// Registry, when set, is every case memprof knows (the suites'
	// registry: its instance entries and operations), each with why it
	// cannot be measured where it cannot. A budget's selection is then
	// complete: it selects the registry's cases, not only the results'.
	// A selector, or a param value of one, that matches no case of the
	// registry is a Problem; a selected case the results lack (neither
	// measured nor listed as unavailable) is an Error naming it, or a
	// Skip when the budget is optional. Cases the registry lists as not
	// offered or not applying are never lacking. Without a Registry a
	// budget selects what the results hold.
	Registry []RegistryCase
	// FailOnTime makes a time above its budget (ns/op, the GC times:
	// figures judged by the noise rule) fail, as on a pinned, quiet
	// runner. By default it warns: a time moves with the machine, and a
	// gate that fails on a busy runner's noise is soon ignored.
	FailOnTime bool
	// SkipCgo skips (SkipCgo), in results measured with cgo off, the
	// budgets every case of which needs cgo: a runner without cgo whose
	// cgo budgets a runner with cgo checks. Without it such a budget is
	// an Error, as every budget none of whose cases was checked.
	SkipCgo bool
}

// RegistryCase is one case of the registry: its key, and why it cannot
// be measured (the zero Why when it can; needs-cgo in a build without
// cgo).
type RegistryCase struct {
	Key results.Key
	Why vocab.Why
}

// Check evaluates every limit of f against rs, which should come from a
// results.Reader (validated at load). Each budget applies to every
// case its selector matches. A budget that matches no case at all is a
// Problem; one that matches only cases that failed to measure or are
// unavailable gives Error outcomes. Times are SampleFigure's; every time
// limit is an Error when rs's agreement check failed.
func Check(f *File, rs *results.File, opts CheckOptions) *Report {
	now := time.Now()
	if opts.Now != nil {
		now = opts.Now()
	}
	rep := &Report{File: f, Now: now}
	present := presentKeys(rs)
	ix := indexResults(rs)
	rep.Problems = nConflicts(f, opts.Registry, rs)
	for _, b := range f.Budgets {
		reported := false
		for _, l := range b.Limits {
			var outs []Outcome
			lacking, err := lackingCases(b, l, opts.Registry, present)
			switch {
			case err != nil:
			case l.Metric.OnOps():
				outs, err = checkOps(b, l, ix, opts)
			default:
				outs, err = checkInstances(b, l, ix, opts)
			}
			if err != nil && len(lacking) > 0 {
				outs, err = nil, nil // nothing of it in the results: the lacking cases say so
			}
			if err != nil {
				if !reported {
					rep.Problems = append(rep.Problems, &PosError{File: f.Path, Line: b.Line, Msg: err.Error()})
					reported = true
				}
				continue
			}
			rep.Outcomes = append(rep.Outcomes, expire(b, nothingChecked(b, l, append(outs, lacking...), opts), now)...)
		}
	}
	return rep
}

// presentKeys are the keys of rs's rows, measured, failed or listed as
// unavailable, normalized.
func presentKeys(rs *results.File) map[results.Key]bool {
	keys := map[results.Key]bool{}
	for _, r := range rs.Instances {
		keys[r.Key.Normalize()] = true
	}
	for _, t := range rs.Throughput {
		keys[t.Key.Normalize()] = true
	}
	for _, u := range rs.Unavailable {
		keys[u.Key.Normalize()] = true
	}
	return keys
}

// lackingCases expands limit l's budget against the registry (when there
// is one): an error when the selector, or one of its param values,
// matches no case of the registry of l's kind (instances or operations);
// else an outcome for each selected real case the results lack, an Error
// naming it or, for an optional budget, a Skip.
func lackingCases(b *Budget, l Limit, registry []RegistryCase, present map[results.Key]bool) ([]Outcome, error) {
	if registry == nil {
		return nil, nil
	}
	ofKind := func(sel Selector) []RegistryCase {
		var out []RegistryCase
		for _, c := range registry {
			if c.Key.IsOp() == l.Metric.OnOps() && sel.Matches(c.Key) {
				out = append(out, c)
			}
		}
		return out
	}
	what := "case"
	if l.Metric.OnOps() {
		what = "operation"
	}
	selected := ofKind(b.Select)
	if len(selected) == 0 {
		return nil, fmt.Errorf("select %s matches no %s memprof knows: run 'memprof list' for the cases there are", b.Select, what)
	}
	for _, p := range b.Select.Param {
		one := b.Select
		one.Param = []string{p}
		if len(ofKind(one)) == 0 {
			return nil, fmt.Errorf("select %s: param %s matches no %s memprof knows: run 'memprof list' for the cases there are", b.Select, p, what)
		}
	}
	var out []Outcome
	for _, c := range selected {
		if !c.Why.Exists() || present[c.Key.Normalize()] {
			continue
		}
		o := Outcome{Budget: b, Limit: l, Case: c.Key.FullName(), Status: Error, Detail: lackingDetail(c.Key)}
		if b.Optional {
			o.Status, o.Skipped, o.Detail = Skip, SkipOptional, "optional: the results do not have it"
		}
		out = append(out, o)
	}
	return out, nil
}

// lackingDetail says what to do about a selected case k the results lack:
// first measure it (a case of a scheme or layout a run does not measure by
// default, with the flag that does) or narrow the budget to what was
// measured; optional: true last, with what it excuses.
func lackingDetail(k results.Key) string {
	const optional = "or, last, mark the budget optional: true, which excuses every selected case the results lack (never all of them)"
	k = k.Normalize()
	switch {
	case k.Scheme != "" && k.Scheme != k.Type.DefaultScheme():
		return fmt.Sprintf("selected, but the results do not have it: measure it (memprof instances --scheme all), or select only what was measured (scheme: %s), %s", k.Type.DefaultScheme(), optional)
	case !k.IsOp() && k.Layout != "" && !slices.Contains(measure.DefaultLayouts, k.Layout):
		return fmt.Sprintf("selected, but the results do not have it: measure it (memprof instances --layout all), or select only what was measured (layout: %s), %s", measure.DefaultLayouts[0], optional)
	}
	return "selected, but the results do not have it: measure it (memprof instances --budgets), " + optional
}

// checkInstances checks a limit on a figure of instances against the
// instance rows b selects.
func checkInstances(b *Budget, l Limit, rs *indexed, opts CheckOptions) ([]Outcome, error) {
	outs := instanceRows.outcomes(b, l, rs.Instances, rs.instances, func(o *Outcome, r *results.Row) {
		if b.N > 0 && r.N != b.N {
			o.Status, o.Detail = Error, fmt.Sprintf("measured at N=%d, and the budget holds at n: %d: measure it with memprof instances --budgets (or check without --results)", r.N, b.N)
			return
		}
		judge(o, b, l, r, opts)
	})
	var reasons []string
	var skips, cgoSkips []Outcome
	others := 0 // unavailable cases that exist somewhere, for another reason than cgo
	for _, u := range rs.selectedUnavailable(b.Select, false) {
		name := u.Key.FullName()
		reasons = append(reasons, name+": "+u.Reason)
		switch {
		case cgoOff(u, rs.Env):
			cgoSkips = append(cgoSkips, cgoSkip(b, l, name, u))
		case len(b.Select.Lib) > 0:
			skips = append(skips, Outcome{Budget: b, Limit: l, Case: name, Status: Skip, Skipped: SkipUnavailable, Detail: "unavailable: " + u.Reason})
		}
		if u.Exists() && !cgoOff(u, rs.Env) {
			others++
		}
	}
	if len(outs) > 0 {
		return append(append(outs, skips...), cgoSkips...), nil
	}
	if len(cgoSkips) > 0 && others == 0 {
		return cgoSkips, nil // every selected case that exists needs the cgo these results were measured without
	}
	if len(reasons) > 0 {
		return []Outcome{{Budget: b, Limit: l, Case: b.Select.String(), Status: Error,
			Detail: "every selected case is unavailable: " + strings.Join(reasons, "; ")}}, nil
	}
	return nil, fmt.Errorf("select %s matches no measured case", b.Select)
}

// checkOps checks a limit on a figure of operations (a time, or what one
// call allocates) against the operation rows b selects. None holds when
// the results' libraries disagreed; a time none when timing was not
// available.
func checkOps(b *Budget, l Limit, rs *indexed, opts CheckOptions) ([]Outcome, error) {
	if l.Metric.Timed() && opts.TimingUnavailable != "" {
		return []Outcome{{Budget: b, Limit: l, Case: b.Select.String(), Status: Error, Detail: opts.TimingUnavailable}}, nil
	}
	if why := disagreement(rs.File); why != "" {
		return []Outcome{{Budget: b, Limit: l, Case: b.Select.String(), Status: Error, Detail: why}}, nil
	}
	outs := throughputRows.outcomes(b, l, rs.Throughput, rs.throughput, func(o *Outcome, t *results.ThroughputRow) {
		if l.Metric.f.PerGOMAXPROCS && t.CoresDependent {
			switch {
			case b.GOMAXPROCS == 0:
				o.Status, o.Detail = Error, fmt.Sprintf("what one call allocates depends on the cores (measured at GOMAXPROCS %d): say which the budget holds for with gomaxprocs: N", rs.Env.GOMAXPROCS)
				return
			case b.GOMAXPROCS != rs.Env.GOMAXPROCS:
				o.Status, o.Detail = Error, fmt.Sprintf("what one call allocates depends on the cores: measured at GOMAXPROCS %d, the budget holds for gomaxprocs %d", rs.Env.GOMAXPROCS, b.GOMAXPROCS)
				return
			}
		}
		judge(o, b, l, t, opts)
	})
	if len(outs) > 0 {
		return outs, nil
	}
	noRows := "no operation was measured: the results hold no throughput rows"
	if l.Metric.Timed() {
		noRows = "timing is not available: the results hold no throughput rows"
	}
	return noOperation(b, l, rs, noRows)
}

// cgoOff reports whether the unavailable case u is so because it needs
// cgo, in results measured with cgo off (env.cgo false): a runner that
// cannot build the case, whose budget a runner with cgo checks.
func cgoOff(u *results.Unavailable, env measure.Env) bool {
	return u.Kind == vocab.NeedsCgo && !env.Cgo
}

// cgoSkip is the outcome of case name, unavailable (u) because it needs
// the cgo these results were measured without: skipped while other cases
// of its budget were checked, and named so by nothingChecked when none was.
func cgoSkip(b *Budget, l Limit, name string, u *results.Unavailable) Outcome {
	return Outcome{Budget: b, Limit: l, Case: name, Status: Skip, Skipped: SkipUnavailable, needsCgo: true,
		Detail: "needs cgo, and these results were measured with cgo off (env.cgo false): " + u.Reason + "; a runner with cgo checks it"}
}

// nothingChecked returns the outcomes of limit l of budget b, outs,
// unless none of them checked a figure and none is an Error: then every
// one is a Skip, and the budget checked nothing. That is an Error (one
// outcome, naming why each case was skipped), optional or not: optional
// excuses some cases, never all. Only budgets every case of which needs
// cgo, in results measured without it, stay skipped, and only when
// opts.SkipCgo says so.
func nothingChecked(b *Budget, l Limit, outs []Outcome, opts CheckOptions) []Outcome {
	if slices.ContainsFunc(outs, func(o Outcome) bool { return o.Status != Skip }) || len(outs) == 0 {
		return outs
	}
	cgo := !slices.ContainsFunc(outs, func(o Outcome) bool { return !o.needsCgo })
	if cgo && opts.SkipCgo {
		for i := range outs {
			outs[i].Skipped = SkipCgo
			outs[i].Detail = "--skip-cgo: " + outs[i].Detail
		}
		return outs
	}
	var names []string
	for i, o := range outs {
		if i == maxNamed {
			names = append(names, fmt.Sprintf("and %d more", len(outs)-maxNamed))
			break
		}
		names = append(names, o.Case)
	}
	detail := fmt.Sprintf("no selected case was checked (%s): ", strings.Join(names, ", "))
	switch {
	case cgo:
		detail += "every one needs cgo, and these results were measured with cgo off (env.cgo false): check them where cgo is on, or skip such budgets on this runner with --skip-cgo"
	case b.Optional:
		detail += "the results have none of them, and optional: true excuses some cases, never all: measure them (memprof instances --budgets)"
	default:
		detail += "they are unavailable here or missing from the results: measure them where they are available"
	}
	return []Outcome{{Budget: b, Limit: l, Case: b.Select.String(), Status: Error, Detail: detail}}
}

// maxNamed is how many cases a budget that checked nothing names.
const maxNamed = 4

// nConflicts are the budgets that name different n for one instance case
// (of the registry, when there is one, and of rs): a case is measured at
// one N, so no results can hold both; each is a Problem at the second
// budget's line.
func nConflicts(f *File, registry []RegistryCase, rs *results.File) []error {
	// Only the budgets that name an n can conflict, and only when two
	// name different ones: most files name none, and cost nothing here.
	withN := &File{Path: f.Path}
	ns := map[int]bool{}
	for _, b := range f.Budgets {
		if b.N > 0 {
			withN.Budgets = append(withN.Budgets, b)
			ns[b.N] = true
		}
	}
	if len(ns) < 2 {
		return nil
	}
	var keys []results.Key
	for _, c := range registry {
		if !c.Key.IsOp() {
			keys = append(keys, c.Key)
		}
	}
	for _, r := range rs.Instances {
		keys = append(keys, r.Key)
	}
	var errs []error
	seen := map[[2]int]bool{}
	for _, k := range keys {
		if _, err := withN.NFor(k); err != nil {
			var c *NConflict
			if errors.As(err, &c) && !seen[[2]int{c.First.Line, c.Second.Line}] {
				seen[[2]int{c.First.Line, c.Second.Line}] = true
				errs = append(errs, &PosError{File: f.Path, Line: c.Second.Line, Msg: c.Error()})
			}
		}
	}
	return errs
}

// NConflict is two budgets that name different n for one case.
type NConflict struct {
	Case          results.Key
	First, Second *Budget
}

func (e *NConflict) Error() string {
	return fmt.Sprintf("n: %d, but the budget at line %d names n: %d for %s too: a case is measured at one N", e.Second.N, e.First.Line, e.First.N, e.Case.FullName())
}

// NFor returns the budget of f whose n the instance case k is measured at
// (nil for none): the first of the budgets with a limit on instances that
// select it and name an n. Two that name different n are an *NConflict.
func (f *File) NFor(k results.Key) (*Budget, error) {
	var first *Budget
	for _, b := range f.Budgets {
		if b.N == 0 || !b.Select.Matches(k) || !slices.ContainsFunc(b.Limits, func(l Limit) bool { return !l.Metric.OnOps() }) {
			continue
		}
		if first != nil && b.N != first.N {
			return nil, &NConflict{Case: k, First: first, Second: b}
		}
		if first == nil {
			first = b
		}
	}
	return first, nil
}

// noOperation is the outcome of an operation limit whose budget selects
// no measured operation row: an Error when every selected operation is
// unavailable, or (saying noRows) when rs has no operation row at all; a
// Problem otherwise.
func noOperation(b *Budget, l Limit, rs *indexed, noRows string) ([]Outcome, error) {
	var reasons []string
	var cgoSkips []Outcome
	others := 0 // unavailable operations that exist somewhere, for another reason than cgo
	for _, u := range rs.selectedUnavailable(b.Select, true) {
		reasons = append(reasons, u.Key.String()+": "+u.Reason)
		switch {
		case cgoOff(u, rs.Env):
			cgoSkips = append(cgoSkips, cgoSkip(b, l, u.Key.String(), u))
		case u.Exists():
			others++
		}
	}
	if len(cgoSkips) > 0 && others == 0 {
		return cgoSkips, nil // every selected operation that exists needs the cgo these results were measured without
	}
	if len(reasons) > 0 {
		return []Outcome{{Budget: b, Limit: l, Case: b.Select.String(), Status: Error,
			Detail: "every selected operation is unavailable: " + strings.Join(reasons, "; ")}}, nil
	}
	if len(rs.Throughput) == 0 {
		return []Outcome{{Budget: b, Limit: l, Case: b.Select.String(), Status: Error, Detail: noRows}}, nil
	}
	return nil, fmt.Errorf("select %s matches no measured operation", b.Select)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
