// Package testresults makes large, valid results files and budgets files
// for the tests and benchmarks that bound what reading, checking,
// comparing, exporting and reporting cost: the rows of the fixture of a
// real run (fixtures/results/results.json), repeated and told apart by a
// parameter row=I, so that every row is a distinct, valid case, each
// instance row with the GC figures a run writes today (the fixture
// predates them; they come from fixtures/docs/signature.json).
package testresults

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/stats"
	"github.com/memprof/memprof/vocab"
)

// FixturePath is the results file the rows are copied from.
func FixturePath() string { return fixture("results", "results.json") }

// GCFixturePath is the results file the instance rows' GC figures are
// copied from: a run that wrote them.
func GCFixturePath() string { return fixture("docs", "signature.json") }

func fixture(elem ...string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(append([]string{filepath.Dir(file), "..", "..", "fixtures"}, elem...)...)
}

// withGCFigures copies the GC pass's figures (mark and CPU time, their
// samples, quartiles and resolutions) of from into r, which has none.
func withGCFigures(r *results.Row, from *results.Row) {
	if r.Error != "" || len(r.GCMarkSamplesNs) > 0 || len(r.GCCPUSamplesNs) > 0 {
		return
	}
	r.GCMarkNsPerInstance, r.GCMarkNsPerInstanceQ1, r.GCMarkNsPerInstanceQ3 = from.GCMarkNsPerInstance, from.GCMarkNsPerInstanceQ1, from.GCMarkNsPerInstanceQ3
	r.GCMarkSamplesNs, r.GCMarkResolution = append([]float64(nil), from.GCMarkSamplesNs...), from.GCMarkResolution
	r.GCCPUNsPerInstance, r.GCCPUNsPerInstanceQ1, r.GCCPUNsPerInstanceQ3 = from.GCCPUNsPerInstance, from.GCCPUNsPerInstanceQ1, from.GCCPUNsPerInstanceQ3
	r.GCCPUSamplesNs, r.GCCPUResolution = append([]float64(nil), from.GCCPUSamplesNs...), from.GCCPUResolution
}

// Param is the parameter that tells row i apart.
func Param(i int) results.Param { return results.NewParam("row", i) }

// Make returns a valid results file of rows rows: instance and throughput
// rows of the fixture, in the fixture's proportion, the first copy of each
// the fixture's row, the others told apart by the parameter row=I; each
// instance row carries the GC figures of a row of GCFixturePath, in turn.
// Throughput rows get samples samples (at least 4, so that compare judges
// them), their summary recomputed. The agreement check is the fixture's.
// Each call returns a new value.
func Make(rows, samples int) (*results.File, error) {
	fx, err := results.ReadFile(FixturePath())
	if err != nil {
		return nil, err
	}
	gc, err := results.ReadFile(GCFixturePath())
	if err != nil {
		return nil, err
	}
	samples = max(samples, 4)
	out := &results.File{Schema: results.Schema, Env: fx.Env, Method: fx.Method, Agreement: fx.Agreement}
	ni, nt := len(fx.Instances), len(fx.Throughput)
	for i := 0; i < rows; i++ {
		j := i % (ni + nt)
		first := i < ni+nt
		if j < ni {
			r := fx.Instances[j]
			if !first {
				r.Param = Param(i)
			}
			r.Sites = append([]measure.Site(nil), r.Sites...)
			withGCFigures(&r, &gc.Instances[len(out.Instances)%len(gc.Instances)])
			out.Instances = append(out.Instances, r)
			continue
		}
		t := fx.Throughput[j-ni]
		if !first {
			t.Param = Param(i)
		}
		if t.Error == "" {
			base := t.NsPerOpMedian
			t.SamplesNs = make([]float64, samples)
			t.SamplesIters = nil
			for k := range t.SamplesNs {
				t.SamplesNs[k] = base * (1 + float64(k%7)/100)
			}
			t.Samples = samples
			// The per-sample figures, one per sample again, taken in turn
			// from the fixture's.
			t.SamplesBytesPerOp = cycle(t.SamplesBytesPerOp, samples)
			t.SamplesAllocsPerOp = cycle(t.SamplesAllocsPerOp, samples)
			q, err := stats.SummarizeSamples(t.SamplesNs)
			if err != nil {
				return nil, err
			}
			t.NsPerOpMedian, t.NsPerOpQ1, t.NsPerOpQ3 = q.Median, q.Q1, q.Q3
		}
		out.Throughput = append(out.Throughput, t)
	}
	return out, nil
}

// cycle returns n values taken in turn from vs, or nil when vs is empty
// (a file written before the per-sample figures).
func cycle(vs []float64, n int) []float64 {
	if len(vs) == 0 {
		return nil
	}
	out := make([]float64, n)
	for k := range out {
		out[k] = vs[k%len(vs)]
	}
	return out
}

// Budgets returns a budgets file of a bytes and allocations budget per
// case of the instance rows of rs that a registry knows: each selecting
// the case by its type, lib, repr, layout, and scheme and parameter where
// it has them (not a row=I parameter of Make's copies, which the budget
// selects with their case), set to the largest figures it selects. The
// selections are complete: check's registry has every case.
func Budgets(rs *results.File) []byte {
	type limits struct {
		line          string
		bytes, allocs float64
	}
	var order []string
	byCase := map[string]*limits{}
	for _, r := range rs.Instances {
		if r.Error != "" || r.IsCustom() {
			continue
		}
		sel := fmt.Sprintf("type: %s, lib: %s, repr: %s, layout: %s", r.Type, r.Lib, r.Repr, r.Layout)
		if r.Scheme != "" {
			sel += ", scheme: " + string(r.Scheme)
		}
		if name, _ := r.Param.Split(); r.Param != "" && name != "row" {
			sel += ", param: " + string(r.Param)
		}
		l := byCase[sel]
		if l == nil {
			l = &limits{line: sel}
			byCase[sel] = l
			order = append(order, sel)
		}
		l.bytes, l.allocs = max(l.bytes, r.BytesPerInstance), max(l.allocs, r.AllocsPerInstance)
	}
	var b strings.Builder
	b.WriteString("version: 1\nbudgets:\n")
	for _, sel := range order {
		l := byCase[sel]
		fmt.Fprintf(&b, "  - select: {%s}\n    max_bytes_per_instance: %gB\n    max_allocs_per_instance: %g\n    owner: t\n    reason: r\n", sel, l.bytes, l.allocs)
	}
	return []byte(b.String())
}

// RowBudgets returns a budgets file of one budget per row of rs with a
// parameter (every n-th row when every > 1): a bytes and allocations budget for an
// instance row, a time budget for an operation, each selecting its row by
// its parameter and set to its figures. Its selections are complete only
// without a registry (gate.Check with no CheckOptions.Registry): the
// row=I parameters are Make's own.
func RowBudgets(rs *results.File, every int) []byte {
	every = max(every, 1)
	var b strings.Builder
	b.WriteString("version: 1\nbudgets:\n")
	for i, r := range rs.Instances {
		if i%every != 0 || r.Error != "" || r.Param == "" {
			continue
		}
		fmt.Fprintf(&b, "  - select: {type: %s, lib: %s, repr: %s, layout: %s, param: %s}\n    max_bytes_per_instance: %gB\n    max_allocs_per_instance: %g\n    owner: t\n    reason: r\n",
			r.Type, r.Lib, r.Repr, r.Layout, r.Param, r.BytesPerInstance, r.AllocsPerInstance)
	}
	for i, t := range rs.Throughput {
		if i%every != 0 || t.Error != "" || t.Param == "" {
			continue
		}
		fmt.Fprintf(&b, "  - select: {type: %s, lib: %s, repr: %s, op: %s, param: %s}\n    max_ns_per_op: %gns\n    owner: t\n    reason: r\n",
			t.Type, t.Lib, t.Repr, t.Op, t.Param, t.NsPerOpQ3*2)
	}
	return []byte(b.String())
}

// Shape is how the rows of a made results file look: the hostile shapes
// cost the most of what the reader's limits allow.
type Shape string

// The shapes.
const (
	// Realistic rows are the fixture's (Make).
	Realistic Shape = "realistic"
	// Minimal rows hold the fewest fields a valid row has: the most rows
	// per byte.
	Minimal Shape = "minimal"
	// LongLists are few operation rows of thousands of samples each, and
	// one instance row, keeping some two fifths of what the rows of a
	// file at the row limit may keep (results.RetainedPerRow): decoding
	// grows a list up to twice its length, which the reader counts.
	LongLists Shape = "long-lists"
	// LongStrings are instance rows with long constructors, keeping nine
	// tenths of what the rows may keep.
	LongStrings Shape = "long-strings"
	// ManyColumns are instance rows at distinct N, operations at distinct
	// batches and KZG contexts and operations at distinct settings: the
	// widest tables a review could be asked for.
	ManyColumns Shape = "many-columns"
)

// Shapes lists every shape.
var Shapes = []Shape{Realistic, Minimal, LongLists, LongStrings, ManyColumns}

// MakeShape returns a valid results file of about rows rows of shape s.
func MakeShape(rows int, s Shape) (*results.File, error) {
	if s == Realistic {
		return Make(rows, 8)
	}
	fx, err := results.ReadFile(FixturePath())
	if err != nil {
		return nil, err
	}
	out := &results.File{Schema: results.Schema, Env: fx.Env}
	inst := func(i int, typ vocab.Type, lib vocab.Lib, repr vocab.Repr) results.Row {
		return results.Row{Key: results.Key{Type: typ, Lib: lib, Repr: repr, Layout: measure.Pointer, Param: Param(i)},
			Measurement: measure.Measurement{N: 1000, BytesPerInstance: 96, AllocsPerInstance: 1}}
	}
	op := func(i int, typ vocab.Type, lib vocab.Lib, repr vocab.Repr, o vocab.Op, samples []float64) (results.ThroughputRow, error) {
		q, err := stats.SummarizeSamples(samples)
		t := results.ThroughputRow{Key: results.Key{Type: typ, Lib: lib, Repr: repr, Op: o, Batch: 1, Param: Param(i)},
			Timing: measure.Timing{Samples: len(samples), SamplesNs: samples, NsPerOpMedian: q.Median, NsPerOpQ1: q.Q1, NsPerOpQ3: q.Q3}}
		return t, err
	}
	retained := float64(results.DefaultMaxRows) * results.RetainedPerRow * 0.9 * float64(rows) / float64(results.DefaultMaxRows)
	switch s {
	case Minimal:
		for i := range rows {
			if i%2 == 0 {
				out.Instances = append(out.Instances, inst(i, vocab.G1, vocab.Gnark, vocab.Affine))
				continue
			}
			t, err := op(i, vocab.G1, vocab.Gnark, vocab.Affine, vocab.Op("verify"), []float64{1, 1, 1, 1})
			if err != nil {
				return nil, err
			}
			out.Throughput = append(out.Throughput, t)
		}
	case LongLists:
		out.Instances = append(out.Instances, inst(0, vocab.G1, vocab.Gnark, vocab.Affine))
		n := max(rows/50, 1)
		per := int(retained * 0.45 / float64(n) / 8)
		for i := range n {
			samples := make([]float64, per)
			for j := range samples {
				samples[j] = float64(1 + j%9)
			}
			t, err := op(i+1, vocab.G1, vocab.Gnark, vocab.Affine, vocab.Op("verify"), samples)
			if err != nil {
				return nil, err
			}
			out.Throughput = append(out.Throughput, t)
		}
	case LongStrings:
		n := max(rows/2, 1)
		l := int(retained/float64(n)) - 700 // the row's own size and its other strings
		for i := range n {
			r := inst(i, vocab.G1, vocab.Gnark, vocab.Affine)
			r.Constructor = strings.Repeat("x", max(l, 1))
			out.Instances = append(out.Instances, r)
		}
	case ManyColumns:
		for i := range rows {
			switch i % 4 {
			case 0:
				r := inst(i, vocab.G1, vocab.Gnark, vocab.Affine)
				r.N = i + 1
				out.Instances = append(out.Instances, r)
			case 1:
				t, err := op(i, vocab.G1, vocab.Gnark, vocab.Affine, vocab.Op("verify"), []float64{1, 2, 3, 4})
				if err != nil {
					return nil, err
				}
				t.Batch = i + 1
				out.Throughput = append(out.Throughput, t)
			case 2:
				r := inst(i, vocab.KZGContext, vocab.Lib("ckzg"), vocab.Decoded)
				r.Layout, r.N = measure.Single, 1
				out.Instances = append(out.Instances, r)
			case 3:
				t, err := op(i, vocab.KZGContext, vocab.Lib("ckzg"), vocab.Decoded, vocab.ComputeCellsAndProofs, []float64{1, 2, 3, 4})
				if err != nil {
					return nil, err
				}
				t.Param, t.Batch = Param(i-1), i
				out.Throughput = append(out.Throughput, t)
			}
		}
	default:
		return nil, fmt.Errorf("unknown shape %q", s)
	}
	return out, out.Validate()
}
