package model

import (
	"math"
	"slices"
)

// The trade-off of a type: what keeping it in each representation costs
// in memory beside what each use of it costs in time from that
// representation, with the representations no other beats on every
// figure (the Pareto-optimal ones) marked. The report computes it from
// the instance and throughput rows and writes it into the results file it
// keeps (Results.Tradeoff); renderers compute it again rather than trust
// a file's.

// TradeoffOp is one column of a trade-off table: an operation timed from
// at least two representations of the type, and its batch.
type TradeoffOp struct {
	Op    Op  `json:"op"`
	Batch int `json:"batch,omitempty"`
	// Param tells apart the settings of an operation timed at several
	// (a number of tasks).
	Param Param `json:"param,omitempty"`
}

// TradeoffRow is one library and representation of a type in its
// trade-off table.
type TradeoffRow struct {
	Lib  Lib  `json:"lib"`
	Repr Repr `json:"repr"`
	// Layout is the instance case's: the pointer layout where the
	// representation was measured in several.
	Layout           Layout  `json:"layout"`
	BytesPerInstance float64 `json:"bytes_per_instance"`
	// ScanBytesPerInstance is what the collector scans per instance in
	// every cycle; nil where the results do not carry it.
	ScanBytesPerInstance *float64 `json:"scan_bytes_per_instance,omitempty"`
	// NsPerUse holds, for each column of the table (Tradeoff.Ops), the
	// median time of the operation from this representation; nil where
	// it was not timed (not offered, failed, not selected).
	NsPerUse []*float64 `json:"ns_per_use"`
	// Pareto is true when no other row of the table is as good on every
	// figure (bytes per instance, scan bytes where known, the time of
	// every column; an untimed use counts as worse than any time) and
	// better on one.
	Pareto bool `json:"pareto"`
}

// Tradeoff is the trade-off table of one type.
type Tradeoff struct {
	Type Type          `json:"type"`
	Ops  []TradeoffOp  `json:"ops"`
	Rows []TradeoffRow `json:"rows"`
}

// scanBytesPerInstance is the collector's scan bytes per instance of r,
// or nil where r has no such figure (results older than it).
func scanBytesPerInstance(r *Result) *float64 {
	v, ok := FigureNamed("scan_bytes_per_instance").Value(r)
	if !ok {
		return nil
	}
	return &v
}

// Tradeoffs returns the trade-off table of each type of rs that has both
// measured instances and operations timed from at least two of its
// representations, in the order of the vocabulary. rs is not modified;
// the result shares nothing with it.
func Tradeoffs(rs *Results) []Tradeoff {
	var out []Tradeoff
	for _, typ := range tradeoffTypes(rs) {
		if t, ok := TradeoffOf(rs, typ); ok {
			out = append(out, t)
		}
	}
	return out
}

func tradeoffTypes(rs *Results) []Type {
	var types []Type
	for _, r := range rs.Instances {
		if r.Error == "" && !slices.Contains(types, r.Type) {
			types = append(types, r.Type)
		}
	}
	slices.SortStableFunc(types, func(a, b Type) int { return Compare(Key{Type: a}, Key{Type: b}) })
	return types
}

// TradeoffOf returns the trade-off table of typ, and false when typ has
// no measured instance or no operation timed from two of its
// representations that were measured. Its rows are the measured
// representations timed at one of its columns at least.
func TradeoffOf(rs *Results, typ Type) (Tradeoff, bool) {
	t := Tradeoff{Type: typ}
	// The rows: the measured instances, one per library and
	// representation (the pointer layout where there are several).
	at := map[[2]string]int{}
	for i := range rs.Instances {
		r := &rs.Instances[i]
		if r.Type != typ || r.Error != "" {
			continue
		}
		k := [2]string{string(r.Lib), string(r.Repr)}
		row := TradeoffRow{Lib: r.Lib, Repr: r.Repr, Layout: r.Layout, BytesPerInstance: r.BytesPerInstance, ScanBytesPerInstance: scanBytesPerInstance(r)}
		if j, seen := at[k]; seen {
			if r.Layout == Pointer && t.Rows[j].Layout != Pointer {
				t.Rows[j] = row
			}
			continue
		}
		at[k] = len(t.Rows)
		t.Rows = append(t.Rows, row)
	}
	if len(t.Rows) == 0 {
		return t, false
	}
	// The columns: the operations timed from at least two of those
	// representations.
	reprsOf := map[TradeoffOp][]Repr{}
	times := map[TradeoffOp]map[[2]string]float64{}
	for _, tr := range rs.Throughput {
		k := [2]string{string(tr.Lib), string(tr.Repr)}
		if _, ok := at[k]; !ok || tr.Type != typ || tr.Error != "" || tr.NsPerOpMedian <= 0 {
			continue
		}
		c := TradeoffOp{Op: tr.Op, Batch: tr.Batch, Param: tr.Param}
		if !slices.Contains(reprsOf[c], tr.Repr) {
			reprsOf[c] = append(reprsOf[c], tr.Repr)
		}
		if times[c] == nil {
			times[c] = map[[2]string]float64{}
		}
		times[c][k] = tr.NsPerOpMedian
	}
	for c, reprs := range reprsOf {
		if len(reprs) >= 2 {
			t.Ops = append(t.Ops, c)
		}
	}
	if len(t.Ops) == 0 {
		return t, false
	}
	slices.SortFunc(t.Ops, func(a, b TradeoffOp) int {
		return Compare(Key{Op: a.Op, Batch: a.Batch, Param: a.Param}, Key{Op: b.Op, Batch: b.Batch, Param: b.Param})
	})
	// A representation timed at none of the columns has no speed side:
	// it is not a row (the report names the smallest of those).
	rows := t.Rows[:0]
	for _, r := range t.Rows {
		k := [2]string{string(r.Lib), string(r.Repr)}
		r.NsPerUse = make([]*float64, len(t.Ops))
		timed := false
		for j, c := range t.Ops {
			if v, ok := times[c][k]; ok {
				r.NsPerUse[j], timed = &v, true
			}
		}
		if timed {
			rows = append(rows, r)
		}
	}
	t.Rows = rows
	slices.SortStableFunc(t.Rows, func(a, b TradeoffRow) int {
		return Compare(Key{Type: typ, Lib: a.Lib, Repr: a.Repr}, Key{Type: typ, Lib: b.Lib, Repr: b.Repr})
	})
	markPareto(t.Rows)
	return t, true
}

// markPareto sets Pareto on the rows no other row dominates.
func markPareto(rows []TradeoffRow) {
	figures := make([][]float64, len(rows))
	for i, r := range rows {
		f := []float64{r.BytesPerInstance, math.NaN()}
		if r.ScanBytesPerInstance != nil {
			f[1] = *r.ScanBytesPerInstance
		}
		for _, v := range r.NsPerUse {
			if v == nil {
				f = append(f, math.Inf(1))
			} else {
				f = append(f, *v)
			}
		}
		figures[i] = f
	}
	for i := range rows {
		rows[i].Pareto = true
		for j := range rows {
			if j != i && dominates(figures[j], figures[i]) {
				rows[i].Pareto = false
				break
			}
		}
	}
}

// dominates reports whether a is at most b on every figure and below it
// on one; a figure one of them lacks (NaN: scan bytes not recorded) is
// not compared.
func dominates(a, b []float64) bool {
	better := false
	for i := range a {
		switch {
		case math.IsNaN(a[i]) || math.IsNaN(b[i]):
		case a[i] > b[i]:
			return false
		case a[i] < b[i]:
			better = true
		}
	}
	return better
}
