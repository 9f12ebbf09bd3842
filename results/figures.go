package results

import (
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/memprof/memprof/measure"
)

// A figure is one measured quantity of a results row: bytes per instance,
// GC scan bytes, the median time of an operation. Figures (registry.go)
// is the one list of them, one entry each: its description
// (measure.Figure: name, unit, resolution, samples, budget and judgement,
// compare and export names) and how its row carries it (this type's own
// fields). The results reader validates each figure by its entry, Columns
// gives it a column (n/a when unknown, ~0 within its resolution), the gate
// budgets and compares it by it, and export writes it by it, so a figure
// added later is added once.
//
// # Adding a figure
//
//  1. Add the field to its row's struct with its JSON name, in
//     results.go: Measurement for a figure of instances, Timing for one of
//     operations. A float64 (int and int64 work too, and *float64 for a
//     figure the engine may not read); no omitempty unless 0 means "not
//     recorded" by the writer's contract (see below).
//  2. Add one entry to registry in registry.go, where its column should
//     sit: {Row: RowInstances, Figure: measure.Figure{...}}. Name is the
//     JSON name of step 1 (the entry finds the field by it); Row, Title,
//     Unit and Obtained are required. Set Signed for a difference of
//     readings, Resolution for a figure known only to within another
//     figure, Budget and Judge for a budget key (max_...), Compare for
//     compare, Dashboard, Bencher and Bench for the exports. A median of
//     a list of samples is measure.Sampled(measure.Figure{...}, "list"):
//     its quartiles (name_q1, name_q3) follow from the one entry.
//  3. Optionally, its column's labels and default formats in figureShows
//     (columns.go); without them it is labelled by its name and shown by
//     --wide tables, the CSV and the JSON. A column that is not a figure
//     (its samples list, the reason a row lacks it) goes in columnsAfter.
//  4. Make the engine (memprof/) produce it.
//  5. Rewrite the golden files the new column or entry shows in: go test
//     ./gate ./export ./cmd/memprof/internal/... -update, and review the
//     diff.
//
// Nothing else changes: the reader validates the figure, the tables and
// the CSV show it, a budget key becomes a limit of the gate
// (gate.Metrics; check's help lists it), Compare makes compare judge it,
// the export names make the dashboards chart it. TestEveryJSONFieldHasAColumn
// and TestFiguresWellFormed fail until steps 1 and 2 agree. The GC CPU
// time per instance, for example, is
//
//	{Row: RowInstances, NeedsSamples: true, Reason: "gc_cpu_unavailable", Absent: "the results predate the GC CPU figures",
//		Figure: measure.Sampled(measure.Figure{Name: "gc_cpu_ns_per_instance",
//			Title: "GC CPU time per instance per cycle", Unit: units.Nanoseconds, Signed: true, Obtained: "...",
//			Resolution: "gc_cpu_resolution_ns_per_instance",
//			Budget: "max_gc_cpu_ns_per_instance", Judge: measure.JudgeNoise}, "gc_cpu_samples_ns")},
//
// with its resolution (a figure of its own, with Samples and
// NeedsSamples) beside it: one entry for the figure and its quartiles,
// one for its resolution, one budget key.
//
// # The rule
//
// A figure that is present must be finite and in its range (non-negative
// unless Signed, whole for an integer field), or the file is refused. A
// figure that is absent (missing, or JSON null) is unknown, never 0: a
// valid older file may predate it. Value reports it unknown; tables show
// n/a; exports leave it out; a budget on it is an error; compare reports it
// missing; the writer leaves it out again. A Required figure is never
// absent from a measured row: the file is refused. A field written with
// omitempty is absent when 0 by the writer's contract, so there its
// absence is 0; ZeroMeans says when 0 itself means "not recorded".
type Figure struct {
	// Figure is the figure's description, whatever row carries it: name,
	// title, unit, how obtained, resolution, samples, budget key and
	// judgement, compare metric, export names.
	measure.Figure

	// Row is the kind of row that carries it: RowInstances or
	// RowThroughput.
	Row RowKind

	// Required: a measured row (no error) must carry the figure, a number
	// and not null; a file whose row lacks it is refused.
	Required bool
	// ZeroMeans says what a 0 means (by default, 0).
	ZeroMeans ZeroMeaning

	// Tables show a figure within its Resolution as ~0, and the gate
	// warns on an excess within it (measure.JudgeResolution). With
	// NeedsResolution the figure is unknown where its resolution is (a
	// file older than it); with ResolutionBound it is unresolved
	// (NTooSmall) where the resolution exceeds what one instance keeps.
	NeedsResolution bool
	ResolutionBound bool

	// The reader refuses a summary (Summary) that is not that of its
	// Samples, and the gate judges the samples, not the summary. With
	// NeedsSamples the figure is unknown where the list is empty (the
	// writer writes 0 then), and a non-zero summary without samples is
	// refused.
	NeedsSamples bool
	// PerSample names the list of the figure's value in each sample of a
	// timed row (samples_bytes_per_op for bytes_per_op), one per sample of
	// samples_ns, of which the figure is the mean over all calls, not a
	// summary: the reader checks its length and range, and the benchmark
	// format writes it per sample where it varies (Timing.AllocsVary).
	PerSample string

	// Absent says why a row may lack the figure, for the gate's errors
	// ("the results predate the GC figures"); Reason names a text field of
	// the row that says why this row lacks it (c_heap_unavailable).
	Absent string
	Reason string

	// PerGOMAXPROCS: where the row says its allocations depend on the
	// cores (allocs_depend_on_gomaxprocs), a budget on the figure holds
	// for the GOMAXPROCS it names only.
	PerGOMAXPROCS bool

	// Set from the row's struct type when Figures is built.
	id           int
	index        []int // the field in the row type
	kind         reflect.Kind
	omitEmpty    bool
	samplesIndex []int // the Samples list's field
	perSample    []int // the PerSample list's field
	reasonIndex  []int // the Reason text's field
	res          *Figure
	// bound, for a resolution figure, is what the engine writes of it in
	// a row (ResolutionBounds).
	bound func(*measure.Measurement) ResolutionBound
}

// ZeroMeaning says what a figure's 0 means.
type ZeroMeaning uint8

// The meanings of 0.
const (
	// ZeroIsMeasured: 0 is a measurement like any other.
	ZeroIsMeasured ZeroMeaning = iota
	// ZeroIsUnknown: the writer writes 0 where it did not measure the
	// figure (a file older than it); the figure is then unknown.
	ZeroIsUnknown
	// ZeroIsNotApplicable: 0 means the figure does not apply to the row
	// (a build time of a case that builds many objects); tables show -.
	ZeroIsNotApplicable
)

// The figures the columns' own readers and the validator need, and the
// figures of each kind of row.
var (
	nsMedian, nsQ1, nsQ3 = FigureNamed("ns_per_op_median"), FigureNamed("ns_per_op_q1"), FigureNamed("ns_per_op_q3")
	samples              = FigureNamed("samples")
	instanceFigures      = FiguresOf(RowInstances)
	throughputFigures    = FiguresOf(RowThroughput)
)

// FigureRow is a row that carries figures: a *Row or a
// *ThroughputRow.
type FigureRow interface {
	figureRow() (row reflect.Value, st *figureState, failed bool)
}

func (r *Row) figureRow() (reflect.Value, *figureState, bool) {
	return reflect.ValueOf(r).Elem(), &r.figures, r.Error != ""
}

func (r *ThroughputRow) figureRow() (reflect.Value, *figureState, bool) {
	return reflect.ValueOf(r).Elem(), &r.figures, r.Error != ""
}

// figureState is what a row records of its figures beyond their values:
// which were absent from the file it was read from (unknown), which were
// null (a kind of absent a required figure's message names), and which
// were not numbers. The zero value, a row built in memory, has every
// figure.
type figureState struct {
	absent, null figureSet
	// omitted: the file lacked a figure its writer leaves out when 0, so
	// 0 it is; the reader names it missing where 0 contradicts the rest
	// of the row (a summary without its value beside its samples).
	omitted figureSet
	bad     []badFigure
}

// figureSet is a set of the figures of one kind of row, by id.
type figureSet uint64

func (s figureSet) has(f *Figure) bool { return s&(1<<f.id) != 0 }
func (s *figureSet) add(f *Figure)     { *s |= 1 << f.id }

// badFigure is a figure whose JSON value is not what it must be: a
// string, or a number an integer field cannot hold.
type badFigure struct {
	f    *Figure
	text string // the value as written, shortened
	want string // "a number", "a whole number"
}

// Value returns f's value in row and whether it is known. It is unknown
// in a row that failed to measure, where the file lacked it, where the
// engine did not measure it (a nil *float64, a 0 that ZeroMeans makes
// "not recorded", a resolution or samples it needs that the row lacks).
// row must be of f's kind.
func (f *Figure) Value(row FigureRow) (float64, bool) {
	rv, st, failed := row.figureRow()
	if failed || st.absent.has(f) {
		return 0, false
	}
	v, ok := f.raw(rv)
	switch {
	case !ok:
		return 0, false
	case v == 0 && f.ZeroMeans != ZeroIsMeasured:
		return 0, false
	case f.NeedsSamples && len(f.samples(rv)) == 0:
		return 0, false
	case f.NeedsResolution:
		if r, ok := f.resolution().Value(row); !ok || r <= 0 {
			return 0, false
		}
	}
	return v, true
}

// ResolutionOf returns f's resolution in row, 0 when f is exact or the
// row does not record it.
func (f *Figure) ResolutionOf(row FigureRow) float64 {
	if f.Resolution == "" {
		return 0
	}
	r, _ := f.resolution().Value(row)
	return r
}

// SamplesOf returns the samples f summarizes in row (nil without them).
// The slice is row's.
func (f *Figure) SamplesOf(row FigureRow) []float64 {
	if f.Samples == "" {
		return nil
	}
	rv, _, _ := row.figureRow()
	return f.samples(rv)
}

// Sibling returns the figure of the same samples as f that is statistic
// s (the quartiles of a median), or nil.
func (f *Figure) Sibling(s measure.Summary) *Figure {
	for _, g := range Figures {
		if g.Row == f.Row && g.Samples != "" && g.Samples == f.Samples && g.Summary == s {
			return g
		}
	}
	return nil
}

// Missing says why row lacks f, for a message: "no
// scan_bytes_per_instance: the results predate the GC figures; re-measure
// it with this memprof". It names the samples where the figure lacks
// them, and gives the row's own reason where the figure has one.
func (f *Figure) Missing(row FigureRow) string {
	rv, _, _ := row.figureRow()
	name := f.Name
	if f.NeedsSamples && len(f.samples(rv)) == 0 {
		name = f.Samples
	}
	why := f.Absent
	if f.Reason != "" {
		if s := rv.FieldByIndex(f.reasonIndex).String(); s != "" {
			return "no " + name + ": " + s
		}
		if why == "" {
			return "no " + name + ": not recorded"
		}
	}
	if why == "" {
		why = "the results do not record it"
	}
	return "no " + name + ": " + why + "; re-measure it with this memprof"
}

// Set writes v as f's value in row and makes f known there: a row read
// from a file that lacked f records that, so that assigning the field
// alone leaves f unknown.
func (f *Figure) Set(row FigureRow, v float64) {
	rv, st, _ := row.figureRow()
	f.set(rv, v)
	st.absent &^= 1 << f.id
	st.null &^= 1 << f.id
	st.omitted &^= 1 << f.id
}

// SetUnknown makes f unknown in row, as if the file lacked it (tests
// build such rows; so may a program that merges results).
func (f *Figure) SetUnknown(row FigureRow) {
	_, st, _ := row.figureRow()
	st.absent.add(f)
}

// Known reports whether f is known in row (Value's second result).
func (f *Figure) Known(row FigureRow) bool {
	_, ok := f.Value(row)
	return ok
}

// LookupFigure returns the figure called name (its JSON name); the error
// lists the figures.
func LookupFigure(name string) (*Figure, error) {
	for _, f := range Figures {
		if f.Name == name {
			return f, nil
		}
	}
	var names []string
	for _, f := range Figures {
		names = append(names, f.Name)
	}
	return nil, fmt.Errorf("unknown figure %q: must be one of %s", name, strings.Join(names, ", "))
}

// FigureNamed returns the figure called name; it panics when there is
// none (for package variables naming a figure of the list).
func FigureNamed(name string) *Figure {
	f, err := LookupFigure(name)
	if err != nil {
		panic(err)
	}
	return f
}

// FiguresOf returns the figures of one kind of row, in order.
func FiguresOf(kind RowKind) []*Figure {
	return FiguresWhere(kind, func(*Figure) bool { return true })
}

// FiguresWhere returns the figures of one kind of row that keep keeps, in
// order: those with a Compare metric, an export name, a budget key.
func FiguresWhere(kind RowKind, keep func(*Figure) bool) []*Figure {
	var out []*Figure
	for _, f := range Figures {
		if f.Row == kind && keep(f) {
			out = append(out, f)
		}
	}
	return out
}

// cell is f's cell in row: NotApplicable in a failed row or where 0 means
// so, Unknown where Value says so, else the value in the state its
// resolution gives it.
func (f *Figure) cell(row FigureRow) Cell {
	rv, _, failed := row.figureRow()
	if failed {
		return notApplicable
	}
	if f.ZeroMeans == ZeroIsNotApplicable {
		if v, ok := f.raw(rv); ok && v == 0 {
			return notApplicable
		}
	}
	v, ok := f.Value(row)
	if !ok {
		return Cell{State: Unknown}
	}
	if f.Resolution == "" {
		return exact(v)
	}
	bound := math.Inf(1)
	if r, ok := row.(*Row); ok && f.ResolutionBound {
		bound = instanceBytes(&r.Measurement)
	}
	return resolved(v, f.ResolutionOf(row), bound)
}

// raw reads f's field in the row value rv: false for a nil pointer.
func (f *Figure) raw(rv reflect.Value) (float64, bool) {
	fv := rv.FieldByIndex(f.index)
	switch f.kind {
	case reflect.Float64:
		return fv.Float(), true
	case reflect.Int, reflect.Int64:
		return float64(fv.Int()), true
	case reflect.Pointer:
		if fv.IsNil() {
			return 0, false
		}
		return fv.Elem().Float(), true
	}
	return 0, false
}

// set writes v into f's field of the row value rv.
func (f *Figure) set(rv reflect.Value, v float64) {
	fv := rv.FieldByIndex(f.index)
	switch f.kind {
	case reflect.Float64:
		fv.SetFloat(v)
	case reflect.Int, reflect.Int64:
		fv.SetInt(int64(v))
	case reflect.Pointer:
		p := new(float64) // not &v: v would escape on every call
		*p = v
		fv.Set(reflect.ValueOf(p))
	}
}

func (f *Figure) samples(rv reflect.Value) []float64 {
	if f.samplesIndex == nil {
		return nil
	}
	return rv.FieldByIndex(f.samplesIndex).Interface().([]float64)
}

func (f *Figure) resolution() *Figure { return f.res }

// PerSampleOf returns the figure's value in each sample of row (its
// PerSample list; nil without one, or in a file that predates it). The
// slice is row's.
func (f *Figure) PerSampleOf(row FigureRow) []float64 {
	if f.perSample == nil {
		return nil
	}
	rv, _, _ := row.figureRow()
	return rv.FieldByIndex(f.perSample).Interface().([]float64)
}
