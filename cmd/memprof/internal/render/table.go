package render

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/memprof/memprof/model"
)

// SortInstances orders results in the one ordering of keys
// (model.Compare).
func SortInstances(rs []model.Result) {
	slices.SortStableFunc(rs, func(a, b model.Result) int { return model.Compare(a.Key, b.Key) })
}

// row is one line of the instances table: a measurement, an error or an
// unavailable combination.
type row struct {
	key   model.Key
	cells []string
}

// InstancesTable writes the instances of rs as a terminal table, one row
// per case (unavailable and failed cases included, with the reason), then
// a table of the allocation sites.
func InstancesTable(w io.Writer, rs *model.Results) error {
	var rows []row
	for _, r := range rs.Instances {
		k := r.Key
		if r.Error != "" {
			rows = append(rows, row{k, []string{string(r.Type), string(r.Lib), string(r.Repr), string(r.Layout), "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "error: " + firstLine(r.Error)}})
			continue
		}
		rows = append(rows, row{k, []string{
			string(r.Type), string(r.Lib), string(r.Repr), string(r.Layout),
			Num(r.BytesPerInstance), Num(r.AllocsPerInstance),
			strconv.FormatInt(r.SizeofBytes, 10), slot(r),
			Offheap(r), Num(r.HeapAllocBytesPerInstance),
			Num(r.HolderBytesPerInstance), cHeap(r), RSS(r), Unaccounted(r), "n=" + strconv.Itoa(r.N),
		}})
	}
	omitted := 0
	for _, u := range rs.Unavailable {
		if u.Op != "" {
			continue
		}
		if u.Kind == model.DoesNotApply {
			omitted++
			continue
		}
		k := u.Key
		rows = append(rows, row{k, []string{string(u.Type), string(u.Lib), string(u.Repr), string(u.Layout), "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "n/a: " + u.Reason}})
	}
	slices.SortStableFunc(rows, func(a, b row) int { return model.Compare(a.key, b.key) })
	t := newInstancesTable(w, 15)
	t.Header("type", "lib", "repr", "layout", "B/instance", "allocs/instance", "sizeof", "slot", "off-heap B", "HeapAlloc B", "holder B", "C heap B", "RSS B", "unaccounted B", "note")
	for _, r := range rows {
		if err := t.Append(r.cells); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
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
	t := NewTable(w)
	t.Header("case", "B/instance at N", "slope B/instance (95% CI)", "intercept B", "R²")
	n := 0
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
		if err := t.Append([]string{caseName(r), strings.Join(at, " "), ci, Num(round2(s.Intercept)), strconv.FormatFloat(s.R2, 'f', 6, 64)}); err != nil {
			return err
		}
		n++
	}
	if n == 0 {
		return nil
	}
	fmt.Fprintln(w)
	return t.Render()
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// SitesTable writes the allocation sites of every measured case.
func SitesTable(w io.Writer, rs *model.Results) error {
	t := NewTable(w)
	t.Header("case", "allocation site", "B/instance", "allocs/instance", "slot sizes")
	n := 0
	for _, r := range rs.Instances {
		for _, s := range r.Sites {
			var slots []string
			for _, b := range s.SlotSizes {
				slots = append(slots, strconv.FormatInt(b, 10))
			}
			site := ShortFunction(s.Function)
			if s.Line > 0 {
				site += ":" + strconv.FormatInt(s.Line, 10)
			}
			if err := t.Append([]string{caseName(r), site, Num(s.BytesPerInstance), Num(s.AllocsPerInstance), strings.Join(slots, " ")}); err != nil {
				return err
			}
			n++
		}
	}
	if n == 0 {
		return nil
	}
	fmt.Fprintln(w)
	return t.Render()
}

func caseName(r model.Result) string { return r.Key.String() }

func cHeap(r model.Result) string {
	if r.CHeapBytesPerInstance == nil {
		return "n/a"
	}
	return Num(*r.CHeapBytesPerInstance)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	return s
}

// NewTable returns a terminal table that keeps header names as written.
func NewTable(w io.Writer) *tablewriter.Table {
	return tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off))
}

// noteWidth is where the instances table wraps its note column, so that
// long reasons do not make the table wider than a terminal.
const noteWidth = 48

// newInstancesTable is NewTable with the last (note) column wrapped at
// noteWidth.
func newInstancesTable(w io.Writer, columns int) *tablewriter.Table {
	return tablewriter.NewTable(w,
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAutoWrap(tw.WrapNormal),
		tablewriter.WithColumnWidths(tw.NewMapper[int, int]().Set(columns-1, noteWidth)),
	)
}

// slot renders the slot column: not applicable to a collection.
func slot(r model.Result) string {
	if r.Layout == model.Slice {
		return Num(r.ArraySlotBytesPerInstance)
	}
	if r.Layout == "collection" {
		return "-"
	}
	return Num(r.SlotBytes)
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

// Offheap renders the off-heap figure: "~0" when it is within the
// figure's resolution (two of the runtime's 256 KiB off-heap chunks over N),
// the value otherwise.
func Offheap(r model.Result) string {
	return Resolved(r.OffheapBytesPerInstance, r.OffheapResolution, math.Inf(1))
}

// RSS renders the RSS figure within its resolution (model.Result.RSSResolution):
// see Resolved, with the instance's own bytes as the bound.
func RSS(r model.Result) string {
	return Resolved(r.RSSBytesPerInstance, r.RSSResolution, instanceBytes(r))
}

// Unaccounted renders the unaccounted figure, which has the RSS figure's
// resolution: see RSS.
func Unaccounted(r model.Result) string {
	return Resolved(r.UnaccountedBytesPerInstance, r.RSSResolution, instanceBytes(r))
}

// NTooSmall is what a table shows for a figure whose resolution is larger
// than the instance it is about.
const NTooSmall = "n/a (N too small)"

// Resolved renders a per-instance figure v known only to within
// resolution: NTooSmall when the resolution is larger than bound (then no
// digit of v tells the instance from nothing, or from twice itself), "~0"
// when v is within the resolution, v otherwise. A resolution of 0 (not
// recorded: a results file older than the figure's resolution) renders v.
func Resolved(v, resolution, bound float64) string {
	switch {
	case resolution <= 0:
		return Num(v)
	case resolution > bound:
		return NTooSmall
	case math.Abs(v) < resolution:
		return "~0"
	}
	return Num(v)
}

// instanceBytes is what one instance is known to keep: its Go heap bytes,
// from the heap profile, and its C heap where that was measured.
func instanceBytes(r model.Result) float64 {
	b := r.BytesPerInstance
	if r.CHeapBytesPerInstance != nil && *r.CHeapBytesPerInstance > 0 {
		b += *r.CHeapBytesPerInstance
	}
	return b
}
