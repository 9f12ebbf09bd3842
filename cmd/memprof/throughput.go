package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/agree"
)

func init() {
	register(&command{
		Name:      "throughput",
		UsageLine: "throughput --type T [--lib L,...] [--repr R,...] [--op OP,...] [--samples N] [--min-sample D] [--format table|json|markdown|csv|bench] [-o FILE]",
		Short:     "time the operations each representation makes cheap or expensive",
		Long: `Throughput times encoding, decoding (with and without the subgroup check),
conversion to affine (one point and 1,000 at once), aggregation of 128
signatures or public keys (from affine inputs and in Jacobian form), signing,
verification and fast aggregate verification, for every library and
representation that offers them. An operation a library lacks is a row that
says so. The representation of a row is the one the data is in when the
operation starts. Signatures are min-pk (keys in G1, signatures in G2, DST
BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_).

Before any figure is printed, memprof checks that the libraries agree (as
'memprof verify' does) and that every operation computes the known result of
fixtures/vectors.json and rejects invalid input; a failure exits 1.

` + memprof.ThroughputMethod + `

Exit status is 0 when every operation was timed, 1 when the libraries disagree
or an operation failed, 2 for a usage error.

` + nothingMeasuredHelp + `

` + flagsHelp,
		Run: runThroughput,
	})
}

// throughputOptions are the flags of the throughput measurement, shared by
// throughput and instances --with-throughput.
type throughputOptions struct {
	samples   int
	minSample time.Duration
	ops       string
}

func (to *throughputOptions) addFlags(fs *flag.FlagSet) {
	fs.IntVar(&to.samples, "samples", memprof.DefaultSamples, "`number` of samples per operation (at least 1)")
	fs.DurationVar(&to.minSample, "min-sample", memprof.DefaultMinSample, "least wall-time `duration` of one sample")
	fs.StringVar(&to.ops, "op", "", "only these `operations` (comma-separated): "+model.Join(model.Ops))
}

// check validates the flags; the error is a usage error.
func (to *throughputOptions) check() ([]model.Op, error) {
	if to.samples < 1 {
		return nil, fmt.Errorf("--samples must be at least 1, got %d", to.samples)
	}
	if to.minSample <= 0 {
		return nil, fmt.Errorf("--min-sample must be a positive duration such as 100ms, got %v", to.minSample)
	}
	return parseList("op", to.ops, model.Ops)
}

func runThroughput(ctx context.Context, inv *invocation, args []string) int {
	fs := inv.flags()
	types := fs.String("type", "", "time the operations of these `types` (comma-separated, or all): "+model.Join(registry().OpTypes()))
	libs := fs.String("lib", "", "only these `libraries` (comma-separated): "+model.Join(model.Libs))
	reprs := fs.String("repr", "", "only these `representations` (comma-separated): "+model.Join(model.Reprs))
	var to throughputOptions
	to.addFlags(fs)
	format := fs.String("format", "table", "output `format`: table, json, markdown, csv or bench")
	out := fs.String("o", "", "write the output to `file` (atomically) instead of stdout")
	if code, done := inv.parse(fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return inv.usageError("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	if err := checkFlags(fs); err != nil {
		return inv.usageError("%v", err)
	}
	f, err := model.Canonical("format", *format, []string{"table", "json", "markdown", "csv", "bench"})
	if err != nil {
		return inv.usageError("%v", err)
	}
	if *types == "" {
		return inv.usageError("--type is required: types with operations are %s, or all", model.Join(registry().OpTypes()))
	}
	opTypes := registry().OpTypes()
	typeList, err := parseTypes(*types)
	if err != nil {
		return inv.usageError("%v", err)
	}
	if strings.EqualFold(*types, "all") || strings.EqualFold(*types, "everything") {
		typeList = opTypes
	}
	for _, t := range typeList {
		if !slices.Contains(opTypes, t) {
			return inv.usageError("type %s has no operations: types with operations are %s", t, model.Join(opTypes))
		}
	}
	libList, err := parseList("lib", *libs, model.Libs)
	if err != nil {
		return inv.usageError("%v", err)
	}
	reprList, err := parseList("repr", *reprs, model.Reprs)
	if err != nil {
		return inv.usageError("%v", err)
	}
	opList, err := to.check()
	if err != nil {
		return inv.usageError("%v", err)
	}
	ops := selectOps(typeList, libList, reprList, opList)
	if len(ops) == 0 {
		return inv.usageError("no operation matches --type %s --lib %s --repr %s --op %s", *types, orAll(*libs), orAll(*reprs), orAll(to.ops))
	}
	var reasons []model.Why
	for _, o := range ops {
		reasons = append(reasons, o.Unavailable)
	}
	if !slices.Contains(reasons, model.Why{}) {
		sel := selection{types: *types, libs: *libs, reprs: *reprs, scheme: "min-pk"}
		return inv.refuseNothing(strings.TrimSpace(sel.describe()+" "+opFlag(to.ops)), "operation", reasons)
	}
	if err := checkOutputPath(*out); err != nil {
		return inv.fail("%v", err)
	}

	rs := &model.Results{Schema: model.Schema, Env: memprof.CurrentEnv(registry().Modules()...), Instances: []model.Result{}}
	code := measureOps(ctx, inv, rs, ops, to)
	if code == exitFailure && rs.Agreement != nil && !rs.Agreement.OK {
		return code // nothing is printed after a disagreement
	}

	var buf bytes.Buffer
	switch f {
	case "json":
		err = rs.WriteJSON(&buf)
	case "markdown", "csv", "bench":
		err = renderAs(&buf, f, rs)
	default:
		err = render.ThroughputTable(&buf, rs)
	}
	if err != nil {
		return inv.fail("rendering: %v", err)
	}
	if err := writeOutput(inv, *out, buf.Bytes()); err != nil {
		return inv.fail("%v", err)
	}
	return code
}

// selectOps returns the registered operations the lists choose.
func selectOps(types []model.Type, libs []model.Lib, reprs []model.Repr, ops []model.Op) []suites.Op {
	var out []suites.Op
	for _, o := range registry().Ops() {
		if slices.Contains(types, o.Type) && slices.Contains(libs, o.Lib) && slices.Contains(reprs, o.Repr) && slices.Contains(ops, o.Op) {
			out = append(out, o)
		}
	}
	return out
}

// measureOps runs the agreement check, checks each operation's result and
// times the operations into rs (Agreement, Method, Throughput, Unavailable).
// It returns exitFailure, with the reason on stderr, when the libraries
// disagree (rs then has no throughput rows) or an operation failed.
func measureOps(ctx context.Context, inv *invocation, rs *model.Results, ops []suites.Op, to throughputOptions) int {
	if ctx.Err() != nil {
		return exitFailure // interrupted: run says so
	}
	rep, err := agreeRun(registry())
	var d *agree.Disagreement
	if errors.As(err, &d) {
		rs.Agreement = rep.Agreement(false)
		return inv.fail("%v\nno throughput figure is printed while the libraries disagree", err)
	}
	if err != nil {
		return inv.fail("checking agreement: %v", err)
	}
	rs.Agreement = rep.Agreement(true)
	for _, u := range rs.Agreement.Unavailable {
		fmt.Fprintf(inv.stderr, "memprof %s: agreement checked without %s\n", inv.cmd.Name, u)
	}
	v, err := fixtures.Load()
	if err != nil {
		return inv.fail("%v", err)
	}

	code := exitOK
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
			fmt.Fprintf(inv.stderr, "memprof %s: %v\n", inv.cmd.Name, err)
			code = exitFailure
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
		return code
	}
	est := time.Duration(timed) * (time.Duration(to.samples)*to.minSample + to.minSample/2)
	fmt.Fprintf(inv.stderr, "memprof %s: timing %d operations in %d groups (%d samples of at least %v each; at least %v)\n", inv.cmd.Name, timed, len(groups), to.samples, to.minSample, est.Round(time.Second))
	timings, err := memprof.MeasureThroughput(ctx, groups, memprof.ThroughputOptions{Samples: to.samples, MinSample: to.minSample})
	if err != nil {
		return inv.fail("%v", err)
	}
	rs.Method = memprof.ThroughputMethod
	var rows []model.ThroughputRow
	for _, g := range groupRows {
		rows = append(rows, g...)
	}
	for i, t := range timings {
		r := &rows[i]
		r.Timing = t.Timing
		if t.Note != "" {
			r.Note = joinNote(r.Note, t.Note)
		}
		if t.Err != nil {
			r.Error = t.Err.Error()
			r.SamplesNs = nil
			fmt.Fprintf(inv.stderr, "memprof %s: %s\n", inv.cmd.Name, r.Error)
			code = exitFailure
		}
	}
	rs.Throughput = append(rs.Throughput, rows...)
	return code
}

// agreeRun is the agreement check; tests replace it to see a disagreement
// handled.
var agreeRun = agree.Run

func sameGroup(a, b model.ThroughputRow) bool { return a.Type == b.Type && a.Op == b.Op }

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// noOpMatches says that no operation matches the selection and --op, and
// which types have operations.
func noOpMatches(s *selection, to throughputOptions) string {
	return fmt.Sprintf("no operation matches %s; types with operations are %s", strings.TrimSpace(s.describe()+" "+opFlag(to.ops)), model.Join(registry().OpTypes()))
}

// opFlag writes --op as given, or "" when it was not.
func opFlag(ops string) string {
	if ops == "" {
		return ""
	}
	return "--op " + ops
}

// throughputOps returns the operations of the types, libraries and
// representations the selection flags choose (instances --with-throughput);
// types without operations are skipped. The error is a usage error.
func (s *selection) throughputOps(to throughputOptions) ([]suites.Op, error) {
	if !strings.EqualFold(s.scheme, "min-pk") {
		return nil, fmt.Errorf("--with-throughput times min-pk operations only (keys in G1, signatures in G2); drop --scheme %s", s.scheme)
	}
	opList, err := to.check()
	if err != nil {
		return nil, err
	}
	types, err := parseTypes(s.types)
	if err != nil {
		return nil, err
	}
	libs, err := parseList("lib", s.libs, model.Libs)
	if err != nil {
		return nil, err
	}
	reprs, err := parseList("repr", s.reprs, model.Reprs)
	if err != nil {
		return nil, err
	}
	return selectOps(types, libs, reprs, opList), nil
}
