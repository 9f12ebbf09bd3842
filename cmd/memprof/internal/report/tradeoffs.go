package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
)

// tradeoffNote says how to read the trade-off tables.
var tradeoffNote = "One table per type: the bytes one instance keeps in each representation beside the median time of each use starting from that representation, the conversions a program must make first included (a path from compressed decodes and checks the subgroup, one from Jacobian converts to affine); the operations timed from at least two representations are the columns. ✓ marks the Pareto-optimal representations: no other is as small and as fast at every use, and faster or smaller at one beyond the noise (bytes by more than their resolution, times by quartile ranges that do not overlap; an untimed use counts as slower than any). A time is the median wall time per call, with the CPU time per call beside it where the wall time is at least " + strconv.FormatFloat(render.Contention, 'g', -1, 64) + " times the CPU time: the call waited for a CPU on a busy machine. ~0: within its resolution of zero. -: not timed from that representation (the library does not offer it, the data already is the operation's output, or the path is not among the default ones: throughput --paths all times them); a representation timed at none of the columns has no row. The sentence compares, in each library, the smallest representation with the fastest at the type's key operation, in CPU time per call."

// writeTradeoffs writes the trade-off section: a sentence and a table per
// type with a trade-off (results.TradeoffOf), one sentence for the others.
func writeTradeoffs(mw *render.MarkdownWriter, rs *results.File, types []vocab.Type, keys render.KeyOps) {
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
		mw.Line(tradeoffSentence(tb.rs, tables[i], keys))
		mw.Line("")
		mw.Table(tradeoffTable(tables[i]))
		mw.Line("")
	}
	for _, tb := range without {
		mw.Printf("- **%s**: %s\n", tb.name, sizeSentence(tb.rs, tb.typ, keys))
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
				v = figureOrNearZero(*r.ScanBytesPerInstance, r.ScanResolution)
			}
			cells = append(cells, v)
		}
		for j, v := range r.NsPerUse {
			if v == nil {
				cells = append(cells, "-")
				continue
			}
			cell := units.FormatNs(*v)
			if cpu := cpuOf(r, j); cpu != nil && render.Contended(*v, *cpu) {
				cell += " (CPU " + units.FormatNs(*cpu) + ")"
			}
			cells = append(cells, cell)
		}
		p := ""
		if r.Pareto {
			p = "✓"
		}
		tb.Rows = append(tb.Rows, append(cells, p))
	}
	return tb
}

// cpuOf is row r's CPU time at column j, nil where not recorded.
func cpuOf(r results.TradeoffRow, j int) *float64 {
	if j < len(r.CPUNsPerUse) {
		return r.CPUNsPerUse[j]
	}
	return nil
}

// figureOrNearZero writes a figure known to within resolution: ~0 when
// it is within it of zero, or below zero (a reading of what cannot be
// negative, under its noise).
func figureOrNearZero(v, resolution float64) string {
	if v < 0 || math.Abs(v) < resolution {
		return "~0"
	}
	return units.FormatFigure(v)
}

// sizeSentence says what choosing among the representations of typ
// costs in memory, for a type whose speed side was not measured.
func sizeSentence(rs *results.File, typ vocab.Type, keys render.KeyOps) string {
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
			andList(small), verb(small, "takes", "take"), units.FormatFigure(b), mb(b), noTradeoffReason(rs, typ, keys))
	}
	d := large[0].BytesPerInstance - b
	return fmt.Sprintf("%s %s the smallest at %s B per instance; %s %s +%s B per instance (+%s MB per 1M instances); %s, so the speed side is not shown.",
		andList(small), verb(small, "is", "are"), units.FormatFigure(b), andList(large), verb(large, "takes", "take"), units.FormatFigure(d), mb(d), noTradeoffReason(rs, typ, keys))
}

// tradeoffSentence says in one sentence what keeping t's type in its
// smallest representation costs, in each library, at the key operation:
// both sides from the figures, no threshold of its own.
func tradeoffSentence(rs *results.File, t results.Tradeoff, keys render.KeyOps) string {
	j := render.KeyColumn(t, keys)
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
		if math.Abs(d) > smallest.ScanResolution+fastest.ScanResolution {
			more := "more"
			if d < 0 {
				d, more = -d, "less"
			}
			s += fmt.Sprintf("; the larger form makes the collector scan %s B %s per instance in every cycle (%s MB per cycle at 1M instances)", units.FormatFigure(d), more, mb(d))
		}
	}
	return s
}
