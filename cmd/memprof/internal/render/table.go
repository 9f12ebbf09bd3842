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

// InstancesTable writes the instances of rs as a terminal table, one row
// per case (unavailable and failed cases included, with the reason; the
// combinations that do not apply to their type are counted, not shown),
// then the sweeps and a table of the allocation sites.
func InstancesTable(w io.Writer, rs *model.Results) error {
	t, omitted := instanceTable(rs, model.InTable, true)
	if err := writeTerminal(w, t, true); err != nil {
		return err
	}
	if omitted > 0 {
		fmt.Fprintf(w, "%d combinations that do not apply to their type (a scalar Signature, an affine SecretKey, ...) are not shown; 'memprof list' shows every combination.\n", omitted)
	}
	if err := SweepTable(w, rs); err != nil {
		return err
	}
	return SitesTable(w, rs)
}

// SweepTable writes the sweeps of the cases that have one: bytes per
// instance at each N and the fitted slope with its 95% interval and R².
func SweepTable(w io.Writer, rs *model.Results) error {
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
	return writeTerminalSection(w, t)
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// SitesTable writes the allocation sites of every measured case.
func SitesTable(w io.Writer, rs *model.Results) error {
	return writeTerminalSection(w, sitesTable(rs, false))
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
