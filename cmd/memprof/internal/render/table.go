package render

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/memprof/memprof/model"
)

// InstancesTable writes the instances of rs as a terminal table with every
// column and no width limit: InstancesTableFit with Wide.
func InstancesTable(w io.Writer, rs *model.Results) error {
	return InstancesTableFit(w, rs, TableOptions{Wide: true})
}

// InstancesTableFit writes the instances of rs as a terminal table of the
// columns o chooses, fitted to o.Width, one row per case (unavailable and
// failed cases included, with the reason; the combinations that do not
// apply to their type are counted, not shown), then the sweeps and a
// table of the allocation sites. The default columns that do not fit are
// left out, from the right, and named under the table.
func InstancesTableFit(w io.Writer, rs *model.Results, o TableOptions) error {
	cols := o.columns(model.InstanceColumns)
	t, omitted := instanceTable(rs, cols, model.InTable, true)
	if err := writeFitted(w, fit(t, o.Width, []int{len(cols)}, o.droppable(cols)), o.Width); err != nil {
		return err
	}
	if omitted > 0 {
		fmt.Fprintln(w, Wrap(notShown(omitted), o.Width, ""))
	}
	if err := sweepTable(w, rs, o); err != nil {
		return err
	}
	return sitesTerminal(w, rs, o)
}

// SweepTable writes the sweeps of the cases that have one: bytes per
// instance at each N and the fitted slope with its 95% interval and R².
func SweepTable(w io.Writer, rs *model.Results) error { return sweepTable(w, rs, TableOptions{}) }

// sweepTable writes the sweeps fitted to o.Width: the points wrap, and
// by default the intercept and R² are left out where they do not fit.
func sweepTable(w io.Writer, rs *model.Results, o TableOptions) error {
	t := MarkdownTable{Header: []string{"case", "B/instance at N", "slope B/instance (95% CI)", "intercept B", "R²"}}
	for _, r := range rs.Instances {
		s := r.Sweep
		if s == nil {
			continue
		}
		var at []string
		for _, p := range s.Points {
			at = append(at, fmt.Sprintf("%s@%d", Num(p.BytesPerInstance), p.N))
		}
		ci := fmt.Sprintf("%s [%s, %s]", Num(round2(s.Slope)), Num(round2(s.SlopeLow)), Num(round2(s.SlopeHigh)))
		t.Rows = append(t.Rows, []string{r.Key.String(), strings.Join(at, " "), ci, Num(round2(s.Intercept)), model.FormatFixed(s.R2, 6)})
	}
	return writeTerminalSection(w, fit(t, o.Width, []int{1}, o.optional(3, 4)), o.Width)
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// SitesTable writes the allocation sites of every measured case.
func SitesTable(w io.Writer, rs *model.Results) error { return sitesTerminal(w, rs, TableOptions{}) }

// sitesTerminal writes the sites fitted to o.Width: the site wraps, and
// by default the figures after the bytes that do not fit are left out
// from the right.
func sitesTerminal(w io.Writer, rs *model.Results, o TableOptions) error {
	return writeTerminalSection(w, fit(sitesTable(rs, false), o.Width, []int{1}, o.optional(3, 4)), o.Width)
}

// NewTable returns a terminal table that keeps header names as written.
func NewTable(w io.Writer) *tablewriter.Table {
	return tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off))
}

// ShortFunction shortens a function name for display: generic type
// arguments (which the runtime spells out in full) become "[...]".
func ShortFunction(fn string) string {
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
// than the instance it is about (model.Unresolved).
const NTooSmall = model.NTooSmall

// notShown says how many combinations that do not apply to their type a
// table left out.
func notShown(n int) string {
	if n == 1 {
		return "1 combination that does not apply to its type (a scalar Signature, an affine SecretKey, ...) is not shown; 'memprof list' shows every combination."
	}
	return fmt.Sprintf("%d combinations that do not apply to their type (a scalar Signature, an affine SecretKey, ...) are not shown; 'memprof list' shows every combination.", n)
}
