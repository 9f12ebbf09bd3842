package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
)

// The review's parts that come from the families' values (suites.Family):
// each family's own section, rendered from its blocks, and the subject of
// the review's title.

// writeFamily writes f's own section of the review, after the sections
// of the types, when f has one and rs holds rows of f: its title, its
// paragraph and its blocks.
func writeFamily(mw *render.MarkdownWriter, rs *results.File, f suites.Family, keys render.KeyOps) {
	if f.Review == nil || !suites.HasRows(rs, f.Family) {
		return
	}
	mw.Line("## " + f.Review.Title)
	mw.Line("")
	mw.Line(f.Review.Paragraph)
	mw.Line("")
	for _, b := range f.Review.Blocks(rs) {
		writeBlock(mw, rs, b, keys)
	}
}

// writeBlock writes one block of a family's section and the blank line
// after it.
func writeBlock(mw *render.MarkdownWriter, rs *results.File, b suites.ReviewBlock, keys render.KeyOps) {
	switch {
	case b.Heading != "":
		mw.Line("### " + b.Heading)
	case b.Paragraph != "":
		mw.Line(b.Paragraph)
	case b.Table != nil:
		mw.Table(render.MarkdownTable{Header: b.Table.Header, Right: b.Table.Right, Rows: b.Table.Rows})
	case b.Tradeoff != nil:
		t := b.Tradeoff
		tr, ok := results.TradeoffAcross(t.Rows, t.Type, t.OpType, t.Op)
		if !ok {
			mw.Line(t.Missing)
			break
		}
		mw.Printf("%s %s\n", t.Lead, tradeoffSentence(t.Rows, tr, keys))
		mw.Line("")
		mw.Table(tradeoffTable(tr))
	case b.TradeoffSummary != nil:
		for _, typ := range b.TradeoffSummary.Types {
			if t, ok := results.TradeoffOf(rs, typ); ok {
				mw.Printf("- **%s**: %s\n", typ, fastestLine(t, b.TradeoffSummary.Libs, keys))
			}
		}
	default: // a list, perhaps empty
		for _, s := range b.Bullets {
			mw.Printf("- %s\n", s)
		}
	}
	mw.Line("")
}

// fastestLine says, for t's key operation, the fastest form of each of
// libs and the forms no other beats on every figure.
func fastestLine(t results.Tradeoff, libs []vocab.Lib, keys render.KeyOps) string {
	j := render.KeyColumn(t, keys)
	op := render.ColumnName(t.Ops[j])
	var fastest []string
	for _, lib := range libs {
		var best *results.TradeoffRow
		for i := range t.Rows {
			r := &t.Rows[i]
			if r.Lib == lib && r.NsPerUse[j] != nil && (best == nil || *r.NsPerUse[j] < *best.NsPerUse[j]) {
				best = r
			}
		}
		if best != nil {
			fastest = append(fastest, fmt.Sprintf("%s from %s, %s per call (%s B per instance)", lib, best.Repr, units.FormatNs(*best.NsPerUse[j]), units.FormatFigure(best.BytesPerInstance)))
		}
	}
	var pareto []string
	for _, r := range t.Rows {
		if r.Pareto {
			pareto = append(pareto, string(r.Lib)+" "+string(r.Repr))
		}
	}
	s := "the fastest " + op + ": " + strings.Join(fastest, "; ")
	if len(pareto) > 0 {
		s += ". Pareto-optimal (the trade-off table above): " + strings.Join(pareto, ", ")
	}
	return s + "."
}

// reviewSubject names what the review is about: the subjects of the
// families of rs's rows (suites.Family.Subject), in family order, each
// once; the first family's when it has none (as before families).
func reviewSubject(rs *results.File, families []suites.Family) string {
	var fams []vocab.Family
	for _, r := range rs.Instances {
		fams = append(fams, r.Family())
	}
	for _, r := range rs.Throughput {
		fams = append(fams, r.Family())
	}
	for _, u := range rs.Unavailable {
		fams = append(fams, u.Family())
	}
	var names []string
	for _, f := range families {
		if n := f.Subject; slices.Contains(fams, f.Family) && n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	switch len(names) {
	case 0:
		if i := slices.IndexFunc(families, func(f suites.Family) bool { return f.Family == vocab.Families[0] }); i >= 0 {
			return families[i].Subject
		}
		return string(vocab.Families[0])
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
