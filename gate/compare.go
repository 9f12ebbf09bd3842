package gate

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
	"golang.org/x/perf/benchmath"
)

// CompareOptions tune Compare. The zero value is strict: no tolerance,
// missing cases and environment mismatches refused.
type CompareOptions struct {
	// ToleranceBytes is the increase in bytes per instance allowed before
	// it is a regression (default 0: any increase is one).
	ToleranceBytes float64
	// Tolerance is the relative slowdown of a time allowed even when it
	// is significant, as a fraction (0.05 for 5%).
	Tolerance float64
	// Alpha is the significance level of the Mann-Whitney U test; 0
	// means benchmath.DefaultThresholds (0.05, as benchstat).
	Alpha float64
	// AllowMissing lets cases present in base but not in head pass.
	AllowMissing bool
	// AllowEnvMismatch compares results made in different environments;
	// the differences are still reported.
	AllowEnvMismatch bool
	// FailOnTime makes a time regression (and a time with too few
	// samples to judge) fail, as on a pinned, quiet runner. By default
	// it warns (Row.Warns): a time moves with the machine.
	FailOnTime bool

	// BaseCommit, when set, is the commit the base should have been
	// measured at; MaxBaseAge the age beyond which the base is stale (0:
	// not checked), judged at Now (nil: time.Now). What they find is in
	// Comparison.Warnings (BaseWarnings); it does not fail the comparison.
	BaseCommit string
	MaxBaseAge time.Duration
	Now        func() time.Time
}

// Change is the verdict on one compared metric.
type Change string

// The verdicts of a comparison row.
const (
	Unchanged  Change = "unchanged"  // equal, or a difference not significant or within tolerance
	Improved   Change = "improved"   // smaller, beyond noise and tolerance
	Regressed  Change = "regression" // larger, beyond noise and tolerance
	New        Change = "new"        // only in head
	Missing    Change = "missing"    // only in base
	Unmeasured Change = "error"      // failed to measure in head (or in base)
)

// Row compares one metric of one case.
type Row struct {
	Case string `json:"case"`
	// Metric is "bytes/instance", "allocs/instance" or "time/op".
	Metric string  `json:"metric"`
	Unit   string  `json:"unit"` // "B", "allocs" or "ns"
	Base   float64 `json:"base"`
	Head   float64 `json:"head"`
	// Delta is Head-Base; DeltaFraction is Delta/Base (0 when Base is 0).
	Delta         float64 `json:"delta"`
	DeltaFraction float64 `json:"delta_fraction"`
	// P is the U test's p-value for times (-1 for exact metrics); N1, N2
	// the sample counts.
	P      float64 `json:"p"`
	N1     int     `json:"n_base,omitempty"`
	N2     int     `json:"n_head,omitempty"`
	Change Change  `json:"change"`
	// Fails reports whether this row fails the comparison; Warns that it
	// would, but is a time and the comparison does not fail on times
	// (CompareOptions.FailOnTime).
	Fails bool   `json:"fails"`
	Warns bool   `json:"warns,omitempty"`
	Note  string `json:"note,omitempty"`
}

// Comparison is the result of Compare.
type Comparison struct {
	BaseEnv  measure.Env       `json:"base_env"`
	HeadEnv  measure.Env       `json:"head_env"`
	EnvDiffs []results.EnvDiff `json:"env_diffs,omitempty"`
	// Rows lists every comparison, failing rows first, then in case
	// order.
	Rows     []Row `json:"rows"`
	Failures int   `json:"failures"`
	// TimeWarnings counts the rows that warn (Row.Warns); FailOnTime
	// says whether times fail instead.
	TimeWarnings int     `json:"time_warnings,omitempty"`
	FailOnTime   bool    `json:"fail_on_time"`
	Tolerance    float64 `json:"tolerance"`
	Alpha        float64 `json:"alpha"`
	// Warnings say why the base may not be the base of the change (see
	// BaseWarnings).
	Warnings []string `json:"warnings,omitempty"`
}

// OK reports whether no row fails.
func (c *Comparison) OK() bool { return c.Failures == 0 }

// Verdict is the one-line summary: "no regression detected" or
// "N regressions".
func (c *Comparison) Verdict() string {
	switch c.Failures {
	case 0:
		return "no regression detected"
	case 1:
		return "1 regression"
	}
	return fmt.Sprintf("%d regressions", c.Failures)
}

// EnvMismatchError is returned by Compare when base and head were measured
// in different environments and that was not allowed.
type EnvMismatchError struct{ Diffs []results.EnvDiff }

func (e *EnvMismatchError) Error() string {
	var parts []string
	for _, d := range e.Diffs {
		parts = append(parts, fmt.Sprintf("%s (base %q, head %q)", d.Field, d.Base, d.Head))
	}
	msg := "results come from different environments: " + strings.Join(parts, ", ")
	if slices.ContainsFunc(e.Diffs, func(d results.EnvDiff) bool { return d.Field == results.ScanRuleField }) {
		msg += "; " + results.ScanRuleWhy
	}
	return msg + "; measure both on one machine, or pass --allow-env-mismatch"
}

// ErrBadInput is wrapped by Compare errors about input that cannot be
// compared (as opposed to regressions).
var ErrBadInput = errors.New("cannot compare")

// Compare pairs the cases of base and head by (type, lib, repr, layout,
// scheme) for instances and (type, lib, repr, op, batch) for operations,
// and judges each metric: bytes and allocations per instance exactly
// (bytes beyond ToleranceBytes, any extra allocation), times by a
// Mann-Whitney U test over samples_ns at Alpha and the Tolerance. A time
// with fewer than MinSamples samples on a side, or from a file whose
// agreement check failed, fails: nothing can be concluded from it.
//
// It returns an error wrapping ErrBadInput for results that break the
// schema's rules (results.File.Validate) or times without samples, and
// an *EnvMismatchError for results from different environments (unless
// allowed).
func Compare(base, head *results.File, opts CompareOptions) (*Comparison, error) {
	for _, side := range []struct {
		name string
		rs   *results.File
	}{{"base", base}, {"head", head}} {
		if err := side.rs.Validate(); err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrBadInput, side.name, err)
		}
	}
	alpha := opts.Alpha
	if alpha == 0 {
		alpha = benchmath.DefaultThresholds.CompareAlpha
	}
	c := &Comparison{BaseEnv: base.Env, HeadEnv: head.Env, Tolerance: opts.Tolerance, Alpha: alpha, FailOnTime: opts.FailOnTime}
	c.EnvDiffs = results.EnvDiffs(base.Env, head.Env)
	now := time.Now()
	if opts.Now != nil {
		now = opts.Now()
	}
	c.Warnings = BaseWarnings(base.Env, opts.BaseCommit, opts.MaxBaseAge, now)
	if why := results.ScanRuleUnknown(base, head); why != "" {
		c.Warnings = append(c.Warnings, why)
	}
	if len(c.EnvDiffs) > 0 && !opts.AllowEnvMismatch {
		return nil, &EnvMismatchError{c.EnvDiffs}
	}
	thresholds := &benchmath.Thresholds{CompareAlpha: alpha}
	rows, errs := compareInstances(base, head, opts, thresholds)
	trows, terrs := compareOps(base, head, opts, thresholds)
	if errs = append(errs, terrs...); len(errs) > 0 {
		return nil, fmt.Errorf("%w: %w", ErrBadInput, errors.Join(errs...))
	}
	rows = append(rows, trows...)
	sort.SliceStable(rows, func(i, j int) bool { return rank(rows[i]) > rank(rows[j]) })
	for _, r := range rows {
		if r.Fails {
			c.Failures++
		}
		if r.Warns {
			c.TimeWarnings++
		}
	}
	c.Rows = rows
	return c, nil
}

// rank orders comparison rows: failing ones first, then the warnings.
func rank(r Row) int {
	switch {
	case r.Fails:
		return 2
	case r.Warns:
		return 1
	}
	return 0
}

// compared returns the figures of kind that compare judges
// (results.Figure.Compare), in order.
func compared(kind results.RowKind) []*results.Figure {
	return results.FiguresWhere(kind, func(f *results.Figure) bool { return f.Compare != "" })
}

// rowUnit is the unit a comparison row names: "B", "ns", and "allocs"
// for a count (the unit compare's rows have always named).
func rowUnit(u units.Unit) string {
	switch u {
	case units.Bytes:
		return "B"
	case units.Nanoseconds:
		return "ns"
	case units.Count:
		return "allocs"
	}
	return string(u)
}

// figureOf is a side's figure f for a row that only it has or only it
// measured: the median of its samples for a figure judged over them, 0
// where it has none (a failed row has no figure).
func figureOf(f *results.Figure, row results.FigureRow) float64 {
	v, ok := f.Value(row)
	switch {
	case !ok:
		return 0
	case f.Samples != "":
		q, _, _ := SampleFigure(f, row)
		return q.Median
	}
	return v
}

// judgeKnown judges figure f of a case both sides measured where a side
// lacks it (a file older than the figure), and reports whether it did: a
// figure only head has is new, one head lacks is missing (failing unless
// allowMissing), one neither has gives no row (ok false, skip true).
func judgeKnown(row *Row, f *results.Figure, b, h results.FigureRow, allowMissing bool) (done, skip bool) {
	bv, bok := f.Value(b)
	hv, hok := f.Value(h)
	switch {
	case bok && hok:
		return false, false
	case !bok && !hok:
		return true, true
	case !hok:
		row.Change, row.Base, row.Fails = Missing, bv, !allowMissing
		row.Note = "head lacks " + f.Name
	default:
		row.Change, row.Head = New, hv
		row.Note = "base lacks " + f.Name
	}
	return true, false
}

// judgeFigure judges figure f of a case both sides measured: missing or
// new where one side lacks it (skip where neither has it), over the
// samples for a figure judged over them, exactly otherwise. It fails,
// leaving row, for a figure judged over samples that a side has none of.
func judgeFigure(row *Row, f *results.Figure, b, h results.FigureRow, opts CompareOptions, thresholds *benchmath.Thresholds) (skip bool, err error) {
	if done, skip := judgeKnown(row, f, b, h, opts.AllowMissing); done {
		return skip, nil
	}
	if f.Samples != "" {
		err := judgeTime(row, f, b, h, opts.Tolerance, thresholds)
		if row.Fails && !opts.FailOnTime {
			row.Fails, row.Warns = false, true
			row.Note = joinNote(row.Note, "a time: it warns and does not fail without --fail-on-time")
		}
		return false, err
	}
	tolerance := exactTolerance(f, opts)
	res := f.ResolutionOf(b) + f.ResolutionOf(h)
	judgeExact(row, figureOf(f, b), figureOf(f, h), tolerance+res)
	if row.Change == Unchanged && row.Delta > tolerance {
		row.Note = fmt.Sprintf("within the readings' resolution (%s per instance)", f.Unit.Format(res))
	}
	return false, nil
}

func compareInstances(base, head *results.File, opts CompareOptions, thresholds *benchmath.Thresholds) ([]Row, []error) {
	return compareRows(instanceRows, base.Instances, head.Instances, opts, thresholds, func(row Row, p pair[results.Row], judged bool) Row {
		if !judged {
			return row
		}
		if b, h := p.base.N, p.head.N; b != h && b != 0 && h != 0 {
			row.Note = joinNote(row.Note, fmt.Sprintf("measured at different N (base %d, head %d)", b, h))
		}
		return row
	})
}

// compareRows judges every compared figure of k's kind for each case of
// base and head: a case one side lacks or failed by judgeAbsent, the
// others by judgeFigure. finish completes each row kept (judged: both
// sides measured the case).
func compareRows[R any, PR interface {
	*R
	results.FigureRow
}](k rowKind[R], base, head []R, opts CompareOptions, thresholds *benchmath.Thresholds, finish func(row Row, p pair[R], judged bool) Row) ([]Row, []error) {
	var rows []Row
	var errs []error
	for _, p := range k.pairs(base, head) {
		for _, f := range compared(k.kind) {
			row := Row{Case: p.key.FullName(), Metric: f.Compare, Unit: rowUnit(f.Unit), P: -1}
			value := func(r *R) float64 { return figureOf(f, PR(r)) }
			judged := !k.judgeAbsent(&row, p, value, opts.AllowMissing)
			if judged {
				skip, err := judgeFigure(&row, f, PR(p.base), PR(p.head), opts, thresholds)
				if err != nil {
					errs = append(errs, fmt.Errorf("%s: %w", row.Case, err))
				}
				if skip || err != nil {
					continue
				}
			}
			rows = append(rows, finish(row, p, judged))
		}
	}
	return rows, errs
}

// exactTolerance is the increase of exact figure f a comparison allows:
// --tolerance-bytes for bytes, none for counts. A figure read to a
// resolution (results.Figure.Resolution) is allowed that of both sides'
// readings too: only an increase beyond them is a regression.
func exactTolerance(f *results.Figure, opts CompareOptions) float64 {
	if f.Unit == units.Bytes {
		return opts.ToleranceBytes
	}
	return 0
}

// judgeExact judges an exact figure: an increase beyond tolerance is a
// regression, any decrease an improvement.
func judgeExact(row *Row, base, head, tolerance float64) {
	row.Base, row.Head = base, head
	row.Delta = row.Head - row.Base
	if row.Base != 0 {
		row.DeltaFraction = row.Delta / row.Base
	}
	switch {
	case row.Delta > tolerance:
		row.Change, row.Fails = Regressed, true
	case row.Delta < 0:
		row.Change = Improved
	default:
		row.Change = Unchanged
		if row.Delta > 0 {
			row.Note = fmt.Sprintf("within --tolerance-bytes %s", units.FormatNumber(tolerance))
		}
	}
}

func compareOps(base, head *results.File, opts CompareOptions, thresholds *benchmath.Thresholds) ([]Row, []error) {
	untrusted := map[string]string{"base": disagreement(base), "head": disagreement(head)}
	rows, errs := compareRows(throughputRows, base.Throughput, head.Throughput, opts, thresholds, func(row Row, p pair[results.ThroughputRow], _ bool) Row {
		return untrustedRow(row, p, untrusted)
	})
	// A file whose libraries disagreed fails the comparison even when it
	// holds no time (measureOps writes none after a disagreement).
	for _, side := range []string{"base", "head"} {
		why := untrusted[side]
		if why == "" || slices.ContainsFunc(rows, func(r Row) bool { return strings.HasPrefix(r.Note, side+": ") }) {
			continue
		}
		rows = append(rows, Row{Case: "agreement check", Metric: "agreement", P: -1, Change: Unmeasured, Fails: true, Note: side + ": " + why})
	}
	return rows, errs
}

// untrustedRow is row failed when a side it compares comes from a file
// whose libraries disagreed: a figure of an operation measured with them
// is not trusted.
func untrustedRow(row Row, p pair[results.ThroughputRow], untrusted map[string]string) Row {
	for _, side := range []string{"head", "base"} {
		present := (side == "head" && p.head != nil) || (side == "base" && p.base != nil)
		if why := untrusted[side]; why != "" && present {
			row.Change, row.Fails, row.Warns, row.P = Unmeasured, true, false, -1
			row.Note = side + ": " + why
			break
		}
	}
	return row
}

// judgeTime judges figure f (one judged over its samples) of a case both
// sides measured, by a Mann-Whitney U test over their samples and the
// relative tolerance. It fails, leaving row, for a side without samples
// or whose samples give no figure.
func judgeTime(row *Row, f *results.Figure, b, h results.FigureRow, tolerance float64, thresholds *benchmath.Thresholds) error {
	bs, hs := f.SamplesOf(b), f.SamplesOf(h)
	if len(bs) == 0 || len(hs) == 0 {
		side := "base"
		if len(bs) > 0 {
			side = "head"
		}
		return fmt.Errorf("%s has no %s: times are compared over raw samples; re-measure it with this memprof", side, f.Samples)
	}
	bq, n1, err := SampleFigure(f, b)
	if err != nil {
		return fmt.Errorf("base: %w", err)
	}
	hq, n2, err := SampleFigure(f, h)
	if err != nil {
		return fmt.Errorf("head: %w", err)
	}
	row.Base, row.Head, row.N1, row.N2 = bq.Median, hq.Median, n1, n2
	row.Delta = row.Head - row.Base
	if row.Base != 0 {
		row.DeltaFraction = row.Delta / row.Base
	}
	if why := tooFewSamples(n1, n2, thresholds.CompareAlpha); why != "" {
		row.Change, row.Fails, row.Note = Unmeasured, true, why
		return nil
	}
	cmp := benchmath.AssumeNothing.Compare(benchmath.NewSample(slices.Clone(bs), thresholds), benchmath.NewSample(slices.Clone(hs), thresholds))
	row.P = cmp.P
	significant := cmp.P < cmp.Alpha
	switch {
	case significant && row.DeltaFraction > tolerance:
		row.Change, row.Fails = Regressed, true
	case significant && row.DeltaFraction < -tolerance:
		row.Change = Improved
	default:
		row.Change = Unchanged
		switch {
		case !significant:
			row.Note = fmt.Sprintf("not significant (p=%.3f)", cmp.P)
		case row.Delta != 0:
			row.Note = fmt.Sprintf("within tolerance %s", pct(tolerance))
		}
	}
	for _, w := range cmp.Warnings {
		row.Note = joinNote(row.Note, w.Error())
	}
	return nil
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

func pct(f float64) string {
	if math.IsInf(f, 0) {
		return "∞%"
	}
	return units.FormatNumber(f*100) + "%"
}
