package workflow

import (
	"context"
	"errors"
	"slices"

	"github.com/memprof/memprof/gate"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// Budgeted measures what the budgets of f check: every instance case of
// reg that a memory budget selects, each in its own child process (at the
// n its budgets name, see gate.Budget.N, else as Options.N says), and
// every operation a time budget selects (agreement and result checks
// first, as Throughput does). Cases a budget selects that cannot be
// measured here are recorded as unavailable, with the reason, and
// failures in their rows: gate.Check reports both. It does not fail for
// selecting nothing (gate.Check reports a budget that selects nothing),
// but fails with a *NothingMeasured when every case it selects is
// unavailable here.
//
// The results are nil, with the error, when two budgets name different n
// for one case, a budget's n differs from the only N a case is measured
// at, the memory check refuses a case, opts.Ready refuses, or ctx is
// done. Otherwise the error, if any, is that of the operations' part (see
// Instances): the results are complete without their times, and
// gate.Check reports the time budgets as not checked.
func Budgeted(ctx context.Context, reg *suites.Registry, f *gate.File, opts Options) (*results.File, error) {
	return BudgetedTimed(ctx, reg, f, nil, opts)
}

// BudgetedTimed is Budgeted, also timing, when opts.Throughput asks for
// it, the operations of the selected cases' types that timed selects
// (memprof instances --budgets --with-throughput --op): nil selects
// every one. With ThroughputRequired, selecting none is a *NoMatch.
func BudgetedTimed(ctx context.Context, reg *suites.Registry, f *gate.File, timed []vocab.Op, opts Options) (*results.File, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	rs := newResults(reg, opts)
	rs.Method = "memprof check"
	var entries []suites.Entry
	types := map[vocab.Type]bool{}
	opts.budgetN = map[results.Key]int{}
	for _, e := range reg.Entries() {
		if !budgeted(f, e.Key, false) {
			continue
		}
		types[e.Type] = true
		if !e.Unavailable.IsZero() {
			rs.Unavailable = append(rs.Unavailable, results.Unavailable{Key: e.Key, Why: e.Unavailable})
			continue
		}
		n, err := budgetN(f, e)
		if err != nil {
			return nil, err
		}
		if n > 0 {
			opts.budgetN[e.Key] = n
		}
		entries = append(entries, e)
	}
	var ops []suites.Op
	for _, o := range reg.Ops() {
		switch {
		case budgeted(f, o.Key, true):
		case opts.Throughput != NoThroughput && types[o.Type] && in(timed, o.Op):
		default:
			continue
		}
		ops = append(ops, o)
	}
	if len(entries) == 0 && len(ops) == 0 && len(rs.Unavailable) > 0 {
		return nil, nothingMeasured("case", rs.Unavailable)
	}
	if opts.Throughput == ThroughputRequired && !slices.ContainsFunc(ops, func(o suites.Op) bool { return !budgeted(f, o.Key, true) }) {
		return nil, &NoMatch{What: "operation", OpTypes: reg.OpTypes()}
	}
	ev, err := start(ctx, entries, opts)
	if err != nil {
		return nil, err
	}
	if len(entries) > 0 {
		rs.Instances = measureEntries(ctx, entries, opts, ev)
	}
	return finish(ctx, reg, rs, ops, opts, ev)
}

// budgetN is the N the budgets of f name for entry e (0 for none): one
// n among the budgets with a limit on its instances that select it
// (gate.File.NFor). Two different n, or an n other than the only N e is
// measured at, are a usage error naming the budgets' lines.
func budgetN(f *gate.File, e suites.Entry) (int, error) {
	b, err := f.NFor(e.Key)
	var c *gate.NConflict
	switch {
	case errors.As(err, &c):
		return 0, usagef("%s:%d: %v", f.Path, c.Second.Line, err)
	case b == nil:
		return 0, nil
	case e.FixedN > 0 && b.N != e.FixedN:
		return 0, usagef("%s:%d: n: %d, but %s is measured at N=%d only", f.Path, b.Line, b.N, e.Key.FullName(), e.FixedN)
	}
	return b.N, nil
}

// budgeted reports whether a budget of f with a limit on operations (a
// time, or what a call allocates: ops) or on instances (!ops) selects k.
func budgeted(f *gate.File, k results.Key, ops bool) bool {
	for _, b := range f.Budgets {
		for _, l := range b.Limits {
			if l.Metric.OnOps() == ops && b.Select.Matches(k) {
				return true
			}
		}
	}
	return false
}

// RegistryCases are reg's instance entries and operations, each with why
// it cannot be measured where it cannot: what gate.Check expands budgets
// against (gate.CheckOptions.Registry), so that a budget's selection is
// complete whatever the results hold.
func RegistryCases(reg *suites.Registry) []gate.RegistryCase {
	var out []gate.RegistryCase
	for _, e := range reg.Entries() {
		out = append(out, gate.RegistryCase{Key: e.Key, Why: e.Unavailable})
	}
	for _, o := range reg.Ops() {
		out = append(out, gate.RegistryCase{Key: o.Key, Why: o.Unavailable})
	}
	return out
}

// CgoOnly returns the budgets of f with a limit on instances that select
// at least one instance case of reg and only cases that need cgo in this
// build (vocab.NeedsCgo): with cgo off, what they bound cannot be
// measured here (memprof instances --budgets refuses them unless
// --skip-cgo).
func CgoOnly(reg *suites.Registry, f *gate.File) []*gate.Budget {
	var out []*gate.Budget
	for _, b := range f.Budgets {
		if !slices.ContainsFunc(b.Limits, func(l gate.Limit) bool { return !l.Metric.OnOps() }) {
			continue
		}
		selected, cgo := 0, 0
		for _, e := range reg.Entries() {
			if !b.Select.Matches(e.Key) || e.Unavailable.Kind == vocab.NotOffered || e.Unavailable.Kind == vocab.DoesNotApply {
				continue
			}
			selected++
			if e.Unavailable.Kind == vocab.NeedsCgo {
				cgo++
			}
		}
		if selected > 0 && cgo == selected {
			out = append(out, b)
		}
	}
	return out
}
