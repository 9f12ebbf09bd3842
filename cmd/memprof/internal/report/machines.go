package report

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/gate"
	"github.com/memprof/memprof/model"
)

// A review of several machines (memprof report --from a.json --from
// b.json): teams run one suite on several runners (amd64 and arm64, two Go
// versions, cgo on and off). The review is the first machine's, as a
// review of one, and adds:
//
//   - a results file per other machine (results-<machine>.json), so that
//     nothing read is lost;
//   - in each type's table, after a case whose bytes, allocations or slot
//     differ on another machine, a row per other figure, tagged with the
//     machines that measured it;
//   - a "Differs across machines" table of every such case, saying in
//     which environment fields the machines differ (sizes can differ
//     across architectures, Go versions and cgo), and the time of every
//     operation on each machine;
//   - one environment section per machine.

// Machine is one runner's results in a review of several.
type Machine struct {
	// Name is the machine's env.machine, else the file's name; names are
	// unique within a review (NameMachines).
	Name string
	// Source is the file the results were read from.
	Source  string
	Results *model.Results
}

// NameMachines names the machines of the results read from files (in
// that order): each by its env.machine, or, when the file does not record
// one, by the file's name without .json; two machines of one name (one
// runner, two Go versions) are told apart by their files' names.
func NameMachines(files []string, results []*model.Results) []Machine {
	ms := make([]Machine, len(files))
	for i, f := range files {
		name := results[i].Env.Machine
		if name == "" {
			name = strings.TrimSuffix(filepath.Base(f), ".json")
		}
		ms[i] = Machine{Name: name, Source: f, Results: results[i]}
	}
	dup := make([]bool, len(ms))
	for i := range ms {
		for j := range ms {
			dup[i] = dup[i] || (j != i && ms[j].Name == ms[i].Name)
		}
	}
	for i := range ms {
		if dup[i] {
			ms[i].Name += " (" + filepath.Base(ms[i].Source) + ")"
		}
	}
	return ms
}

// MachineFile is the name of the results file of a machine other than
// the first in a review.
func MachineFile(name string) string {
	return "results-" + strings.TrimSuffix(strings.TrimPrefix(TradeoffFile(name), tradeoffStart), ".svg") + ".json"
}

// isMachineFile reports whether name is a MachineFile.
func isMachineFile(name string) bool {
	return strings.HasPrefix(name, "results-") && strings.HasSuffix(name, ".json")
}

// machines is what a review of several machines knows of them: empty for
// a review of one.
type machines []Machine

// several reports whether the review covers more than one machine.
func (ms machines) several() bool { return len(ms) > 1 }

// figures are what must be equal for a case to be "the same" on two
// machines: its exact per-instance figures.
type figures struct {
	bytes, allocs, slot float64
	failed              bool
}

func figuresOf(r *model.Result) figures {
	return figures{r.BytesPerInstance, r.AllocsPerInstance, r.SlotBytes, r.Error != ""}
}

// instance returns machine m's row of case k, or nil.
func instance(m Machine, k model.Key) *model.Result {
	for i := range m.Results.Instances {
		if m.Results.Instances[i].Key == k {
			return &m.Results.Instances[i]
		}
	}
	return nil
}

// variants returns, for the first machine's case r, the rows of the
// other machines whose figures differ from r's, one per distinct figure,
// each with the names of the machines that measured it; nil when every
// machine that measured the case agrees.
func (ms machines) variants(r model.Result) []variant {
	var out []variant
	for _, m := range ms[1:] {
		o := instance(m, r.Key)
		if o == nil || figuresOf(o) == figuresOf(&r) {
			continue
		}
		i := slices.IndexFunc(out, func(v variant) bool { return figuresOf(&v.row) == figuresOf(o) })
		if i < 0 {
			out = append(out, variant{row: *o})
			i = len(out) - 1
		}
		out[i].machines = append(out[i].machines, m.Name)
	}
	return out
}

// variant is one machine's (or several's) figures of a case.
type variant struct {
	row      model.Result
	machines []string
}

// differing returns every case measured on some machine whose figures
// differ between machines or that some machines did not measure, in the
// one ordering.
func (ms machines) differing() []model.Key {
	var keys []model.Key
	for _, m := range ms {
		for _, r := range m.Results.Instances {
			if !slices.Contains(keys, r.Key) {
				keys = append(keys, r.Key)
			}
		}
	}
	slices.SortStableFunc(keys, model.Compare)
	var out []model.Key
	for _, k := range keys {
		var first *figures
		differs := false
		for _, m := range ms {
			r := instance(m, k)
			if r == nil {
				differs = true
				break
			}
			f := figuresOf(r)
			if first == nil {
				first = &f
			} else if f != *first {
				differs = true
			}
		}
		if differs {
			out = append(out, k)
		}
	}
	return out
}

// cell is machine m's figure of case k for the differs table.
func cell(m Machine, k model.Key) string {
	r := instance(m, k)
	switch {
	case r == nil:
		return "not measured"
	case r.Error != "":
		return "failed"
	}
	return model.FormatFigure(r.BytesPerInstance) + " B, " + model.FormatFigure(r.AllocsPerInstance) + " allocs"
}

// writeSources writes the header's list of the files and machines.
func (ms machines) sources() string {
	var parts []string
	for _, m := range ms {
		parts = append(parts, "`"+m.Source+"` (machine **"+m.Name+"**)")
	}
	return strings.Join(parts, ", ")
}

// writeMachines writes the section of a review of several machines: how
// to read it, the cases that differ and where the machines differ, and
// the time of every operation on each machine.
func (ms machines) write(mw *render.MarkdownWriter) {
	if !ms.several() {
		return
	}
	mw.Line("## Machines")
	mw.Line("")
	mw.Printf("This review merges the results of %d machines. Its tables are those of **%s**; a row tagged with machines shows their figures for a case where they differ from %s's, and untagged rows are the same on every machine that measured them (their times are %s's). Each machine's results file is in this review.\n",
		len(ms), ms[0].Name, ms[0].Name, ms[0].Name)
	mw.Printf("\n### Differs across machines\n\n")
	diff := ms.differing()
	if len(diff) == 0 {
		mw.Printf("Bytes, allocations and slot per instance are the same on every machine, for every case.\n\n")
	} else {
		mw.Printf("Every case whose bytes, allocations or slot per instance differ between machines, or that some machine did not measure. " +
			"Sizes can differ across architectures, Go versions and cgo; the last column says in what the machines that disagree differ.\n\n")
		t := render.MarkdownTable{Header: []string{"case"}}
		for _, m := range ms {
			t.Header = append(t.Header, m.Name)
		}
		t.Header = append(t.Header, "the machines differ in")
		for _, k := range diff {
			row := []string{k.String()}
			for _, m := range ms {
				row = append(row, cell(m, k))
			}
			row = append(row, ms.envDiffer(k))
			t.Rows = append(t.Rows, row)
		}
		mw.Table(t)
		mw.Line("")
	}
	ms.writeTimes(mw)
}

// envDiffer says in which environment fields the machines whose figures
// of case k differ from the first's (or from the first that measured it)
// differ from it, and why a machine that did not measure it did not.
func (ms machines) envDiffer(k model.Key) string {
	var ref *Machine
	var fields []string
	for i := range ms {
		r := instance(ms[i], k)
		if r == nil {
			why := "not measured on " + ms[i].Name
			for _, u := range ms[i].Results.Unavailable {
				if u.Key == k {
					why += " (n/a: " + u.Reason + ")"
				}
			}
			fields = append(fields, why)
			continue
		}
		if ref == nil {
			ref = &ms[i]
			continue
		}
		if figuresOf(r) == figuresOf(instance(*ref, k)) {
			continue
		}
		for _, d := range gate.EnvDiffs(ref.Results.Env, ms[i].Results.Env) {
			f := fmt.Sprintf("%s (%s %s, %s %s)", d.Field, ref.Name, dash(d.Base), ms[i].Name, dash(d.Head))
			if !slices.Contains(fields, f) {
				fields = append(fields, f)
			}
		}
	}
	if len(fields) == 0 {
		return "nothing recorded (same environment)"
	}
	return strings.Join(fields, "; ")
}

// writeTimes writes the median time of every operation on each machine.
func (ms machines) writeTimes(mw *render.MarkdownWriter) {
	var keys []model.Key
	for _, m := range ms {
		for _, t := range m.Results.Throughput {
			if !slices.Contains(keys, t.Key) {
				keys = append(keys, t.Key)
			}
		}
	}
	if len(keys) == 0 {
		return
	}
	slices.SortStableFunc(keys, model.Compare)
	mw.Line("### Time per operation on each machine")
	mw.Line("")
	mw.Line("Medians of wall time per call; a time depends on the machine, so these differ by design.")
	mw.Line("")
	t := render.MarkdownTable{Header: []string{"operation"}, Right: []bool{false}}
	for _, m := range ms {
		t.Header = append(t.Header, m.Name)
		t.Right = append(t.Right, true)
	}
	for _, k := range keys {
		row := []string{k.String()}
		for _, m := range ms {
			i := slices.IndexFunc(m.Results.Throughput, func(r model.ThroughputRow) bool { return r.Key == k })
			switch {
			case i < 0:
				row = append(row, "-")
			case m.Results.Throughput[i].Error != "":
				row = append(row, "failed")
			default:
				row = append(row, model.FormatNs(m.Results.Throughput[i].NsPerOpMedian))
			}
		}
		t.Rows = append(t.Rows, row)
	}
	mw.Table(t)
	mw.Line("")
}

// writeEnvs writes one environment section per machine.
func (ms machines) writeEnvs(mw *render.MarkdownWriter) {
	for _, m := range ms {
		mw.Printf("### %s\n", m.Name)
		mw.Line("")
		mw.Printf("From `%s`.\n", m.Source)
		mw.Line("")
		writeEnv(mw, m.Results.Env)
		mw.Line("")
	}
}

// tagColumn puts the machine column in front of a type's table of a
// review of several machines: variantRows' rows name their machines
// (they have a cell more), the first machine's rows of a case that
// differs name it, the other rows nothing.
func (ms machines) tagColumn(t *render.MarkdownTable) {
	if !ms.several() {
		return
	}
	t.Header = append([]string{"machine"}, t.Header...)
	t.Right = append([]bool{false}, t.Right...)
	for i := range t.Rows {
		if len(t.Rows[i]) == len(t.Header) {
			continue // a variant: tagged already
		}
		tag := ""
		if i+1 < len(t.Rows) && len(t.Rows[i+1]) == len(t.Header) {
			tag = ms[0].Name // followed by its variants
		}
		t.Rows[i] = append([]string{tag}, t.Rows[i]...)
	}
}

// variantRows returns the rows of a type's table for the other machines'
// figures of case r, each tagged with its machines, with their times.
func (ms machines) variantRows(r model.Result, ops []render.KeyOp, typ model.Type) [][]string {
	if !ms.several() {
		return nil
	}
	var rows [][]string
	for _, v := range ms.variants(r) {
		o := v.row
		cells := []string{strings.Join(v.machines, ", "), string(o.Lib), string(o.Repr), string(o.Layout)}
		if o.Error != "" {
			cells = append(cells, "failed", "-", "-", "-")
		} else {
			cells = append(cells, model.FormatFigure(o.BytesPerInstance), model.FormatFigure(o.AllocsPerInstance), model.FormatFigure(o.SlotBytes), mb(o.BytesPerInstance))
		}
		m := ms[slices.IndexFunc(ms, func(m Machine) bool { return m.Name == v.machines[0] })]
		for _, op := range ops {
			cells = append(cells, opCell(m.Results, typ, o.Lib, o.Repr, op))
		}
		rows = append(rows, cells)
	}
	return rows
}
