package report

import (
	"sort"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
)

// writeType writes the section of one type: bytes per instance beside the
// median time of each timed operation (the first maxOpColumns of them),
// the constructors, the trade-off chart and the throughput detail.
func writeType(mw *render.MarkdownWriter, rs *results.File, times *opTimes, typ vocab.Type, ch charts, ms machines, keys render.KeyOps) {
	mw.Printf("## %s\n", typ)
	mw.Line("")
	ops := timedOps(rs, typ, keys)
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
		mw.Printf("_No trade-off chart for %s: %s._\n", typ, noTradeoffReason(rs, typ, keys))
		mw.Line("")
	}
	if len(ops) > 0 {
		mw.Printf("### %s throughput\n", typ)
		mw.Line("")
		render.ThroughputMarkdownTable(mw, rs, vocab.Type(typ))
		mw.Line("")
	}
}

func noTradeoffReason(rs *results.File, typ vocab.Type, keys render.KeyOps) string {
	if len(rs.Throughput) == 0 {
		return "no throughput was measured"
	}
	if _, ok := render.KeyOpOf(rs, vocab.Type(typ), keys); !ok {
		return "no operation of this type was timed"
	}
	return "no operation was timed from two of its measured representations"
}

// timedOps returns the operations timed for typ, the key operation first,
// then by name and batch.
func timedOps(rs *results.File, typ vocab.Type, keys render.KeyOps) []render.KeyOp {
	var ops []render.KeyOp
	seen := map[render.KeyOp]bool{}
	for _, t := range rs.Throughput {
		k := render.KeyOp{Op: t.Op, Batch: t.Batch}
		if t.Type == typ && !seen[k] {
			seen[k] = true
			ops = append(ops, k)
		}
	}
	key, _ := render.KeyOpOf(rs, vocab.Type(typ), keys)
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
