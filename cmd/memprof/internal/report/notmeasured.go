package report

import (
	"sort"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/results"
)

// notMeasured lists failed cases and unavailable combinations.
func notMeasured(rs *results.File) render.MarkdownTable {
	t := render.MarkdownTable{Header: []string{"type", "lib", "repr", "layout", "op", "why"}}
	type missing struct {
		k   results.Key
		why string
	}
	var rows []missing
	for _, r := range rs.Instances {
		if r.Error != "" {
			rows = append(rows, missing{r.Key, "failed: " + firstLine(r.Error)})
		}
	}
	for _, r := range rs.Throughput {
		if r.Error != "" {
			rows = append(rows, missing{r.Key, "failed: " + firstLine(r.Error)})
		}
	}
	for _, u := range rs.Unavailable {
		rows = append(rows, missing{u.Key, u.Reason})
	}
	sort.SliceStable(rows, func(i, j int) bool { return results.Less(rows[i].k, rows[j].k) })
	for _, r := range rows {
		t.Rows = append(t.Rows, []string{string(r.k.Type), string(r.k.Lib), string(r.k.Repr), dash(string(r.k.Layout)), dash(string(r.k.Op)), r.why})
	}
	return t
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	return s
}

// writeNotMeasured writes the section of the cases not measured, when rs
// has any (notMeasured).
func writeNotMeasured(mw *render.MarkdownWriter, rs *results.File) {
	if unmeasured := notMeasured(rs); len(unmeasured.Rows) > 0 {
		mw.Line("## Not measured")
		mw.Line("")
		mw.Line("Combinations that were asked for but that a library does not offer, or that this build cannot run, and cases that failed:")
		mw.Line("")
		mw.Table(unmeasured)
		mw.Line("")
	}
}
