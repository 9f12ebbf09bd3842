package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
	"gonum.org/v1/gonum/stat"
)

// renderRun renders a run as Markdown: the machine and the load, then a
// table per step, a row per target. withCommits names each target's
// commit (for the notes and the terminal; the documentation names none)
// and adds a column of them when there are several.
func renderRun(run runInfo, withCommits bool) string {
	var b strings.Builder
	revCol := withCommits && len(run.targets) > 1
	if withCommits {
		for _, t := range run.targets {
			dirty := ""
			if t.dirty {
				dirty = ", with uncommitted changes"
			}
			fmt.Fprintf(&b, "- `%s`: %s %s (%s%s)\n", t.rev, t.commit, t.subject, t.goVersion, dirty)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Machine: %s, %s.\n", run.machine, goVersions(run.targets))
	fmt.Fprintf(&b, "Load average (1, 5, 15 minutes): %s at the start, %s at the end.\n\n", run.loadStart, run.loadEnd)
	fmt.Fprintf(&b, "One case, `%s`, %s: wall time, and CPU time of the whole process tree; ratios to the floor (`BenchmarkFloor`) at its N, "+
		"the engine's (`BenchmarkMeasure`, no CLI) the benchmark's own.\n\n", run.caseKey, mediansOf(run.runs))
	b.WriteString(caseTable(run.targets, run.ns, revCol))
	if fit := fitTable(run.targets, run.ns, revCol); fit != "" {
		fmt.Fprintf(&b, "\nFit of a fixed cost plus a cost per instance over N = %s (least squares on the medians):\n\n%s", joinNs(run.ns), fit)
	}
	if all := typeAllTable(run.targets, revCol); all != "" {
		fmt.Fprintf(&b, "\n`memprof instances --type all` (memprof's default N and --jobs), once:\n\n%s", all)
	}
	if gt := goTestTable(run.targets, revCol); gt != "" {
		fmt.Fprintf(&b, "\n`go test -count=1 ./...` with a warm build cache, once:\n\n%s", gt)
	}
	return b.String()
}

// mediansOf says what a figure of runs runs is.
func mediansOf(runs int) string {
	if runs == 1 {
		return "one run"
	}
	return fmt.Sprintf("medians of %d runs", runs)
}

// goVersions names the Go versions that built the targets.
func goVersions(targets []*target) string {
	var vs []string
	for _, t := range targets {
		if !slices.Contains(vs, t.goVersion) {
			vs = append(vs, t.goVersion)
		}
	}
	return strings.Join(vs, " and ")
}

// floor is a target's floor: N, median wall time, median CPU time net of
// the test binary's own; ok is false when the commit measured none.
func (t *target) floor() (n int, wall, cpu time.Duration, ok bool) {
	fs := t.res.floors
	if len(fs) == 0 {
		return 0, 0, 0, false
	}
	var walls, cpus []time.Duration
	for _, f := range fs {
		walls, cpus = append(walls, f.wall), append(cpus, f.treeCPU)
	}
	return fs[0].n, median(walls), median(cpus) - median(t.res.baselineCPU), true
}

// caseTable is the floor, the engine and the one case at each N.
func caseTable(targets []*target, ns []int, revCol bool) string {
	tb := newTable(revCol, "measured", "N", "wall (s)", "CPU (s)", "wall / floor", "CPU / floor")
	for _, t := range targets {
		fn, fwall, fcpu, ok := t.floor()
		if ok {
			tb.row(t, "floor (BenchmarkFloor)", count(fn), seconds(fwall), seconds(fcpu), "1", "1")
		} else {
			tb.row(t, "floor (BenchmarkFloor)", "n/a", "n/a", "n/a", "n/a", "n/a")
		}
		if m := t.res.measure; m != nil {
			tb.row(t, "engine (BenchmarkMeasure)", count(m.n), fmt.Sprintf("%.3f", m.metrics["ms/case"]/1000), "-", fmt.Sprintf("%.1f", m.metrics["x-floor"]), "-")
		}
		for _, n := range ns {
			ts := t.res.cli[n]
			wall, cpu := median(walls(ts)), median(cpus(ts))
			wr, cr := "-", "-"
			if ok && n == fn {
				wr, cr = ratio(wall, fwall), ratio(cpu, fcpu)
			}
			tb.row(t, "memprof instances", count(n), seconds(wall), seconds(cpu), wr, cr)
		}
	}
	return tb.render()
}

// fitTable is the fixed cost and the cost per instance of the one case,
// fitted over ns; "" when ns has fewer than two distinct N.
func fitTable(targets []*target, ns []int, revCol bool) string {
	distinct := slices.Compact(slices.Sorted(slices.Values(ns)))
	if len(distinct) < 2 {
		return ""
	}
	tb := newTable(revCol, "fixed wall (s)", "wall per instance (µs)", "fixed CPU (s)", "CPU per instance (µs)")
	for _, t := range targets {
		var xs, ws, cs []float64
		for _, n := range distinct {
			xs = append(xs, float64(n))
			ws = append(ws, median(walls(t.res.cli[n])).Seconds())
			cs = append(cs, median(cpus(t.res.cli[n])).Seconds())
		}
		wFixed, wPer := stat.LinearRegression(xs, ws, nil, false)
		cFixed, cPer := stat.LinearRegression(xs, cs, nil, false)
		tb.row(t, fmt.Sprintf("%.3f", wFixed), fmt.Sprintf("%.2f", wPer*1e6), fmt.Sprintf("%.3f", cFixed), fmt.Sprintf("%.2f", cPer*1e6))
	}
	return tb.render()
}

// typeAllTable is --type all per case, against the floor; "" if not
// measured.
func typeAllTable(targets []*target, revCol bool) string {
	tb := newTable(revCol, "cases", "failed", "exit", "wall (s)", "CPU (s)", "wall per case (s)", "CPU per case (s)", "wall per case / floor", "CPU per case / floor")
	for _, t := range targets {
		a := t.res.all
		if a == nil {
			continue
		}
		wallPer, cpuPer := a.wall/time.Duration(max(a.cases, 1)), a.cpu/time.Duration(max(a.cases, 1))
		wr, cr := "n/a", "n/a"
		if _, fwall, fcpu, ok := t.floor(); ok {
			wr, cr = ratio(wallPer, fwall), ratio(cpuPer, fcpu)
		}
		tb.row(t, strconv.Itoa(a.cases), strconv.Itoa(a.failed), strconv.Itoa(a.exit), seconds(a.wall), seconds(a.cpu), seconds(wallPer), seconds(cpuPer), wr, cr)
	}
	return tb.render()
}

// goTestTable is go test ./...; "" if not measured.
func goTestTable(targets []*target, revCol bool) string {
	tb := newTable(revCol, "result", "wall (s)", "CPU (s)")
	for _, t := range targets {
		g := t.res.goTest
		if g == nil {
			continue
		}
		result := "ok"
		if g.exit != 0 {
			result = fmt.Sprintf("FAIL (exit %d)", g.exit)
		}
		tb.row(t, result, seconds(g.wall), seconds(g.cpu))
	}
	return tb.render()
}

// table is a Markdown table being built, with a first column naming
// the target when there are several.
type table struct {
	revCol bool
	header []string
	rows   [][]string
}

func newTable(revCol bool, header ...string) *table {
	if revCol {
		header = append([]string{"commit"}, header...)
	}
	return &table{revCol: revCol, header: header}
}

func (tb *table) row(t *target, cells ...string) {
	if tb.revCol {
		cells = append([]string{t.label()}, cells...)
	}
	tb.rows = append(tb.rows, cells)
}

// render returns the table as Markdown, numbers right-aligned; "" when it
// has no rows.
func (tb *table) render() string {
	if len(tb.rows) == 0 {
		return ""
	}
	var b strings.Builder
	align := make(tw.Alignment, len(tb.header))
	for i := range align {
		align[i] = tw.AlignRight
	}
	first := 0
	if tb.revCol {
		align[0], first = tw.AlignLeft, 1
	}
	if tb.header[first] == "measured" || tb.header[first] == "result" {
		align[first] = tw.AlignLeft
	}
	t := tablewriter.NewTable(&b,
		tablewriter.WithRenderer(renderer.NewMarkdown()),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: align}),
		tablewriter.WithHeaderAlignmentConfig(tw.CellAlignment{PerColumn: align}),
	)
	t.Header(tb.header)
	for _, r := range tb.rows {
		if err := t.Append(r); err != nil {
			return fmt.Sprintf("(table: %v)\n", err)
		}
	}
	if err := t.Render(); err != nil {
		return fmt.Sprintf("(table: %v)\n", err)
	}
	return b.String()
}

func walls(ts []timing) []time.Duration {
	var ds []time.Duration
	for _, t := range ts {
		ds = append(ds, t.wall)
	}
	return ds
}

func cpus(ts []timing) []time.Duration {
	var ds []time.Duration
	for _, t := range ts {
		ds = append(ds, t.cpu)
	}
	return ds
}

// median is the median of ds (the mean of the middle two of an even
// count), 0 for none.
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(ds))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// ratio is a/b to one decimal, n/a when b is not positive.
func ratio(a, b time.Duration) string {
	if b <= 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f", float64(a)/float64(b))
}

// count writes n with thousands separators: 100,000.
func count(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func joinNs(ns []int) string {
	var s []string
	for _, n := range ns {
		s = append(s, count(n))
	}
	return strings.Join(s, ", ")
}
