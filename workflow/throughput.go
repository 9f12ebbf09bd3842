package workflow

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/agree"
	"github.com/memprof/memprof/vocab"
)

// Throughput times the operations of reg that sel selects (sel.Layouts
// does not apply), after the agreement check and a check of each
// operation's result. A type of sel.Types without operations is a
// *UsageError. See the package documentation for the steps, the errors and
// what the results hold.
func Throughput(ctx context.Context, reg *suites.Registry, sel Selection, opts Options) (*results.File, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	opTypes := reg.OpTypes()
	for _, t := range sel.Types {
		if !slices.Contains(opTypes, t) {
			return nil, usagef("type %s has no operations: types with operations are %s", t, vocab.Join(opTypes))
		}
	}
	ops := opts.paths(selectOps(reg, sel))
	if len(ops) == 0 {
		return nil, &NoMatch{What: "operation", OpTypes: opTypes}
	}
	if !slices.ContainsFunc(ops, func(o suites.Op) bool { return o.Unavailable.IsZero() }) {
		var us []results.Unavailable
		for _, o := range ops {
			us = append(us, results.Unavailable{Key: o.Key, Why: o.Unavailable})
		}
		return nil, nothingMeasured("operation", us)
	}
	ev, err := start(ctx, nil, opts)
	if err != nil {
		return nil, err
	}
	rs := newResults(reg, opts)
	rs.Instances = []results.Row{}
	return finish(ctx, reg, rs, ops, opts, ev)
}

// Verify runs the agreement checks alone, every family's check of reg
// (Registry.Checks; opts.Agree replaces those it names, and adds them),
// and returns
// results holding only their outcome. When the libraries disagree the
// error is the *agree.Disagreement, and there are no results.
//
// The BLS12-381 and KZG checks run when reg has libraries for them or
// opts gives them; when no check would run, the signatures' runs (and
// says that no library is available).
func Verify(reg *suites.Registry, opts Options) (*results.File, error) {
	var families []vocab.Family
	if len(reg.AgreeLibs()) > 0 {
		families = append(families, vocab.BLS12381)
	}
	if len(reg.KZGAgreeLibs()) > 0 {
		families = append(families, vocab.KZG)
	}
	for f, run := range opts.Agree {
		if run != nil && !slices.Contains(families, f) {
			families = append(families, f)
		}
	}
	for _, c := range reg.Checks() {
		if !slices.Contains(families, c.Family) {
			families = append(families, c.Family)
		}
	}
	a, err := agreement(reg, opts, families)
	if err != nil {
		return nil, err
	}
	rs := newResults(reg, opts)
	rs.Instances = []results.Row{}
	rs.Agreement = a
	return rs, nil
}

// agreement runs the agreement checks of families, in family order (the
// signatures' when families is empty), and returns their record
// (results.AgreementOf). An error that is not a disagreement says a check
// could not run; a disagreement is returned with the record, whose
// disagreeing family is not OK and whose later families did not run.
func agreement(reg *suites.Registry, opts Options, families []vocab.Family) (*results.Agreement, error) {
	if len(families) == 0 {
		families = []vocab.Family{vocab.BLS12381}
	}
	var done []results.FamilyAgreement
	for _, f := range vocab.Families {
		if !slices.Contains(families, f) {
			continue
		}
		rep, err := opts.agreeFamily(reg, f)
		var d *agree.Disagreement
		if err != nil && !errors.As(err, &d) {
			return nil, fmt.Errorf("checking agreement: %w", err)
		}
		if rep != nil {
			a := rep.Agreement(err == nil)
			done = append(done, results.FamilyAgreement{Family: f, Cases: a.Cases, Libs: a.Libs, OK: a.OK, Unavailable: a.Unavailable})
		}
		if err != nil {
			return results.AgreementOf(done), err
		}
	}
	return results.AgreementOf(done), nil
}

// familiesOf returns the families of the available operations among ops.
func familiesOf(ops []suites.Op) []vocab.Family {
	var out []vocab.Family
	for _, o := range ops {
		if f := o.Family(); o.Unavailable.IsZero() && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// measureOps runs the agreement check, checks each operation's result and
// times the operations into rs (Agreement, Method, Throughput,
// Unavailable). An operation that fails its check or its timing is a row
// with its error (and an OpFailed event), not an error of measureOps. The
// error is the *agree.Disagreement when the libraries disagree (rs.Agreement
// then says so and no operation is timed), or says why nothing could be
// timed.
//
// The operations of an isolation group (suites.Op.Isolate: c-kzg's at one
// precompute level) are checked and timed in a child process of their
// own, one group after another, after the others (see isolate.go). Then,
// unless opts.NoSites, where each timed operation allocates is profiled
// in child processes (see sites.go).
func measureOps(ctx context.Context, reg *suites.Registry, rs *results.File, ops []suites.Op, opts Options, ev *events) error {
	if err := ctx.Err(); err != nil {
		return context.Cause(ctx)
	}
	ops = opts.paths(ops)
	ev.send(Event{Kind: OpsStarting})
	defer ev.send(Event{Kind: OpsDone})
	a, err := agreement(reg, opts, familiesOf(ops))
	if err != nil {
		rs.Agreement = a
		return err
	}
	rs.Agreement = a
	for _, u := range rs.Agreement.Unavailable {
		ev.send(Event{Kind: AgreementWithout, Message: u})
	}

	var here []suites.Op
	isolated := map[string][]suites.Op{}
	var groupNames []string
	for _, o := range ops {
		switch {
		case !o.Unavailable.IsZero():
			rs.Unavailable = append(rs.Unavailable, results.Unavailable{Key: o.Key, Why: o.Unavailable})
		case o.Isolate != "":
			if _, ok := isolated[o.Isolate]; !ok {
				groupNames = append(groupNames, o.Isolate)
			}
			isolated[o.Isolate] = append(isolated[o.Isolate], o)
		default:
			here = append(here, o)
		}
	}
	checked, err := checkOps(here, ev)
	if err != nil {
		return err
	}
	timed := checked.timed
	for _, g := range groupNames {
		timed += len(isolated[g])
	}
	rs.Throughput = append(rs.Throughput, checked.failed...)
	if timed == 0 {
		return nil
	}
	to := opts.timing()
	plan := TimingPlan{Ops: timed, Groups: len(checked.groups) + len(groupNames), Samples: to.Samples, MinSample: to.MinSample,
		Estimate: time.Duration(timed) * (time.Duration(to.Samples)*to.MinSample + to.MinSample/2)}
	ev.send(Event{Kind: TimingStarted, Timing: plan})
	rows, err := checked.time(ctx, to, ev)
	if err != nil {
		return err
	}
	for _, g := range groupNames {
		grows, err := timeIsolated(ctx, opts.Child, g, isolated[g], to)
		if err != nil {
			if ctx.Err() != nil {
				return context.Cause(ctx)
			}
			grows = failedRows(isolated[g], err)
		}
		for _, r := range grows {
			if r.Error != "" {
				ev.send(Event{Kind: OpFailed, Key: r.Key, Err: errors.New(r.Error)})
			}
		}
		rows = append(rows, grows...)
	}
	rs.Method = memprof.MethodText()
	if !opts.NoSites {
		if err := profileSites(ctx, rows, ops, opts, ev); err != nil {
			return err
		}
	}
	rs.Throughput = append(rs.Throughput, rows...)
	return nil
}

// checkedOps are operations checked and ready to time: the groups the
// sampler takes (the operations of one type and name, every library and
// representation, sampled alternately) and their rows, and the rows of
// those that failed their check.
type checkedOps struct {
	groups    [][]memprof.ThroughputCase
	groupRows [][]results.ThroughputRow
	failed    []results.ThroughputRow
	timed     int
}

// checkOps checks each operation's result (suites.CheckOp) and that it
// rejects what it must (suites.CheckOpRejects), records the C heap the
// operations of a cgo library keep per call, and forms the groups. An
// operation that fails is a row with its error and an OpFailed event. The
// error is for a failure that is no operation's: the vectors cannot be
// read.
func checkOps(ops []suites.Op, ev *events) (*checkedOps, error) {
	c := &checkedOps{}
	if len(ops) == 0 {
		return c, nil
	}
	v, err := suites.Vectors()
	if err != nil {
		return nil, err
	}
	for _, o := range ops {
		row := results.ThroughputRow{Key: o.Key, Note: o.Note, OpCost: results.OpCost{Path: o.Path, CoresDependent: o.CoresDependent}}
		h, err := suites.CheckOp(o, v)
		if err == nil {
			err = suites.CheckOpRejects(o)
		}
		if err == nil && o.CHeap {
			row.CHeapBytesPerOp, err = cHeapPerCall(h.Run)
			if err != nil {
				row.Note = joinNote(row.Note, "no C heap figure: "+err.Error())
				err = nil
			}
		}
		if err != nil {
			row.Error = err.Error()
			c.failed = append(c.failed, row)
			ev.send(Event{Kind: OpFailed, Key: o.Key, Err: err})
			continue
		}
		tc := memprof.ThroughputCase{Name: row.Key.String(), Run: h.Run}
		// Operations of the same type and name are compared with one
		// another: they form one group, sampled alternately.
		if n := len(c.groups); n > 0 && sameGroup(c.groupRows[n-1][0], row) {
			c.groups[n-1] = append(c.groups[n-1], tc)
			c.groupRows[n-1] = append(c.groupRows[n-1], row)
		} else {
			c.groups = append(c.groups, []memprof.ThroughputCase{tc})
			c.groupRows = append(c.groupRows, []results.ThroughputRow{row})
		}
		c.timed++
	}
	return c, nil
}

// time times the groups and returns their rows, in group order.
func (c *checkedOps) time(ctx context.Context, to memprof.ThroughputOptions, ev *events) ([]results.ThroughputRow, error) {
	if c.timed == 0 {
		return nil, nil
	}
	timings, err := memprof.MeasureThroughput(ctx, c.groups, to)
	if err != nil {
		return nil, err
	}
	rows := slices.Concat(c.groupRows...)
	for i, t := range timings {
		r := &rows[i]
		cheap := r.CHeapBytesPerOp // measured by checkOps, not by the sampler
		r.Timing = t.Timing
		r.CHeapBytesPerOp = cheap
		if t.Note != "" {
			r.Note = joinNote(r.Note, t.Note)
		}
		if t.Err != nil {
			r.Error = t.Err.Error()
			r.SamplesNs = nil
			ev.send(Event{Kind: OpFailed, Key: r.Key, Err: t.Err})
		}
	}
	return rows, nil
}

// cHeapCalls is how many calls, besides the timed ones, measure the C heap
// an operation keeps per call.
const cHeapCalls = 2

// cHeapPerCall runs run cHeapCalls times, untimed, and returns the growth
// of the C heap in use divided by the calls (memprof.CHeapInUse before and
// after).
func cHeapPerCall(run func() error) (*float64, error) {
	before, err := memprof.CHeapInUse()
	if err != nil {
		return nil, err
	}
	for range cHeapCalls {
		if err := run(); err != nil {
			return nil, err
		}
	}
	after, err := memprof.CHeapInUse()
	if err != nil {
		return nil, err
	}
	v := float64(after-before) / cHeapCalls
	return &v, nil
}

// paths returns ops without the paths of the full matrix, unless every
// path is asked for (Options.AllPaths).
func (o Options) paths(ops []suites.Op) []suites.Op {
	if o.AllPaths {
		return ops
	}
	return slices.DeleteFunc(slices.Clone(ops), func(op suites.Op) bool { return op.FullMatrix })
}

func sameGroup(a, b results.ThroughputRow) bool { return a.Type == b.Type && a.Op == b.Op }

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
