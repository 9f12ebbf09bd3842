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
)

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
