// Package testresults makes large, valid results files and budgets files
// for the tests and benchmarks that bound what reading, checking,
// comparing, exporting and reporting cost: the rows of the fixture of a
// real run (fixtures/results/results.json), repeated and told apart by a
// parameter row=I, so that every row is a distinct, valid case.
package testresults

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/memprof/memprof/model"
)

// FixturePath is the results file the rows are copied from.
func FixturePath() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "fixtures", "results", "results.json")
}

// Param is the parameter that tells row i apart.
func Param(i int) model.Param { return model.NewParam("row", i) }

// Make returns a valid results file of rows rows: instance and throughput
// rows of the fixture, in the fixture's proportion, each the fixture's row
// with the parameter row=I. Throughput rows get samples samples (at least
// 4, so that compare judges them), their summary recomputed. The
// agreement check is the fixture's. Each call returns a new value.
func Make(rows, samples int) (*model.Results, error) {
	fx, err := model.ReadResultsFile(FixturePath())
	if err != nil {
		return nil, err
	}
	samples = max(samples, 4)
	out := &model.Results{Schema: model.Schema, Env: fx.Env, Method: fx.Method, Agreement: fx.Agreement}
	ni, nt := len(fx.Instances), len(fx.Throughput)
	for i := 0; i < rows; i++ {
		j := i % (ni + nt)
		if j < ni {
			r := fx.Instances[j]
			r.Param = Param(i)
			r.Sites = append([]model.Site(nil), r.Sites...)
			out.Instances = append(out.Instances, r)
			continue
		}
		t := fx.Throughput[j-ni]
		t.Param = Param(i)
		if t.Error == "" {
			base := t.NsPerOpMedian
			t.SamplesNs = make([]float64, samples)
			t.SamplesIters = nil
			for k := range t.SamplesNs {
				t.SamplesNs[k] = base * (1 + float64(k%7)/100)
			}
			t.Samples = samples
			q, err := model.SummarizeSamples(t.SamplesNs)
			if err != nil {
				return nil, err
			}
			t.NsPerOpMedian, t.NsPerOpQ1, t.NsPerOpQ3 = q.Median, q.Q1, q.Q3
		}
		out.Throughput = append(out.Throughput, t)
	}
	return out, nil
}

// Budgets returns a budgets file of one budget per row of rs (every n-th
// row when every > 1): a bytes and allocations budget for an instance
// row, a time budget for an operation, each selecting its row by its
// parameter and set to its figures.
func Budgets(rs *model.Results, every int) []byte {
	every = max(every, 1)
	var b strings.Builder
	b.WriteString("version: 1\nbudgets:\n")
	for i, r := range rs.Instances {
		if i%every != 0 || r.Error != "" {
			continue
		}
		fmt.Fprintf(&b, "  - select: {type: %s, lib: %s, repr: %s, layout: %s, param: %s}\n    max_bytes_per_instance: %gB\n    max_allocs_per_instance: %g\n    owner: t\n    reason: r\n",
			r.Type, r.Lib, r.Repr, r.Layout, r.Param, r.BytesPerInstance, r.AllocsPerInstance)
	}
	for i, t := range rs.Throughput {
		if i%every != 0 || t.Error != "" {
			continue
		}
		fmt.Fprintf(&b, "  - select: {type: %s, lib: %s, repr: %s, op: %s, param: %s}\n    max_ns_per_op: %gns\n    owner: t\n    reason: r\n",
			t.Type, t.Lib, t.Repr, t.Op, t.Param, t.NsPerOpQ3*2)
	}
	return []byte(b.String())
}
