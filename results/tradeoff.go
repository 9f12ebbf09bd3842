package results

import (
	"math"
	"slices"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/vocab"
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
	Op    vocab.Op `json:"op"`
	Batch int      `json:"batch,omitempty"`
	// Param tells apart the settings of an operation timed at several
	// (a number of tasks).
	Param Param `json:"param,omitempty"`
}

// TradeoffRow is one library and representation of a type in its
// trade-off table.
type TradeoffRow struct {
	Lib  vocab.Lib  `json:"lib"`
	Repr vocab.Repr `json:"repr"`
	// Layout is the instance case's: the pointer layout where the
	// representation was measured in several.
	Layout           measure.Layout `json:"layout"`
	BytesPerInstance float64        `json:"bytes_per_instance"`
	// ScanBytesPerInstance is what the collector scans per instance in
	// every cycle; nil where the results do not carry it.
	ScanBytesPerInstance *float64 `json:"scan_bytes_per_instance,omitempty"`
	// ScanResolution is the resolution of ScanBytesPerInstance (0 where
	// the results do not record it): a figure within it of zero is ~0.
	ScanResolution float64 `json:"scan_resolution_bytes_per_instance,omitempty"`
	// NsPerUse holds, for each column of the table (Tradeoff.Ops), the
	// median time of the operation from this representation; nil where
	// it was not timed (not offered, failed, not selected).
	NsPerUse []*float64 `json:"ns_per_use"`
	// CPUNsPerUse holds, for each column, the median CPU time per call
	// of the same timing; nil where it was not timed or its CPU time was
	// not recorded. Absent in tables written before it.
	CPUNsPerUse []*float64 `json:"cpu_ns_per_use,omitempty"`
	// Pareto is true when no other row of the table is as good on every
	// figure (bytes per instance, scan bytes where known, the time of
	// every column; an untimed use counts as worse than any time) and
	// better on one, beyond the noise: bytes by more than their
	// resolutions, times by quartile ranges that do not overlap.
	Pareto bool `json:"pareto"`

	// heapResolution is the bytes' resolution, and quartiles each
	// column's time's first and third quartiles (0, 0 where not
	// recorded): the noise Pareto looks past.
	heapResolution float64
	quartiles      [][2]float64
}

// Tradeoff is the trade-off table of one type, or of one parameter set
// of a type whose instances are measured at several (Param: set=ML-DSA-65
// compares only that set's keys, and the uses timed at that set).
type Tradeoff struct {
	Type  vocab.Type `json:"type"`
	Param Param      `json:"param,omitempty"`
	// OpsOf, when set, is the type whose operations are the columns, for
	// a table whose rows are a structure holding points of that type (a
	// Groth16VerifyingKey's G2 points, used by BN254G2's pairing check);
	// empty when the operations are Type's own.
	OpsOf vocab.Type    `json:"ops_of,omitempty"`
	Ops   []TradeoffOp  `json:"ops"`
	Rows  []TradeoffRow `json:"rows"`
}

// OpType is the type whose operations are t's columns: OpsOf, or Type.
func (t Tradeoff) OpType() vocab.Type {
	if t.OpsOf != "" {
		return t.OpsOf
	}
	return t.Type
}

// scanBytesPerInstance is the collector's scan bytes per instance of r,
// or nil where r has no such figure (results older than it).
func scanBytesPerInstance(r *Row) *float64 {
	v, ok := FigureNamed("scan_bytes_per_instance").Value(r)
	if !ok {
		return nil
	}
	return &v
}

// Tradeoffs returns the trade-off table of each type of rs (of each of
// its parameter sets, see TradeoffsOf) that has both measured instances
// and operations timed from at least two of its representations, in the
// order of the vocabulary. rs is not modified; the result shares nothing
// with it.
func Tradeoffs(rs *File) []Tradeoff {
	var out []Tradeoff
	for _, typ := range tradeoffTypes(rs) {
		out = append(out, TradeoffsOf(rs, typ)...)
	}
	return out
}

// TradeoffsOf returns the trade-off tables of typ: one per parameter set
// of its measured instances (set=ML-DSA-65: the rows and columns of a
// table are that set's alone), in the order of the sets; for a type
// measured without parameter sets, its one table.
func TradeoffsOf(rs *File, typ vocab.Type) []Tradeoff {
	var out []Tradeoff
	for _, p := range instanceParams(rs, typ) {
		if t, ok := TradeoffAt(rs, typ, p); ok {
			out = append(out, t)
		}
	}
	return out
}

// instanceParams returns the parameter sets of typ's measured instances,
// each once, in the order of keys; [""] for a type measured without
// parameter sets (other parameters, a population, do not split a table).
func instanceParams(rs *File, typ vocab.Type) []Param {
	var ps []Param
	for _, r := range rs.Instances {
		if r.Type == typ && r.Error == "" && r.Param.IsSet() && !slices.Contains(ps, r.Param) {
			ps = append(ps, r.Param)
		}
	}
	if len(ps) == 0 {
		return []Param{""}
	}
	slices.SortFunc(ps, func(a, b Param) int { return a.compare(b) })
	return ps
}

// IsSet reports whether p names a parameter set (set=ML-KEM-768), which
// tells apart objects of different sizes and strengths rather than a
// setting of one measurement.
func (p Param) IsSet() bool { name, _ := p.Split(); return name == "set" }

func tradeoffTypes(rs *File) []vocab.Type {
	var types []vocab.Type
	for _, r := range rs.Instances {
		if r.Error == "" && !slices.Contains(types, r.Type) {
			types = append(types, r.Type)
		}
	}
	slices.SortStableFunc(types, func(a, b vocab.Type) int { return Compare(Key{Type: a}, Key{Type: b}) })
	return types
}

// TradeoffOf returns the first trade-off table of typ (TradeoffsOf): its
// only one for a type measured without parameters. It returns false when
// typ has no measured instance or no operation timed from two of its
// representations that were measured.
func TradeoffOf(rs *File, typ vocab.Type) (Tradeoff, bool) {
	if ts := TradeoffsOf(rs, typ); len(ts) > 0 {
		return ts[0], true
	}
	return Tradeoff{Type: typ}, false
}

// TradeoffAt returns the trade-off table of typ's instances of the
// parameter set param ("" for all of typ's instances), and false when
// there is none (see TradeoffOf). With a set, its columns are the
// operations timed at that same set; without one, every operation of the
// type (a column then keeps the operation's own parameter, such as a
// number of tasks). Its rows are the measured representations timed at one
// of its columns at least.
func TradeoffAt(rs *File, typ vocab.Type, param Param) (Tradeoff, bool) {
	return tradeoff(rs, typ, typ, param, nil)
}

// TradeoffAcross is TradeoffOf with the rows from the instances of typ
// and the columns from the operations of opsOf, matched by library and
// representation, and only those of ops when any are given: the
// trade-off of a structure whose representations are those of the points
// it holds (a verifying key plain or prepared, against the pairing check
// from affine or prepared G2 points).
func TradeoffAcross(rs *File, typ, opsOf vocab.Type, ops ...vocab.Op) (Tradeoff, bool) {
	return tradeoff(rs, typ, opsOf, "", ops)
}

// tradeoff is TradeoffAt's and TradeoffAcross's table: typ's rows (of
// param, when set) against the operations of opsOf (only ops, when any).
func tradeoff(rs *File, typ, opsOf vocab.Type, param Param, ops []vocab.Op) (Tradeoff, bool) {
	t := Tradeoff{Type: typ, Param: param}
	if opsOf != typ {
		t.OpsOf = opsOf
	}
	// The rows: the measured instances, one per library and
	// representation (the pointer layout where there are several).
	at := map[[2]string]int{}
	for i := range rs.Instances {
		r := &rs.Instances[i]
		if r.Type != typ || r.Error != "" || (param != "" && r.Param != param) {
			continue
		}
		k := [2]string{string(r.Lib), string(r.Repr)}
		row := TradeoffRow{Lib: r.Lib, Repr: r.Repr, Layout: r.Layout, BytesPerInstance: r.BytesPerInstance, ScanBytesPerInstance: scanBytesPerInstance(r), heapResolution: r.HeapResolution}
		if row.ScanBytesPerInstance != nil {
			row.ScanResolution = r.ScanResolution
		}
		if j, seen := at[k]; seen {
			if r.Layout == measure.Pointer && t.Rows[j].Layout != measure.Pointer {
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
	reprsOf := map[TradeoffOp][]vocab.Repr{}
	times := map[TradeoffOp]map[[2]string]measure.Timing{}
	for _, tr := range rs.Throughput {
		k := [2]string{string(tr.Lib), string(tr.Repr)}
		if _, ok := at[k]; !ok || tr.Type != opsOf || tr.Error != "" || tr.NsPerOpMedian <= 0 || (param != "" && tr.Param != param) || (len(ops) > 0 && !slices.Contains(ops, tr.Op)) {
			continue
		}
		c := TradeoffOp{Op: tr.Op, Batch: tr.Batch, Param: tr.Param}
		if param != "" {
			c.Param = ""
		}
		if !slices.Contains(reprsOf[c], tr.Repr) {
			reprsOf[c] = append(reprsOf[c], tr.Repr)
		}
		if times[c] == nil {
			times[c] = map[[2]string]measure.Timing{}
		}
		times[c][k] = tr.Timing
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
		if r.setTimes(t.Ops, times, [2]string{string(r.Lib), string(r.Repr)}) {
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

// setTimes sets r's times at each column of ops from the timings of its
// library and representation (k) and reports whether it was timed at any.
func (r *TradeoffRow) setTimes(ops []TradeoffOp, times map[TradeoffOp]map[[2]string]measure.Timing, k [2]string) (timed bool) {
	r.NsPerUse = make([]*float64, len(ops))
	r.quartiles = make([][2]float64, len(ops))
	r.CPUNsPerUse = nil
	for j, c := range ops {
		tm, ok := times[c][k]
		if !ok {
			continue
		}
		ns := tm.NsPerOpMedian
		r.NsPerUse[j], timed = &ns, true
		if tm.NsPerOpQ1 > 0 && tm.NsPerOpQ3 >= tm.NsPerOpQ1 {
			r.quartiles[j] = [2]float64{tm.NsPerOpQ1, tm.NsPerOpQ3}
		}
		if tm.CPUNsPerOpMedian > 0 {
			if r.CPUNsPerUse == nil {
				r.CPUNsPerUse = make([]*float64, len(ops))
			}
			v := tm.CPUNsPerOpMedian
			r.CPUNsPerUse[j] = &v
		}
	}
	return timed
}

// markPareto sets Pareto on the rows no other row dominates beyond the
// noise (dominates); should the noise leave every row dominated by
// another (the ranges do not order the rows), on the rows no other
// dominates by the figures alone.
func markPareto(rows []TradeoffRow) {
	figures := make([][]span, len(rows))
	for i, r := range rows {
		f := []span{around(r.BytesPerInstance, r.heapResolution), {math.NaN(), math.NaN()}}
		if r.ScanBytesPerInstance != nil {
			f[1] = around(*r.ScanBytesPerInstance, r.ScanResolution)
		}
		for j, v := range r.NsPerUse {
			switch {
			case v == nil:
				f = append(f, span{math.Inf(1), math.Inf(1)})
			case j < len(r.quartiles) && r.quartiles[j][1] > 0:
				f = append(f, span{min(*v, r.quartiles[j][0]), max(*v, r.quartiles[j][1])})
			default:
				f = append(f, span{*v, *v})
			}
		}
		figures[i] = f
	}
	mark := func(noise bool) bool {
		any := false
		for i := range rows {
			rows[i].Pareto = true
			for j := range rows {
				if j != i && dominates(figures[j], figures[i], noise) {
					rows[i].Pareto = false
					break
				}
			}
			any = any || rows[i].Pareto
		}
		return any
	}
	if !mark(true) {
		mark(false)
	}
}

// span is where a figure lies: from low to high (a median's quartiles, a
// figure give or take its resolution).
type span struct{ low, high float64 }

// around is v give or take resolution.
func around(v, resolution float64) span { return span{v - resolution, v + resolution} }

// mid is the span's middle: the figure itself.
func (s span) mid() float64 { return (s.low + s.high) / 2 }

// dominates reports whether a is no worse than b on every figure and
// better on one: with noise, worse or better only where their spans do
// not overlap; without, by the figures' middles. A figure one of them
// lacks (NaN: scan bytes not recorded) is not compared.
func dominates(a, b []span, noise bool) bool {
	better := false
	for i := range a {
		x, y := a[i], b[i]
		if !noise {
			x, y = span{x.mid(), x.mid()}, span{y.mid(), y.mid()}
		}
		switch {
		case math.IsNaN(x.low) || math.IsNaN(y.low):
		case x.low > y.high:
			return false
		case x.high < y.low:
			better = true
		}
	}
	return better
}

// InstanceParams returns the parameter sets typ's measured instances were
// measured at, in order ([""] for a type without sets): the tables
// TradeoffsOf makes.
func InstanceParams(rs *File, typ vocab.Type) []Param { return instanceParams(rs, typ) }

// AtParam returns the results of typ measured with the parameter p alone:
// its instances and operations of that parameter, with the parameter taken
// off, so that what reads one type's rows (a review's trade-off sentence)
// reads one parameter set's as it reads a type's. The rows are copies;
// rs is not modified.
func AtParam(rs *File, typ vocab.Type, p Param) *File {
	out := &File{Schema: rs.Schema, Env: rs.Env}
	for _, r := range rs.Instances {
		if r.Type == typ && r.Param == p {
			r.Param = ""
			out.Instances = append(out.Instances, r)
		}
	}
	for _, tr := range rs.Throughput {
		if tr.Type == typ && tr.Param == p {
			tr.Param = ""
			out.Throughput = append(out.Throughput, tr)
		}
	}
	return out
}
