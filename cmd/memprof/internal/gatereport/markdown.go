package gatereport

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/memprof/memprof/gate"
	"github.com/memprof/memprof/measure"
)

// MarkdownOptions are what a pull-request comment adds to a comparison.
type MarkdownOptions struct {
	// BaseURL, when set, links the base run (the CI run that measured the
	// base results).
	BaseURL string
}

// runsLine writes the line on the runs compared: a link to the base run
// and where and when each side was measured, as far as the results say.
func runsLine(b *strings.Builder, c *gate.Comparison, opts MarkdownOptions) {
	base := provenance(c.BaseEnv)
	if opts.BaseURL != "" {
		base = append([]string{"[run](" + opts.BaseURL + ")"}, base...)
	}
	head := provenance(c.HeadEnv)
	if len(base) == 0 && len(head) == 0 {
		return
	}
	var parts []string
	if len(base) > 0 {
		parts = append(parts, "**Base**: "+strings.Join(base, ", "))
	}
	if len(head) > 0 {
		parts = append(parts, "**head**: "+strings.Join(head, ", "))
	}
	fmt.Fprintf(b, "%s.\n\n", strings.Join(parts, "; "))
}

// provenance says where and when env was measured: its commit, its time
// and its machine, those it records.
func provenance(env measure.Env) []string {
	var out []string
	if env.Commit != "" {
		c := env.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		out = append(out, "commit `"+c+"`")
	}
	if t, ok := env.Measured(); ok {
		out = append(out, "measured "+t.UTC().Format("2006-01-02 15:04 UTC"))
	}
	if env.Machine != "" {
		out = append(out, "on `"+mdCell(env.Machine)+"`")
	}
	return out
}

// warnings writes one GitHub warning block holding every warning.
func warnings(b *strings.Builder, ws []string) {
	if len(ws) == 0 {
		return
	}
	b.WriteString("> [!WARNING]\n")
	for _, w := range ws {
		b.WriteString("> " + capitalize(w) + ".\n")
	}
	b.WriteString("\n")
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// CheckMarkdown writes a budget check for a pull-request comment: the
// verdict first (Summary), where the results were measured (env), the
// outcomes that did not pass (each with the measurement, the budget and
// the change against it in units and percent, and the budget's file:line,
// owner and reason), every outcome in a <details> block, and the
// waivers with their end (Report.Now judges them).
func CheckMarkdown(w io.Writer, rep *gate.Report, env measure.Env) error {
	var b strings.Builder
	icon := "✅"
	if !rep.OK() {
		icon = "❌"
	}
	fmt.Fprintf(&b, "### %s %s\n\n", icon, Summary(rep))
	if p := provenance(env); len(p) > 0 {
		fmt.Fprintf(&b, "Results: %s.\n\n", strings.Join(p, ", "))
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(&b, "- **invalid budget**: %s\n", mdCell(p.Error()))
	}
	if len(rep.Problems) > 0 {
		b.WriteString("\n")
	}
	outs := slices.Clone(rep.Outcomes)
	sort.SliceStable(outs, func(i, j int) bool { return outs[i].Status > outs[j].Status })
	header := "| case | metric | measured | budget | change | verdict | budget at |\n|---|---|--:|--:|--:|---|---|\n"
	var notPassing []gate.Outcome
	for _, o := range outs {
		if o.Status != gate.Pass {
			notPassing = append(notPassing, o)
		}
	}
	if len(notPassing) > 0 {
		b.WriteString(header)
		for _, o := range notPassing {
			checkRow(&b, rep, o)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "<details><summary>All %d outcomes</summary>\n\n", len(outs))
	if len(outs) > 0 {
		b.WriteString(header)
		for _, o := range outs {
			checkRow(&b, rep, o)
		}
	} else {
		b.WriteString("No budget was checked.\n")
	}
	b.WriteString("\n</details>\n")
	writeWaivers(&b, rep)
	_, err := io.WriteString(w, b.String())
	return err
}

// checkRow writes one outcome as a row.
func checkRow(b *strings.Builder, rep *gate.Report, o gate.Outcome) {
	m := o.Limit.Metric
	measured, change := m.Format(o.Measured), "-"
	switch o.Status {
	case gate.Error, gate.Skip:
		measured = "-"
	default:
		by, frac := o.Over()
		change = signed(m, by) + " (" + signedPct(frac) + ")"
		if by == 0 {
			change = "0"
		}
	}
	verdict := o.Status.String()
	if o.Expired {
		verdict += " (expired)"
	}
	if o.Detail != "" {
		verdict += " — " + o.Detail
	}
	at := fmt.Sprintf("`%s:%d`", rep.File.Path, o.Limit.Line)
	if o.Budget.Owner != "" {
		at += " owner " + o.Budget.Owner
	}
	if o.Budget.Reason != "" && o.Status != gate.Pass {
		at += ": " + o.Budget.Reason
	}
	fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s |\n", mdCell(o.Case), m, measured, m.Format(o.Limit.Value), change, mdCell(verdict), mdCell(at))
}

// writeWaivers lists the budgets that end (expires), each with its
// select, its end and how long is left, once.
func writeWaivers(b *strings.Builder, rep *gate.Report) {
	var lines []string
	for _, bu := range rep.File.Budgets {
		if !bu.HasExpiry() {
			continue
		}
		line := fmt.Sprintf("- `%s:%d` select %s: %s", rep.File.Path, bu.ExpiresLine, mdCell(bu.Select.String()), mdCell(bu.ExpiryText(rep.Now)))
		if left := bu.ExpiresAt().Sub(rep.Now); left > 0 {
			line += ", " + gate.Age(left.Round(time.Minute)) + " left"
		}
		lines = append(lines, line)
	}
	if len(lines) == 0 {
		return
	}
	b.WriteString("\n**Waivers** (budgets that end)\n\n")
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
}
