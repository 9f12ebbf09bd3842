// Package gatereport renders the reports of the gate package for the
// memprof check and compare commands: budget outcomes as text, and
// comparisons as a terminal table, Markdown for a pull-request comment, or
// JSON. It only formats, writing to the io.Writer it is given.
package gatereport

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/gate"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/units"
)

// Check writes the outcomes of a budget check, failures first, each
// failure in the style of bundle-size budgets: the case, the metric,
// measured vs budget, by how much, the budget's file:line, owner and
// reason. It ends with a one-line summary.
func Check(w io.Writer, rep *gate.Report) error {
	outs := slices.Clone(rep.Outcomes)
	sort.SliceStable(outs, func(i, j int) bool { return outs[i].Status > outs[j].Status })
	for _, o := range outs {
		if err := outcome(w, rep.File.Path, o); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, Summary(rep))
	return err
}

// Summary is the last line of a check: counts per status and the file.
func Summary(rep *gate.Report) string {
	var parts []string
	add := func(n int, one, many string) {
		if n == 1 {
			parts = append(parts, "1 "+one)
		} else if n > 1 {
			parts = append(parts, strconv.Itoa(n)+" "+many)
		}
	}
	expired := 0
	for _, o := range rep.Outcomes {
		if o.Expired {
			expired++
		}
	}
	add(rep.Count(gate.Fail)-expired, "budget exceeded", "budgets exceeded")
	add(expired, "budget expired", "budgets expired")
	add(rep.Count(gate.Error), "not checked (error)", "not checked (errors)")
	add(len(rep.Problems), "invalid budget", "invalid budgets")
	add(rep.Count(gate.Warn), "warning", "warnings")
	add(rep.Count(gate.Pass), "holds", "hold")
	add(rep.Skipped(gate.SkipUnavailable), "skipped (unavailable in this build)", "skipped (unavailable in this build)")
	add(rep.Skipped(gate.SkipOptional), "skipped (optional, not in the results)", "skipped (optional, not in the results)")
	add(rep.Skipped(gate.SkipCgo), "skipped (needs cgo: --skip-cgo)", "skipped (need cgo: --skip-cgo)")
	verdict := "ok"
	if !rep.OK() {
		verdict = "FAIL"
	}
	if rep.Checked() == 0 {
		parts = append(parts, "nothing checked")
	}
	return fmt.Sprintf("memprof check: %s: %s (%s)", verdict, strings.Join(parts, ", "), rep.File.Path)
}

func outcome(w io.Writer, path string, o gate.Outcome) error {
	m := o.Limit.Metric
	var line string
	switch o.Status {
	case gate.Pass:
		line = fmt.Sprintf("PASS  %s  %s: %s <= budget %s", o.Case, m, m.Format(o.Measured), m.Format(o.Limit.Value))
	case gate.Error:
		line = fmt.Sprintf("ERROR %s  %s: not checked: %s", o.Case, m, o.Detail)
	case gate.Skip:
		line = fmt.Sprintf("SKIP  %s  %s: %s", o.Case, m, o.Detail)
	case gate.Fail:
		if o.Expired {
			line = fmt.Sprintf("FAIL  %s  %s: %s; measured %s, budget %s", o.Case, m, o.Detail, m.Format(o.Measured), m.Format(o.Limit.Value))
			break
		}
		fallthrough
	default:
		by, frac := o.Over()
		word := "FAIL "
		if o.Status == gate.Warn {
			word = "WARN "
		}
		line = fmt.Sprintf("%s %s  %s: %s > budget %s (%s, %s)", word, o.Case, m, m.Format(o.Measured), m.Format(o.Limit.Value), signed(m, by), signedPct(frac))
		if m.IsTime() {
			line += fmt.Sprintf("; interquartile range [%s, %s]", units.FormatNs(o.Q1), units.FormatNs(o.Q3))
		}
	}
	if _, err := fmt.Fprintln(w, line); err != nil {
		return err
	}
	if o.Status == gate.Pass || o.Status == gate.Skip {
		return nil
	}
	b := o.Budget
	loc := fmt.Sprintf("      %s:%d  select %s", path, o.Limit.Line, b.Select)
	if b.Owner != "" {
		loc += "  owner: " + b.Owner
	}
	fmt.Fprintln(w, loc)
	if b.Reason != "" {
		fmt.Fprintln(w, "      reason: "+b.Reason)
	}
	if o.Status == gate.Warn && o.Detail != "" {
		fmt.Fprintln(w, "      "+o.Detail)
	}
	return nil
}

func signed(m gate.Metric, v float64) string {
	s := m.Format(math.Abs(v))
	if v < 0 {
		return "-" + s
	}
	return "+" + s
}

// signedPct writes a fraction as a signed percentage: "+50.0%".
func signedPct(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "+∞%"
	case f < 0:
		return units.FormatPercent(f)
	}
	return "+" + units.FormatPercent(f)
}

// rowUnits are the units (package units) of a comparison row's units.
var rowUnits = map[string]units.Unit{"B": units.Bytes, "allocs": units.Count, "ns": units.Nanoseconds}

// value formats a comparison value with its unit (units.Unit.Format).
func value(r gate.Row, v float64) string {
	u, ok := rowUnits[r.Unit]
	if !ok {
		u = units.Bytes
	}
	return u.Format(v)
}

// delta formats a row's change with signs and units: "+96 B (+50.0%)".
func delta(r gate.Row) string {
	switch r.Change {
	case gate.New, gate.Missing, gate.Unmeasured:
		return "-"
	}
	if r.Delta == 0 {
		return "0"
	}
	sign := "+"
	if r.Delta < 0 {
		sign = "-"
	}
	s := sign + value(r, math.Abs(r.Delta))
	if r.Base != 0 {
		s += " (" + signedPct(r.DeltaFraction) + ")"
	}
	return s
}

func baseCell(r gate.Row) string {
	if r.Change == gate.New {
		return "-"
	}
	if r.Change == gate.Unmeasured && strings.HasPrefix(r.Note, "base") {
		return "error"
	}
	if r.Change == gate.Unmeasured && strings.HasPrefix(r.Note, "head") && r.Base == 0 {
		return "-"
	}
	return value(r, r.Base)
}

func headCell(r gate.Row) string {
	if r.Change == gate.Missing {
		return "-"
	}
	if r.Change == gate.Unmeasured && strings.HasPrefix(r.Note, "head") {
		return "error"
	}
	return value(r, r.Head)
}

func pCell(r gate.Row) string {
	if r.P < 0 {
		if r.Change == gate.New || r.Change == gate.Missing || r.Change == gate.Unmeasured {
			return ""
		}
		return "exact"
	}
	if r.P < 0.001 {
		return fmt.Sprintf("p<0.001 n=%d+%d", r.N1, r.N2)
	}
	return fmt.Sprintf("p=%.3f n=%d+%d", r.P, r.N1, r.N2)
}

func verdictCell(r gate.Row) string {
	v := string(r.Change)
	if r.Change == gate.Missing && !r.Fails {
		v += " (allowed)"
	}
	if r.Fails {
		v = "FAIL " + v
	}
	return v
}

// Headline is a comparison's verdict counted by kind: "no regression
// detected", or "1 bytes regression, 1 time regression, 1 missing case"
// (a missing case fails once, however many of its figures are missing).
// Regressions are counted by figure (bytes, allocs, time), missing and
// unjudged cases (failed to measure, too few samples, libraries that
// disagree) by case.
func Headline(c *gate.Comparison) string {
	if c.OK() {
		if c.TimeWarnings > 0 {
			return "no memory regression; " + timeWarnings(c)
		}
		return c.Verdict()
	}
	regressions := map[string]int{}
	var metrics []string
	cases := map[gate.Change]map[string]bool{gate.Missing: {}, gate.Unmeasured: {}}
	for _, r := range c.Rows {
		if !r.Fails {
			continue
		}
		switch r.Change {
		case gate.Regressed:
			m, _, _ := strings.Cut(r.Metric, "/")
			if regressions[m] == 0 {
				metrics = append(metrics, m)
			}
			regressions[m]++
		case gate.Missing, gate.Unmeasured:
			cases[r.Change][r.Case] = true
		}
	}
	var parts []string
	for _, m := range metrics {
		parts = append(parts, plural(regressions[m], m+" regression", m+" regressions"))
	}
	if n := len(cases[gate.Missing]); n > 0 {
		parts = append(parts, plural(n, "missing case", "missing cases"))
	}
	if n := len(cases[gate.Unmeasured]); n > 0 {
		parts = append(parts, plural(n, "case not judged", "cases not judged"))
	}
	if len(parts) == 0 {
		return c.Verdict()
	}
	if c.TimeWarnings > 0 {
		parts = append(parts, timeWarnings(c))
	}
	return strings.Join(parts, ", ")
}

// timeWarnings counts the rows of times that warn (gate.Row.Warns).
func timeWarnings(c *gate.Comparison) string {
	return plural(c.TimeWarnings, "time warning", "time warnings") + " (times fail only with --fail-on-time)"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// TableFit writes a comparison as a terminal table fitted to width (0:
// no limit) in style, failing rows first, one token per cell (a row's
// note a footnote), then the environment differences if any, then the
// headline.
func TableFit(w io.Writer, c *gate.Comparison, width int, style render.Style) error {
	t := render.MarkdownTable{Header: []string{"result", "case", "metric", "base", "head", "delta", "Δ%", "test", "n", "verdict"}}
	var notes []string
	for _, r := range c.Rows {
		result := "ok"
		switch {
		case r.Fails:
			result = "FAIL"
		case r.Warns:
			result = "warn"
		}
		verdict := string(r.Change)
		if r.Change == gate.Missing && !r.Fails {
			verdict += "(allowed)"
		}
		if r.Note != "" {
			if i := slices.Index(notes, r.Note); i >= 0 {
				verdict += "[" + strconv.Itoa(i+1) + "]"
			} else {
				notes = append(notes, r.Note)
				verdict += "[" + strconv.Itoa(len(notes)) + "]"
			}
		}
		d, pct := deltaCells(r)
		test, n := testCells(r)
		metric, _, _ := strings.Cut(r.Metric, "/") // bytes, allocs, time: per instance or per operation, as their unit
		t.Rows = append(t.Rows, []string{result, strings.ReplaceAll(r.Case, " ", "/"), metric, token(baseCell(r)), token(headCell(r)), d, pct, test, n, verdict})
	}
	t.Right = []bool{false, false, false, true, true, true, true, false, true, false}
	var after []string
	for i, n := range notes {
		after = append(after, "["+strconv.Itoa(i+1)+"] "+n)
	}
	for _, d := range c.EnvDiffs {
		after = append(after, fmt.Sprintf("environment differs: %s: base %q, head %q", d.Field, d.Base, d.Head))
	}
	for _, warn := range c.Warnings {
		after = append(after, "warning: "+warn)
	}
	after = append(after, "memprof compare: "+Headline(c))
	return render.WriteTableStyled(w, t, width, style, []int{1}, []int{6, 7, 8}, "--format json shows them", after)
}

// token writes a table figure as one token: "192", "1.004ms".
func token(s string) string {
	s = strings.TrimSuffix(s, " B")
	return strings.ReplaceAll(s, " ", "")
}

// deltaCells writes a row's change and its fraction as two tokens: "+96"
// and "+50.0%" ("-" where they do not apply).
func deltaCells(r gate.Row) (delta, pct string) {
	switch r.Change {
	case gate.New, gate.Missing, gate.Unmeasured:
		return "-", "-"
	}
	if r.Delta == 0 {
		return "0", "0%"
	}
	sign := "+"
	if r.Delta < 0 {
		sign = "-"
	}
	delta = sign + token(value(r, math.Abs(r.Delta)))
	pct = "-"
	if r.Base != 0 {
		pct = signedPct(r.DeltaFraction)
	}
	return delta, pct
}

// testCells writes a row's test as two tokens: "exact" or "p=0.012",
// and the sample counts "10+10" ("-" where there are none).
func testCells(r gate.Row) (test, n string) {
	switch {
	case r.P < 0 && (r.Change == gate.New || r.Change == gate.Missing || r.Change == gate.Unmeasured):
		return "-", "-"
	case r.P < 0:
		return "exact", "-"
	case r.P < 0.001:
		test = "p<0.001"
	default:
		test = fmt.Sprintf("p=%.3f", r.P)
	}
	return test, fmt.Sprintf("%d+%d", r.N1, r.N2)
}

// Markdown writes a comparison for a pull-request comment: the verdict
// line first, the failing rows with signed deltas and units, the full
// table in a <details> block, and the two environments. It is
// CompareMarkdown without options.
func Markdown(w io.Writer, c *gate.Comparison) error {
	return CompareMarkdown(w, c, MarkdownOptions{})
}

// CompareMarkdown is Markdown with what opts adds: after the verdict, a
// line on the base and head runs (the link to the base run, their
// commits, times and machines) and a warning for each of c.Warnings (a
// stale base).
func CompareMarkdown(w io.Writer, c *gate.Comparison, opts MarkdownOptions) error {
	var b strings.Builder
	icon := "✅"
	if !c.OK() {
		icon = "❌"
	}
	fmt.Fprintf(&b, "### %s memprof: %s\n\n", icon, Headline(c))
	timesFail := "they warn and do not fail (`--fail-on-time` makes them fail, on a pinned, quiet runner)"
	if c.FailOnTime {
		timesFail = "they fail (`--fail-on-time`)"
	}
	fmt.Fprintf(&b, "Bytes and allocations per instance are exact (a figure read to a resolution regresses beyond it only); times regress only when a Mann-Whitney U test is significant (alpha %s) and the slowdown exceeds %s, and %s.\n\n",
		strconv.FormatFloat(c.Alpha, 'f', -1, 64), strconv.FormatFloat(c.Tolerance*100, 'f', -1, 64)+"%", timesFail)
	runsLine(&b, c, opts)
	warnings(&b, c.Warnings)
	if len(c.EnvDiffs) > 0 {
		var fields []string
		for _, d := range c.EnvDiffs {
			fields = append(fields, "`"+d.Field+"`")
		}
		fmt.Fprintf(&b, "> [!WARNING]\n> The two results come from different environments (%s): differences may come from the machine, not the change.\n\n", strings.Join(fields, ", "))
	}
	header := "| case | metric | base | head | delta | test | verdict |\n|---|---|--:|--:|--:|---|---|\n"
	var failing, warned []gate.Row
	for _, r := range c.Rows {
		switch {
		case r.Fails:
			failing = append(failing, r)
		case r.Warns:
			warned = append(warned, r)
		}
	}
	if len(failing) > 0 {
		b.WriteString(header)
		for _, r := range failing {
			mdRow(&b, r)
		}
		b.WriteString("\n")
	}
	if len(warned) > 0 {
		b.WriteString("Times that would regress, warnings only:\n\n" + header)
		for _, r := range warned {
			mdRow(&b, r)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "<details><summary>All %d comparisons</summary>\n\n", len(c.Rows))
	if len(c.Rows) > 0 {
		b.WriteString(header)
		for _, r := range c.Rows {
			mdRow(&b, r)
		}
	} else {
		b.WriteString("No cases in either file.\n")
	}
	b.WriteString("\n</details>\n\n")
	b.WriteString("**Environments**\n\n| | base | head |\n|---|---|---|\n")
	for _, e := range envRows(c.BaseEnv, c.HeadEnv) {
		mark := ""
		if e[1] != e[2] {
			mark = " ⚠️"
		}
		fmt.Fprintf(&b, "| %s%s | %s | %s |\n", e[0], mark, mdCell(e[1]), mdCell(e[2]))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mdRow(b *strings.Builder, r gate.Row) {
	verdict := verdictCell(r)
	if r.Note != "" {
		verdict += " — " + r.Note
	}
	fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s |\n", mdCell(r.Case), r.Metric, baseCell(r), headCell(r), delta(r), pCell(r), mdCell(verdict))
}

func mdCell(s string) string {
	if s == "" {
		return ""
	}
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// envRows lists the environment fields side by side.
func envRows(a, b measure.Env) [][3]string {
	rows := [][3]string{
		{"cpu", a.CPU, b.CPU},
		{"goos/goarch", a.GOOS + "/" + a.GOARCH, b.GOOS + "/" + b.GOARCH},
		{"go", a.GoVersion, b.GoVersion},
		{"cores (GOMAXPROCS)", fmt.Sprintf("%d (%d)", a.NumCPU, a.GOMAXPROCS), fmt.Sprintf("%d (%d)", b.NumCPU, b.GOMAXPROCS)},
		{"cgo", strconv.FormatBool(a.Cgo), strconv.FormatBool(b.Cgo)},
	}
	mods := map[string]bool{}
	for m := range a.Modules {
		mods[m] = true
	}
	for m := range b.Modules {
		mods[m] = true
	}
	var names []string
	for m := range mods {
		names = append(names, m)
	}
	sort.Strings(names)
	for _, m := range names {
		rows = append(rows, [3]string{m, orNone(a.Modules[m]), orNone(b.Modules[m])})
	}
	return rows
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// JSON writes a comparison as indented JSON with its verdict.
func JSON(w io.Writer, c *gate.Comparison) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Verdict string `json:"verdict"`
		OK      bool   `json:"ok"`
		*gate.Comparison
	}{c.Verdict(), c.OK(), c})
}
