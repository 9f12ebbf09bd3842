package report

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
)

// methodScaled says how the summary scales the engine's per-instance
// figures, after the method's section of that title.
var methodScaled = map[string]string{
	memprof.MethodBytes: "**Memory at 1M instances** is bytes per instance × 10⁶, in MB of 10⁶ bytes: the Go heap the instances keep alive, without the slice or map that holds them (a pointer layout adds 8 B per instance there).",
	memprof.MethodGC:    "**GC scan MB at 1M instances** and **GC CPU ms per cycle at 1M instances** are the per-instance figures × 10⁶; ~0 is a figure within its resolution (in results.json). Stacks, globals and other goroutines' garbage are not in them; see docs/gc.md.",
}

// perMillion writes the figure of column col for r, per instance, times
// 10⁶ with one decimal (bytes as MB, nanoseconds as ms), or what the
// column's state says instead: ~0 within its resolution, n/a when not
// measured.
func perMillion(col string, r results.Row) string {
	c, err := results.LookupColumn(col)
	if err != nil {
		return "n/a"
	}
	cell := c.ReadInstance(&r)
	if cell.State != results.Exact {
		return c.Format(cell)
	}
	return mb(cell.Value)
}

// seriesLabel is the series of r as the summary names it, with its
// parameter (an LRU's population) when it has one.
func seriesLabel(r results.Row) string {
	if r.Param != "" {
		return render.SeriesOf(r).Label() + " " + string(r.Param)
	}
	return render.SeriesOf(r).Label()
}

func writeReadme(ctx context.Context, w io.Writer, rs *results.File, opts Options, ch charts, files []string) error {
	mw := render.NewMarkdownWriter(w)
	// stopped reports whether to end the README here: ctx is done (an
	// interrupt) or a write was refused. It is asked between sections
	// and between the types of a section, so that an interrupt ends the
	// README within one type's work, not after rendering all of them.
	stopped := func() bool { return ctx.Err() != nil || mw.Err() != nil }
	stopErr := func() error {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return mw.Err()
	}
	types := render.TypesMeasured(rs)

	reg := opts.registry()
	mw.Printf("# %s representations: memory and speed\n", reviewSubject(rs, reg.Families()))
	mw.Line("")
	src := "a fresh run"
	if opts.Source != "" {
		src = "`" + opts.Source + "`"
	}
	ms := indexMachines(opts.Machines)
	times := newOpTimes(rs)
	if ms.several() {
		mw.Printf("Written by `memprof report` from %s (%s).\n", ms.sources(), rs.Schema)
	} else {
		mw.Printf("Written by `memprof report` from %s (%s). %s\n", src, rs.Schema, envLine(rs.Env))
	}
	mw.Line("")

	mw.Line("## Summary")
	mw.Line("")
	if len(types) == 0 {
		mw.Line("No case was measured: see the failures and the cases not offered below.")
		mw.Line("")
	} else {
		mw.Line("### Cheapest representation per type")
		mw.Line("")
		t := render.MarkdownTable{Header: []string{"type", "cheapest", "B/instance", "MB at 1M instances"}, Right: []bool{false, false, true, true}}
		for _, typ := range types {
			if stopped() {
				return stopErr()
			}
			c := cheapest(rs, vocab.Type(string(typ)))
			t.Rows = append(t.Rows, []string{string(typ), seriesNames(c), units.FormatFigure(c[0].BytesPerInstance), mb(c[0].BytesPerInstance)})
		}
		mw.Table(t)
		mw.Line("")

		mw.Line("### Memory at 1M instances")
		mw.Line("")
		t = render.MarkdownTable{Header: []string{"type", "representation", "B/instance", "MB at 1M instances", "vs cheapest", "GC scan MB at 1M instances", "GC CPU ms per cycle at 1M instances"},
			Right: []bool{false, false, true, true, true, true, true}}
		for _, typ := range types {
			if stopped() {
				return stopErr()
			}
			low := cheapest(rs, vocab.Type(string(typ)))[0].BytesPerInstance
			for _, r := range measured(rs, vocab.Type(string(typ))) {
				t.Rows = append(t.Rows, []string{string(typ), seriesLabel(r), units.FormatFigure(r.BytesPerInstance), mb(r.BytesPerInstance), plusMB(r.BytesPerInstance - low),
					perMillion("scan_bytes_per_instance", r), perMillion("gc_cpu_ns_per_instance", r)})
			}
		}
		mw.Table(t)
		mw.Line("")

		if stopped() {
			return stopErr()
		}
		writeTradeoffs(mw, rs, types)
	}

	ms.write(mw)

	if ch.bytes != "" {
		mw.Line("## Charts")
		mw.Line("")
		mw.Printf("![Bytes per instance by type, library and representation](%s)\n", ch.bytes)
		mw.Line("")
		if ch.gc != "" {
			mw.Printf("![Bytes per instance against the GC's CPU time per instance per cycle: the pointer-free forms sit near 0](%s)\n", ch.gc)
			mw.Line("")
		}
	}

	for _, typ := range types {
		if stopped() {
			return stopErr()
		}
		writeType(mw, rs, times, vocab.Type(string(typ)), ch, ms)
	}
	for _, f := range reg.Families() {
		if stopped() {
			return stopErr()
		}
		writeFamily(mw, rs, f)
	}

	if unmeasured := notMeasured(rs); len(unmeasured.Rows) > 0 {
		mw.Line("## Not measured")
		mw.Line("")
		mw.Line("Combinations that were asked for but that a library does not offer, or that this build cannot run, and cases that failed:")
		mw.Line("")
		mw.Table(unmeasured)
		mw.Line("")
	}

	if stopped() {
		return stopErr()
	}
	mw.Line("## Allocation sites")
	mw.Line("")
	mw.Line("Where each instance's bytes are allocated, per instance:")
	mw.Line("")
	render.SitesMarkdownTable(mw, rs)
	mw.Line("")

	mw.Line("## Environment")
	mw.Line("")
	if ms.several() {
		ms.writeEnvs(mw)
	} else {
		writeEnv(mw, rs.Env)
		mw.Line("")
	}

	mw.Line("## Method")
	mw.Line("")
	for _, sec := range memprof.Method() {
		for i, p := range sec.Paragraphs {
			if i == 0 {
				p = "**" + sec.Title + ".** " + p
			}
			mw.Line(p)
			mw.Line("")
		}
		if m, ok := methodScaled[sec.Title]; ok {
			mw.Line(m)
			mw.Line("")
		}
	}
	mw.Printf("N per case: %s.\n", nSummary(rs))
	mw.Line("")
	if rs.Method != "" && rs.Method != memprof.MethodText() {
		mw.Line("The results were measured by a memprof whose method text differs from the above: results.json records it (`method`).")
		mw.Line("")
	}
	if len(rs.Throughput) == 0 {
		mw.Line("**Throughput.** This results file has no throughput rows, so the tables show bytes per instance only and there are no trade-off charts.")
		mw.Line("")
	}
	if a := rs.Agreement; a != nil && len(a.Families) == 0 {
		checks := "byte-identical keys and signatures, each verifying the others'"
		if fams := render.LegacyFamilies(a.Libs); len(fams) > 1 || len(fams) == 1 && fams[0] != vocab.Families[0] {
			checks = render.AgreementChecks(a, reg.CheckTexts()) // not the first family's alone
		}
		writeAgreement(mw, "", a.Libs, a.OK, a.Cases, checks)
	} else if a != nil {
		for _, f := range a.Families {
			writeAgreement(mw, f.Family, f.Libs, f.OK, f.Cases, render.CheckTexts(reg.CheckTexts()).Of(f.Family))
		}
	}
	for _, n := range opts.Notes {
		mw.Printf("**Note.** %s\n", strings.TrimSpace(n))
		mw.Line("")
	}

	mw.Line("## Files")
	mw.Line("")
	for _, f := range files {
		mw.Printf("- [`%s`](%s): %s\n", f, f, describeFile(f))
	}
	return mw.Err()
}

// writeAgreement writes the paragraph of one agreement check, of family
// when it is not "" (a record of several families).
func writeAgreement(mw *render.MarkdownWriter, family vocab.Family, libs []vocab.Lib, ok bool, cases int, checks string) {
	state := "agreed"
	if !ok {
		state = "did NOT agree"
	}
	title := "Agreement"
	if family != "" {
		title += " (" + string(family) + ")"
	}
	mw.Printf("**%s.** Before timing, %s %s on %d deterministic cases (%s).\n", title, vocab.Join(libs), state, cases, checks)
	mw.Line("")
}

// writeType writes the section of one type: bytes per instance beside the
// median time of each timed operation (the first maxOpColumns of them),
// the constructors, the trade-off chart and the throughput detail.
func writeType(mw *render.MarkdownWriter, rs *results.File, times *opTimes, typ vocab.Type, ch charts, ms machines) {
	mw.Printf("## %s\n", typ)
	mw.Line("")
	ops := timedOps(rs, typ)
	more := len(ops) - maxOpColumns
	if more > 0 {
		ops = ops[:maxOpColumns]
	}
	t := render.MarkdownTable{
		Header: []string{"lib", "repr", "layout", "B/instance", "allocs/instance", "slot B", "MB at 1M"},
		Right:  []bool{false, false, false, true, true, true, true},
	}
	for _, op := range ops {
		t.Header = append(t.Header, op.String()+" time/op")
		t.Right = append(t.Right, true)
	}
	rows := measured(rs, typ)
	for _, r := range rows {
		cells := []string{string(r.Lib), strings.TrimSpace(string(r.Repr) + " " + string(r.Param)), string(r.Layout), units.FormatFigure(r.BytesPerInstance), units.FormatFigure(r.AllocsPerInstance), units.FormatFigure(r.SlotBytes), mb(r.BytesPerInstance)}
		for _, op := range ops {
			cells = append(cells, times.cell(typ, r.Lib, r.Repr, op))
		}
		t.Rows = append(t.Rows, cells)
		t.Rows = append(t.Rows, ms.variantRows(r, ops, typ)...)
	}
	// Timed representations whose instances were not measured keep a row.
	shown := map[[2]string]bool{}
	for _, c := range t.Rows {
		shown[[2]string{c[0], c[1]}] = true
	}
	for _, tr := range render.SortedThroughput(rs.Throughput) {
		if k := [2]string{string(tr.Lib), string(tr.Repr)}; tr.Type != typ || shown[k] {
			continue
		} else {
			shown[k] = true
		}
		cells := []string{string(tr.Lib), string(tr.Repr), "-", "-", "-", "-", "-"}
		for _, op := range ops {
			cells = append(cells, times.cell(typ, tr.Lib, tr.Repr, op))
		}
		t.Rows = append(t.Rows, cells)
	}
	ms.tagColumn(&t)
	mw.Table(t)
	mw.Line("")
	if len(ops) > 0 {
		mw.Line("Times are medians per operation (wall clock); the quartiles, CPU time and allocations are in the throughput table below.")
		mw.Line("")
	}
	if more > 0 {
		mw.Printf("_%d more operations of %s were timed than this table has columns for (%d): they are in the throughput table below._\n", more, typ, maxOpColumns)
		mw.Line("")
	}
	mw.Line("How each instance was made:")
	mw.Line("")
	for _, r := range rows {
		c := r.Constructor
		if c == "" {
			c = "not recorded"
		} else {
			c = "`" + c + "`"
		}
		mw.Printf("- %s: %s (N = %d)\n", render.SeriesOf(r).Label(), c, r.N)
	}
	mw.Line("")
	drawn := false
	for _, p := range results.InstanceParams(rs, vocab.Type(typ)) {
		if f, ok := ch.tradeoff[tradeoffKey(vocab.Type(typ), p)]; ok {
			name := string(typ)
			if p != "" {
				name += " (" + string(p) + ")"
			}
			mw.Printf("![%s: bytes per instance against the time of each use, one panel per operation](%s)\n", name, f)
			mw.Line("")
			drawn = true
		}
	}
	if !drawn {
		mw.Printf("_No trade-off chart for %s: %s._\n", typ, noTradeoffReason(rs, typ))
		mw.Line("")
	}
	if len(ops) > 0 {
		mw.Printf("### %s throughput\n", typ)
		mw.Line("")
		render.ThroughputMarkdownTable(mw, rs, vocab.Type(typ))
		mw.Line("")
	}
}

func noTradeoffReason(rs *results.File, typ vocab.Type) string {
	if len(rs.Throughput) == 0 {
		return "no throughput was measured"
	}
	if _, ok := render.KeyOpOf(rs, vocab.Type(typ)); !ok {
		return "no operation of this type was timed"
	}
	return "no operation was timed from two of its measured representations"
}

// measured returns the measured instances of typ, smallest first (ties in
// memprof's order).
func measured(rs *results.File, typ vocab.Type) []results.Row {
	var out []results.Row
	for _, r := range rs.Instances {
		if r.Type == typ && r.Error == "" {
			out = append(out, r)
		}
	}
	render.SortInstances(out)
	sort.SliceStable(out, func(i, j int) bool { return out[i].BytesPerInstance < out[j].BytesPerInstance })
	return out
}

// cheapest returns the measured instances of typ with the fewest bytes per
// instance (several when they tie). typ must have one.
func cheapest(rs *results.File, typ vocab.Type) []results.Row {
	all := measured(rs, typ)
	n := 1
	for n < len(all) && all[n].BytesPerInstance == all[0].BytesPerInstance {
		n++
	}
	return all[:n]
}

// maxNamed is how many series a sentence or a cell names; the rest are
// counted ("and 12 others").
const maxNamed = 8

// andList names the series of rs: "a", "a and b", "a, b and c", and past
// maxNamed "a, b, ... and 12 others".
func andList(rs []results.Row) string {
	var names []string
	for _, r := range rs[:min(len(rs), maxNamed)] {
		names = append(names, render.SeriesOf(r).Label())
	}
	if more := len(rs) - len(names); more > 0 {
		return strings.Join(names, ", ") + " and " + strconv.Itoa(more) + " others"
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func verb(rs []results.Row, one, many string) string {
	if len(rs) == 1 {
		return one
	}
	return many
}

func seriesNames(rs []results.Row) string {
	var names []string
	for _, r := range rs[:min(len(rs), maxNamed)] {
		names = append(names, render.SeriesOf(r).Label())
	}
	if more := len(rs) - len(names); more > 0 {
		names = append(names, "and "+strconv.Itoa(more)+" others")
	}
	return strings.Join(names, ", ")
}

// tradeoffNote says how to read the trade-off tables.
const tradeoffNote = "One table per type: the bytes one instance keeps in each representation beside the median time of each use starting from that representation, the conversions a program must make first included (a path from compressed decodes and checks the subgroup, one from Jacobian converts to affine); the operations timed from at least two representations are the columns. ✓ marks the Pareto-optimal representations: no other is as small and as fast at every use, and faster or smaller at one (an untimed use counts as slower than any). -: not timed from that representation (the library does not offer it, the data already is the operation's output, or the path is not among the default ones: throughput --paths all times them); a representation timed at none of the columns has no row. The sentence compares, in each library, the smallest representation with the fastest at the type's key operation, in CPU time per call."

// writeTradeoffs writes the trade-off section: a sentence and a table per
// type with a trade-off (results.TradeoffOf), one sentence for the others.
func writeTradeoffs(mw *render.MarkdownWriter, rs *results.File, types []vocab.Type) {
	mw.Line("### Trade-offs")
	mw.Line("")
	// A type measured at several parameter sets (ML-DSA-44, -65, -87) has
	// one table per set, read from that set's rows alone (results.AtParam).
	type table struct {
		name string
		rs   *results.File
		typ  vocab.Type
	}
	var without, with []table
	var tables []results.Tradeoff
	for _, typ := range types {
		for _, p := range results.InstanceParams(rs, typ) {
			tb := table{string(typ), rs, typ}
			if p != "" {
				tb.name, tb.rs = string(typ)+" ("+string(p)+")", results.AtParam(rs, typ, p)
			}
			if t, ok := results.TradeoffOf(tb.rs, typ); ok {
				with, tables = append(with, tb), append(tables, t)
			} else {
				without = append(without, tb)
			}
		}
	}
	if len(with) > 0 {
		mw.Line(tradeoffNote)
		mw.Line("")
	}
	for i, tb := range with {
		mw.Printf("#### %s\n", tb.name)
		mw.Line("")
		mw.Line(tradeoffSentence(tb.rs, tables[i]))
		mw.Line("")
		mw.Table(tradeoffTable(tables[i]))
		mw.Line("")
	}
	for _, tb := range without {
		mw.Printf("- **%s**: %s\n", tb.name, sizeSentence(tb.rs, tb.typ))
	}
	if len(without) > 0 {
		mw.Line("")
	}
}

// tradeoffTable is t as a Markdown table.
func tradeoffTable(t results.Tradeoff) render.MarkdownTable {
	tb := render.MarkdownTable{Header: []string{"lib", "repr", "B/instance", "MB at 1M"}, Right: []bool{false, false, true, true}}
	scan := slices.ContainsFunc(t.Rows, func(r results.TradeoffRow) bool { return r.ScanBytesPerInstance != nil })
	if scan {
		tb.Header = append(tb.Header, "scan B/instance")
		tb.Right = append(tb.Right, true)
	}
	for _, c := range t.Ops {
		tb.Header = append(tb.Header, render.ColumnName(c))
		tb.Right = append(tb.Right, true)
	}
	tb.Header = append(tb.Header, "Pareto")
	tb.Right = append(tb.Right, false)
	for _, r := range t.Rows {
		cells := []string{string(r.Lib), string(r.Repr), units.FormatFigure(r.BytesPerInstance), mb(r.BytesPerInstance)}
		if scan {
			v := "-"
			if r.ScanBytesPerInstance != nil {
				v = units.FormatFigure(*r.ScanBytesPerInstance)
			}
			cells = append(cells, v)
		}
		for _, v := range r.NsPerUse {
			if v == nil {
				cells = append(cells, "-")
			} else {
				cells = append(cells, units.FormatNs(*v))
			}
		}
		p := ""
		if r.Pareto {
			p = "✓"
		}
		tb.Rows = append(tb.Rows, append(cells, p))
	}
	return tb
}

// sizeSentence says what choosing among the representations of typ
// costs in memory, for a type whose speed side was not measured.
func sizeSentence(rs *results.File, typ vocab.Type) string {
	all := measured(rs, typ)
	small := cheapest(rs, typ)
	first := len(all) - 1
	for first > 0 && all[first-1].BytesPerInstance == all[len(all)-1].BytesPerInstance {
		first--
	}
	large := all[first:]
	b := small[0].BytesPerInstance
	if len(small) == len(all) {
		return fmt.Sprintf("%s %s %s B per instance (%s MB per 1M instances); %s.",
			andList(small), verb(small, "takes", "take"), units.FormatFigure(b), mb(b), noTradeoffReason(rs, typ))
	}
	d := large[0].BytesPerInstance - b
	return fmt.Sprintf("%s %s the smallest at %s B per instance; %s %s +%s B per instance (+%s MB per 1M instances); %s, so the speed side is not shown.",
		andList(small), verb(small, "is", "are"), units.FormatFigure(b), andList(large), verb(large, "takes", "take"), units.FormatFigure(d), mb(d), noTradeoffReason(rs, typ))
}

// tradeoffSentence says in one sentence what keeping t's type in its
// smallest representation costs, in each library, at the key operation:
// both sides from the figures, no threshold of its own.
func tradeoffSentence(rs *results.File, t results.Tradeoff) string {
	j := render.KeyColumn(t)
	col := t.Ops[j]
	op := render.ColumnName(col)
	byLib := map[vocab.Lib][]results.TradeoffRow{}
	var libs []vocab.Lib
	for _, r := range t.Rows {
		if r.NsPerUse[j] == nil {
			continue
		}
		if _, seen := byLib[r.Lib]; !seen {
			libs = append(libs, r.Lib)
		}
		byLib[r.Lib] = append(byLib[r.Lib], r)
	}
	var clauses []string
	for _, lib := range libs {
		if rows := byLib[lib]; len(rows) >= 2 {
			clauses = append(clauses, "in "+string(lib)+", "+pairClause(rs, t, col, j, rows))
		}
	}
	if len(clauses) == 0 {
		var rows []results.TradeoffRow
		for _, lib := range libs {
			rows = append(rows, byLib[lib]...)
		}
		if len(rows) == 0 {
			return fmt.Sprintf("No representation of %s was timed at %s.", t.Type, op)
		}
		clauses = append(clauses, pairClause(rs, t, col, j, rows))
	}
	// The smallest representation measured may have no row (timed at
	// none of the columns): name it after the clauses.
	overall := ""
	if small := cheapest(rs, t.Type); !slices.ContainsFunc(t.Rows, func(r results.TradeoffRow) bool { return r.BytesPerInstance <= small[0].BytesPerInstance }) {
		overall = fmt.Sprintf("; the smallest overall, %s at %s B per instance, %s not timed at %s",
			andList(small), units.FormatFigure(small[0].BytesPerInstance), verb(small, "was", "were"), op)
	}
	out := strings.Join(clauses, "; ")
	return strings.ToUpper(out[:1]) + out[1:] + overall + "."
}

// useCost is what one use (column col) costs from row r: CPU time per
// call where it was measured, else the median wall time, and which.
func useCost(rs *results.File, typ vocab.Type, col results.TradeoffOp, r results.TradeoffRow, j int) (ns float64, cpu bool, tm measure.Timing) {
	for _, tr := range rs.Throughput {
		if tr.Type == typ && tr.Lib == r.Lib && tr.Repr == r.Repr && tr.Op == col.Op && tr.Batch == col.Batch && tr.Param == col.Param && tr.Error == "" {
			if tr.CPUNsPerOpMedian > 0 {
				return tr.CPUNsPerOpMedian, true, tr.Timing
			}
			return tr.NsPerOpMedian, false, tr.Timing
		}
	}
	return *r.NsPerUse[j], false, measure.Timing{}
}

// pairClause compares the smallest of rows with the fastest at column j
// of t.
func pairClause(rs *results.File, t results.Tradeoff, col results.TradeoffOp, j int, rows []results.TradeoffRow) string {
	typ := t.Type
	op := render.ColumnName(col)
	smallest, fastest := rows[0], rows[0]
	for _, r := range rows[1:] {
		if r.BytesPerInstance < smallest.BytesPerInstance || (r.BytesPerInstance == smallest.BytesPerInstance && *r.NsPerUse[j] < *smallest.NsPerUse[j]) {
			smallest = r
		}
		if *r.NsPerUse[j] < *fastest.NsPerUse[j] || (*r.NsPerUse[j] == *fastest.NsPerUse[j] && r.BytesPerInstance < fastest.BytesPerInstance) {
			fastest = r
		}
	}
	name := func(r results.TradeoffRow) string { return string(r.Lib) + " " + string(r.Repr) }
	if len(rows) == 1 {
		return fmt.Sprintf("only %s was timed at %s: %s B per instance, %s per %s", name(smallest), op, units.FormatFigure(smallest.BytesPerInstance), units.FormatNs(*smallest.NsPerUse[j]), op)
	}
	if smallest.Repr == fastest.Repr && smallest.Lib == fastest.Lib {
		return fmt.Sprintf("%s is both the smallest (%s B per instance) and the fastest at %s (%s per call)", name(smallest), units.FormatFigure(smallest.BytesPerInstance), op, units.FormatNs(*smallest.NsPerUse[j]))
	}
	saved := fastest.BytesPerInstance - smallest.BytesPerInstance
	sNs, sCPU, sT := useCost(rs, t.OpType(), col, smallest, j)
	fNs, fCPU, fT := useCost(rs, t.OpType(), col, fastest, j)
	what := "of CPU"
	if !sCPU || !fCPU {
		sNs, fNs, what = *smallest.NsPerUse[j], *fastest.NsPerUse[j], "(median wall time)"
	}
	s := fmt.Sprintf("keeping %s %s instead of %s saves %s B per instance (%s MB at 1M instances) and costs %s %s per %s: %s against %s",
		typ, smallest.Repr, fastest.Repr, units.FormatFigure(saved), mb(saved), units.FormatNs(sNs-fNs), what, op, units.FormatNs(sNs), units.FormatNs(fNs))
	if sT.NsPerOpQ1 > 0 && fT.NsPerOpQ3 >= sT.NsPerOpQ1 {
		s += "; their wall-time quartile ranges overlap, so the difference in speed is within the noise"
	}
	if smallest.ScanBytesPerInstance != nil && fastest.ScanBytesPerInstance != nil {
		d := *fastest.ScanBytesPerInstance - *smallest.ScanBytesPerInstance
		if d != 0 {
			more := "more"
			if d < 0 {
				d, more = -d, "less"
			}
			s += fmt.Sprintf("; the larger form makes the collector scan %s B %s per instance in every cycle (%s MB per cycle at 1M instances)", units.FormatFigure(d), more, mb(d))
		}
	}
	return s
}

// timedOps returns the operations timed for typ, the key operation first,
// then by name and batch.
func timedOps(rs *results.File, typ vocab.Type) []render.KeyOp {
	var ops []render.KeyOp
	seen := map[render.KeyOp]bool{}
	for _, t := range rs.Throughput {
		k := render.KeyOp{Op: t.Op, Batch: t.Batch}
		if t.Type == typ && !seen[k] {
			seen[k] = true
			ops = append(ops, k)
		}
	}
	key, _ := render.KeyOpOf(rs, vocab.Type(typ))
	sort.Slice(ops, func(i, j int) bool {
		a, b := ops[i], ops[j]
		if (a == key) != (b == key) {
			return a == key
		}
		if a.Op != b.Op {
			return a.Op < b.Op
		}
		return a.Batch < b.Batch
	})
	return ops
}

// maxOpColumns is how many operations a type's table shows beside the
// bytes: a column each. The throughput table below it has them all.
const maxOpColumns = 12

// opTimes finds the cell of an operation in a type's table: the first
// throughput row of its type, library, representation, operation and
// batch, or the unavailable row of the operation.
type opTimes struct {
	rows        map[opCellKey]*results.ThroughputRow
	unavailable map[opCellKey]bool // batch 0
}

type opCellKey struct {
	typ   vocab.Type
	lib   vocab.Lib
	repr  vocab.Repr
	op    vocab.Op
	batch int
}

func newOpTimes(rs *results.File) *opTimes {
	o := &opTimes{rows: map[opCellKey]*results.ThroughputRow{}, unavailable: map[opCellKey]bool{}}
	for i := range rs.Throughput {
		t := &rs.Throughput[i]
		k := opCellKey{t.Type, t.Lib, t.Repr, t.Op, t.Batch}
		if o.rows[k] == nil {
			o.rows[k] = t
		}
	}
	for _, u := range rs.Unavailable {
		o.unavailable[opCellKey{u.Type, u.Lib, u.Repr, u.Op, 0}] = true
	}
	return o
}

// cell is the median time of op, "error", "n/a" or "-".
func (o *opTimes) cell(typ vocab.Type, lib vocab.Lib, repr vocab.Repr, op render.KeyOp) string {
	if t := o.rows[opCellKey{typ, lib, repr, op.Op, op.Batch}]; t != nil {
		if t.Error != "" {
			return "error"
		}
		return units.FormatNs(t.NsPerOpMedian)
	}
	if o.unavailable[opCellKey{typ, lib, repr, op.Op, 0}] {
		return "n/a"
	}
	return "-"
}

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

func writeEnv(mw *render.MarkdownWriter, env measure.Env) {
	t := render.MarkdownTable{Header: []string{"setting", "value"}}
	add := func(k, v string) {
		if v != "" {
			t.Rows = append(t.Rows, []string{k, v})
		}
	}
	add("Go", env.GoVersion)
	add("OS/arch", env.GOOS+"/"+env.GOARCH)
	add("CPU", env.CPU)
	if env.NumCPU > 0 {
		add("CPUs", strconv.Itoa(env.NumCPU))
	}
	if env.GOMAXPROCS > 0 {
		add("GOMAXPROCS", strconv.Itoa(env.GOMAXPROCS))
	}
	add("cgo", map[bool]string{true: "on", false: "off (blst is not measured)"}[env.Cgo])
	add("machine", env.Machine)
	add("commit", env.Commit)
	add("measured", env.Time)
	add("garbage collector", string(env.GC))
	var mods []string
	for m := range env.Modules {
		mods = append(mods, m)
	}
	sort.Strings(mods)
	for _, m := range mods {
		add("`"+m+"`", env.Modules[m])
	}
	mw.Table(t)
}

func envLine(env measure.Env) string {
	parts := []string{}
	if env.GoVersion != "" {
		parts = append(parts, env.GoVersion)
	}
	if env.GOOS != "" {
		parts = append(parts, env.GOOS+"/"+env.GOARCH)
	}
	if env.CPU != "" {
		parts = append(parts, env.CPU)
	}
	if len(parts) == 0 {
		return ""
	}
	return "Measured with " + strings.Join(parts, ", ") + "."
}

// nSummary says which N the cases were measured with.
func nSummary(rs *results.File) string {
	var ns []int
	seen := map[int]bool{}
	for _, r := range rs.Instances {
		if r.Error == "" && !seen[r.N] {
			seen[r.N] = true
			ns = append(ns, r.N)
		}
	}
	sort.Ints(ns)
	switch len(ns) {
	case 0:
		return "no case was measured"
	case 1:
		return "N = " + strconv.Itoa(ns[0]) + " instances for every case"
	}
	var s []string
	for _, n := range ns[:min(len(ns), maxOpColumns)] {
		s = append(s, strconv.Itoa(n))
	}
	if more := len(ns) - maxOpColumns; more > 0 {
		s = append(s, "and "+strconv.Itoa(more)+" more")
	}
	return "N varies by case (" + strings.Join(s, ", ") + "); see the N column of results.csv"
}

func describeFile(name string) string {
	switch {
	case name == BytesChart:
		return "bytes per instance, one group per type, one bar per library and representation"
	case name == GCChart:
		return "bytes per instance against the GC's CPU time per instance per cycle, one point per case"
	case strings.HasPrefix(name, tradeoffStart):
		return "bytes per instance against the time of each use, one panel per operation, the Pareto-optimal representations filled"
	case name == ResultsJSON:
		return "the results, " + results.Schema + ", with the trade-off tables (`tradeoff`, `pareto: true` on the Pareto-optimal rows; render again with `memprof report --from " + ResultsJSON + "`)"
	case name == ResultsCSV:
		return "one row per measurement, for spreadsheets"
	case name == ResultsBench:
		return "Go benchmark format, for `benchstat old.bench new.bench`"
	case isMachineFile(name):
		return "the results of another machine of this review, " + results.Schema
	}
	return ""
}

// mb formats bytes per instance as megabytes (10⁶ B) at 10⁶ instances,
// with one decimal.
func mb(bytesPerInstance float64) string {
	return units.FormatFixed(bytesPerInstance*1e6/1e6, 1)
}

func plusMB(d float64) string {
	if d == 0 {
		return "cheapest"
	}
	return "+" + mb(d) + " MB"
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
