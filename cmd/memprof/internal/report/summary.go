package report

import (
	"sort"
	"strconv"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
)

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

// writeSummary writes the review's summary: the cheapest representation
// of each type, the memory of each at 1M instances and the trade-offs. It
// returns true, having written part of it, when stopped says to end the
// review.
func writeSummary(mw *render.MarkdownWriter, rs *results.File, types []vocab.Type, keys render.KeyOps, stopped func() bool) bool {
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
				return true
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
				return true
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
			return true
		}
		writeTradeoffs(mw, rs, types, keys)
	}
	return false
}
