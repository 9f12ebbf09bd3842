package run

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/agree"
)

// Throughput times the operations of reg that sel selects (sel.Layouts
// does not apply), after the agreement check and a check of each
// operation's result. A type of sel.Types without operations is a
// *UsageError. See the package documentation for the steps, the errors and
// what the results hold.
func Throughput(ctx context.Context, reg *suites.Registry, sel Selection, opts Options) (*model.Results, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	opTypes := reg.OpTypes()
	for _, t := range sel.Types {
		if !slices.Contains(opTypes, t) {
			return nil, usagef("type %s has no operations: types with operations are %s", t, model.Join(opTypes))
		}
	}
	ops := selectOps(reg, sel)
	if len(ops) == 0 {
		return nil, &NoMatch{What: "operation", OpTypes: opTypes}
	}
	if !slices.ContainsFunc(ops, func(o suites.Op) bool { return o.Unavailable.IsZero() }) {
		var us []model.Unavailable
		for _, o := range ops {
			us = append(us, model.Unavailable{Key: o.Key, Why: o.Unavailable})
		}
		return nil, nothingMeasured("operation", us)
	}
	if err := opts.ready(); err != nil {
		return nil, err
	}
	rs := newResults(reg, opts)
	rs.Instances = []model.Result{}
	err := measureOps(ctx, reg, rs, ops, opts, &events{f: opts.Progress})
	if ctx.Err() != nil {
		return nil, fmt.Errorf("measuring: %w", context.Cause(ctx))
	}
	return rs, err
}

// Verify runs the agreement check alone (agree.Run, or opts.Agree) and
// returns results holding only its outcome. When the libraries disagree
// the error is the *agree.Disagreement, and there are no results.
func Verify(reg *suites.Registry, opts Options) (*model.Results, error) {
	rep, err := agreement(reg, opts)
	if err != nil {
		return nil, err
	}
	rs := newResults(reg, opts)
	rs.Instances = []model.Result{}
	rs.Agreement = rep.Agreement(true)
	return rs, nil
}

// agreement runs the agreement check; an error that is not a
// disagreement says the check could not run.
func agreement(reg *suites.Registry, opts Options) (*agree.Report, error) {
	rep, err := opts.agree(reg)
	var d *agree.Disagreement
	if err != nil && !errors.As(err, &d) {
		return nil, fmt.Errorf("checking agreement: %w", err)
	}
	return rep, err
}

// measureOps runs the agreement check, checks each operation's result and
// times the operations into rs (Agreement, Method, Throughput,
// Unavailable). An operation that fails its check or its timing is a row
// with its error (and an OpFailed event), not an error of measureOps. The
// error is the *agree.Disagreement when the libraries disagree (rs.Agreement
// then says so and no operation is timed), or says why nothing could be
// timed.
func measureOps(ctx context.Context, reg *suites.Registry, rs *model.Results, ops []suites.Op, opts Options, ev *events) error {
	if err := ctx.Err(); err != nil {
		return context.Cause(ctx)
	}
	ev.send(Event{Kind: OpsStarting})
	defer ev.send(Event{Kind: OpsDone})
	rep, err := agreement(reg, opts)
	if err != nil {
		if rep != nil {
			rs.Agreement = rep.Agreement(false)
		}
		return err
	}
	rs.Agreement = rep.Agreement(true)
	for _, u := range rs.Agreement.Unavailable {
		ev.send(Event{Kind: AgreementWithout, Message: u})
	}
	v, err := fixtures.Load()
	if err != nil {
		return err
	}

	var groups [][]memprof.ThroughputCase
	var groupRows [][]model.ThroughputRow
	timed := 0
	for _, o := range ops {
		if !o.Unavailable.IsZero() {
			rs.Unavailable = append(rs.Unavailable, model.Unavailable{Key: o.Key, Why: o.Unavailable})
			continue
		}
		row := model.ThroughputRow{Key: o.Key, Note: o.Note}
		h, err := suites.CheckOp(o, v)
		if err == nil {
			err = suites.CheckOpRejects(o)
		}
		if err != nil {
			row.Error = err.Error()
			rs.Throughput = append(rs.Throughput, row)
			ev.send(Event{Kind: OpFailed, Key: o.Key, Err: err})
			continue
		}
		c := memprof.ThroughputCase{Name: row.Key.String(), Run: h.Run}
		// Operations of the same type and name are compared with one
		// another: they form one group, sampled alternately.
		if n := len(groups); n > 0 && sameGroup(groupRows[n-1][0], row) {
			groups[n-1] = append(groups[n-1], c)
			groupRows[n-1] = append(groupRows[n-1], row)
		} else {
			groups = append(groups, []memprof.ThroughputCase{c})
			groupRows = append(groupRows, []model.ThroughputRow{row})
		}
		timed++
	}
	if timed == 0 {
		return nil
	}
	to := opts.timing()
	plan := TimingPlan{Ops: timed, Groups: len(groups), Samples: to.Samples, MinSample: to.MinSample,
		Estimate: time.Duration(timed) * (time.Duration(to.Samples)*to.MinSample + to.MinSample/2)}
	ev.send(Event{Kind: TimingStarted, Timing: plan})
	timings, err := memprof.MeasureThroughput(ctx, groups, to)
	if err != nil {
		return err
	}
	rs.Method = memprof.ThroughputMethod
	rows := slices.Concat(groupRows...)
	for i, t := range timings {
		r := &rows[i]
		r.Timing = t.Timing
		if t.Note != "" {
			r.Note = joinNote(r.Note, t.Note)
		}
		if t.Err != nil {
			r.Error = t.Err.Error()
			r.SamplesNs = nil
			ev.send(Event{Kind: OpFailed, Key: r.Key, Err: t.Err})
		}
	}
	rs.Throughput = append(rs.Throughput, rows...)
	return nil
}

func sameGroup(a, b model.ThroughputRow) bool { return a.Type == b.Type && a.Op == b.Op }

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
