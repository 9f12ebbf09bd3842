package run

import (
	"context"
	"fmt"

	"github.com/memprof/memprof/gate"
	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
)

// Budgeted measures what the budgets of f check: every instance case of
// reg that a memory budget selects, each in its own child process, and
// every operation a time budget selects (agreement and result checks
// first, as Throughput does). Cases a budget selects that cannot be
// measured here are recorded as unavailable, with the reason, and
// failures in their rows: gate.Check reports both. It never fails for
// selecting nothing (gate.Check reports a budget that selects nothing).
//
// The results are nil, with the error, when the memory check refuses a
// case or ctx is done. Otherwise the error, if any, is that of the
// operations' part (see Instances): the results are complete without
// their times, and gate.Check reports the time budgets as not checked.
func Budgeted(ctx context.Context, reg *suites.Registry, f *gate.File, opts Options) (*model.Results, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	rs := newResults(reg, opts)
	rs.Method = "memprof check"
	var entries []suites.Entry
	for _, e := range reg.Entries() {
		if !budgeted(f, e.Key, false) {
			continue
		}
		if !e.Unavailable.IsZero() {
			rs.Unavailable = append(rs.Unavailable, model.Unavailable{Key: e.Key, Why: e.Unavailable})
			continue
		}
		entries = append(entries, e)
	}
	if err := checkMemory(entries, opts); err != nil {
		return nil, err
	}
	ev := &events{f: opts.Progress}
	if len(entries) > 0 {
		rs.Instances = measureEntries(ctx, entries, opts, ev)
	}
	var ops []suites.Op
	for _, o := range reg.Ops() {
		if budgeted(f, o.Key, true) {
			ops = append(ops, o)
		}
	}
	var err error
	if len(ops) > 0 {
		err = measureOps(ctx, reg, rs, ops, opts, ev)
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("measuring: %w", context.Cause(ctx))
	}
	return rs, err
}

// budgeted reports whether a budget of f with a limit on operations (a
// time, or what a call allocates: ops) or on instances (!ops) selects k.
func budgeted(f *gate.File, k model.Key, ops bool) bool {
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
