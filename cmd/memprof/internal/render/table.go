package render

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/stats"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
)

// InstancesTableFit writes the instances of rs as terminal tables of the
// columns o chooses, fitted to o.Width: one table per type, one row per
// case (unavailable and failed cases included, "n/a[k]" or "error[k]"
// with the reason as footnote k; the combinations that do not apply to
// their type are counted, not shown), then the sweeps and a table of the
// allocation sites. The default columns that do not fit are left out,
// prose before figures, and named under the table.
func InstancesTableFit(w io.Writer, rs *results.File, o TableOptions) error {
	cols := instanceColumns(rs, o)
	rows, omitted := instanceRows(rs)
	for i, s := range sections(rows, func(r caseRow) string { return typeName(r.key) }) {
		g := caseGrid(cols, o.Columns != nil, s.rows, true, false)
		keepWhereKept(g)
		if n := omitted[s.name]; n > 0 {
			g.aside = notApply(n)
		}
		if i > 0 {
			if _, err := fmt.Fprintln(w); err != nil {
				return err
			}
		}
		if err := writeGrid(w, g, o.Width, o.all(), o.Style); err != nil {
			return err
		}
	}
	if err := sweepTable(w, rs, o); err != nil {
		return err
	}
	return sitesTerminal(w, rs, o)
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// sweepTable writes the sweeps fitted to o.Width, after a blank line: a
// row per case, its bytes per instance at each N, and the line bytes =
// a + b·N only where it fits the points (stats.SweepFits: within their
// resolution, an intercept not below zero); otherwise the points alone,
// a footnote saying why.
func sweepTable(w io.Writer, rs *results.File, o TableOptions) error {
	g := sweepGrid(rs)
	if len(g.rows) == 0 {
		return nil
	}
	if _, err := fmt.Fprintln(w); err != nil {
		return err
	}
	return writeGrid(w, g, o.Width, o.Wide, o.Style)
}

// sweepNs returns the N of every sweep of rs, in order.
func sweepNs(rs *results.File) []int {
	var ns []int
	for _, r := range rs.Instances {
		if r.Sweep == nil {
			continue
		}
		for _, p := range r.Sweep.Points {
			if !slices.Contains(ns, p.N) {
				ns = append(ns, p.N)
			}
		}
	}
	slices.Sort(ns)
	return ns
}

// sweepGrid is the grid of the sweeps of rs: the case's key (the values
// every row shares in the heading), B/instance at each N, then the
// fitted slope (B/instance) with its 95% interval and the intercept (B)
// where the line fits.
func sweepGrid(rs *results.File) *grid {
	var rows []caseRow
	var sweeps []*measure.Sweep
	for i := range rs.Instances {
		r := &rs.Instances[i]
		if r.Sweep != nil && r.Error == "" {
			rows = append(rows, caseRow{key: r.Key, read: func(c results.Column) results.Cell { return c.ReadInstance(r) }})
			sweeps = append(sweeps, r.Sweep)
		}
	}
	g := &grid{}
	if len(rows) == 0 {
		return g
	}
	keys, _ := keyAndFigureColumns(results.InstanceColumns(results.InTable))
	keys, heading := keyHeading(append(keys, lookupColumns("scheme", "param")...), rows)
	g.heading = []string{strings.TrimSpace("sweep: " + strings.Join(heading, " "))}
	g.aside = "B/instance at each N, and bytes = a + b·N where a line fits the points"
	for _, c := range keys {
		g.cols = append(g.cols, gridColumn(c))
	}
	ns := sweepNs(rs)
	for i, n := range ns {
		g.cols = append(g.cols, gridCol{label: "N=" + strconv.Itoa(n), right: true, kind: figureCol, keep: i == 0})
	}
	g.cols = append(g.cols,
		gridCol{label: "slope B/instance", short: "b", right: true, kind: figureCol, keep: true},
		gridCol{label: "95% CI", right: true, kind: rangeCol},
		gridCol{label: "intercept B", short: "a", right: true, kind: figureCol})
	for i, r := range rows {
		s := sweeps[i]
		var cells []gridCell
		for _, c := range keys {
			cells = append(cells, keyCell(c, r))
		}
		for _, n := range ns {
			v := "-"
			for _, p := range s.Points {
				if p.N == n {
					v = Num(p.BytesPerInstance)
				}
			}
			cells = append(cells, plain(v))
		}
		if ok, why := stats.SweepFits(s); ok {
			cells = append(cells, plain(Num(round2(s.Slope))), plain(Num(round2(s.SlopeLow))+"–"+Num(round2(s.SlopeHigh))), plain(intercept(s.Intercept)))
		} else {
			cells = append(cells, gridCell{text: "none", note: g.note("no line: " + why)}, plain("-"), plain("-"))
		}
		g.add(cells...)
	}
	return g
}

// intercept writes a fitted line's intercept: "~0" within the points'
// resolution of zero.
func intercept(a float64) string {
	if math.Abs(a) < measure.SweepPointResolution {
		return "~0"
	}
	return Num(round2(a))
}

// sitesTerminal writes the allocation sites fitted to o.Width, one table
// per type, each after a blank line: one line per site, its name
// shortened from the left ("…") where it does not fit.
func sitesTerminal(w io.Writer, rs *results.File, o TableOptions) error {
	instances := slices.Clone(rs.Instances)
	SortInstances(instances)
	for _, s := range sections(instances, func(r results.Row) string { return typeName(r.Key) }) {
		g := sitesGrid(s.rows)
		if len(g.rows) == 0 {
			continue
		}
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
		if err := writeGrid(w, g, o.Width, o.Wide, o.Style); err != nil {
			return err
		}
	}
	return nil
}

// sitesGrid is the grid of the allocation sites of the cases:
// the case's key (the values every site shares in the heading), the
// site, its bytes and objects per instance and its slot sizes.
func sitesGrid(cases []results.Row) *grid {
	var rows []caseRow
	var sites []measure.Site
	for i := range cases {
		r := normalized(cases[i])
		for _, s := range r.Sites {
			rows = append(rows, caseRow{key: r.Key, read: func(c results.Column) results.Cell { return c.ReadInstance(r) }})
			sites = append(sites, s)
		}
	}
	g := &grid{}
	keys, _ := keyAndFigureColumns(results.InstanceColumns(results.InTable))
	keys, heading := keyHeading(append(keys, lookupColumns("scheme", "param")...), rows)
	g.heading = []string{strings.TrimSpace("allocation sites: " + strings.Join(heading, " "))}
	for _, c := range keys {
		g.cols = append(g.cols, gridColumn(c))
	}
	g.cols = append(g.cols,
		gridCol{label: "allocation site", kind: proseCol, keep: true, shorten: true, fromLeft: true},
		gridCol{label: "B/instance", short: "B/inst", right: true, kind: figureCol, keep: true},
		gridCol{label: "allocs/instance", short: "allocs", right: true, kind: figureCol},
		gridCol{label: "slot sizes", short: "slots", right: true, kind: figureCol})
	for i, r := range rows {
		var cells []gridCell
		for _, c := range keys {
			cells = append(cells, keyCell(c, r))
		}
		s := sites[i]
		var slots []string
		for _, b := range s.SlotSizes {
			slots = append(slots, strconv.FormatInt(b, 10))
		}
		cells = append(cells, plain(siteName(s)), plain(Num(s.BytesPerInstance)), plain(Num(s.AllocsPerInstance)), plain(strings.Join(slots, ",")))
		g.add(cells...)
	}
	return g
}

// siteName names a site in one token as pprof's tables do: its function
// without the package path's directories (go.(*P2Affine).Compress for
// blst's bindings/go), generic type arguments as "[...]", and its line.
func siteName(s measure.Site) string {
	site := trimPackageDirs(ShortFunction(s.Function))
	if s.Line > 0 {
		site += ":" + strconv.FormatInt(s.Line, 10)
	}
	return strings.ReplaceAll(site, " ", "")
}

// trimPackageDirs drops the directories of a Go function's package path
// (github.com/supranational/blst/bindings/go.(*P2Affine).Compress becomes
// go.(*P2Affine).Compress); other names are returned as they are.
func trimPackageDirs(fn string) string {
	if !results.GoFunction(fn) {
		return fn
	}
	end := strings.IndexAny(fn, "([")
	if end < 0 {
		end = len(fn)
	}
	if i := strings.LastIndexByte(fn[:end], '/'); i >= 0 {
		return fn[i+1:]
	}
	return fn
}

// NewTable returns a terminal table that keeps header names as written.
func NewTable(w io.Writer) *tablewriter.Table {
	return tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off))
}

// ShortFunction shortens a function name for display: generic type
// arguments (which the runtime spells out in full) become "[...]".
func ShortFunction(fn string) string {
	if !results.GoFunction(fn) {
		return fn // a name memprof gave the site, whose brackets are a type's
	}
	var b strings.Builder
	depth := 0
	for _, r := range fn {
		switch {
		case r == '[':
			if depth == 0 {
				b.WriteString("[...]")
			}
			depth++
		case r == ']':
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// NTooSmall is what a table shows for a figure whose resolution is larger
// than the instance it is about (results.Unresolved).
const NTooSmall = results.NTooSmall
