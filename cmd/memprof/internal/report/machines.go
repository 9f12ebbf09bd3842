package report

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
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
	Results *results.File

	index *machineIndex // nil until indexMachines
}

// machineIndex finds a machine's rows by key (the first row of a key, as
// a scan would), so that a review of several machines costs their rows,
// not their rows times one another's.
type machineIndex struct {
	instances   map[results.Key]*results.Row
	throughput  map[results.Key]*results.ThroughputRow
	unavailable map[results.Key][]string // the reasons
	times       *opTimes
}

func newMachineIndex(rs *results.File) *machineIndex {
	ix := &machineIndex{instances: map[results.Key]*results.Row{}, throughput: map[results.Key]*results.ThroughputRow{},
		unavailable: map[results.Key][]string{}, times: newOpTimes(rs)}
	for i := range rs.Instances {
		if k := rs.Instances[i].Key; ix.instances[k] == nil {
			ix.instances[k] = &rs.Instances[i]
		}
	}
	for i := range rs.Throughput {
		if k := rs.Throughput[i].Key; ix.throughput[k] == nil {
			ix.throughput[k] = &rs.Throughput[i]
		}
	}
	for _, u := range rs.Unavailable {
		ix.unavailable[u.Key] = append(ix.unavailable[u.Key], u.Reason)
	}
	return ix
}

// indexMachines returns ms, each machine with its index, when they are
// several (a review of one needs none).
func indexMachines(ms []Machine) machines {
	if len(ms) < 2 {
		return ms
	}
	out := make(machines, len(ms))
	for i, m := range ms {
		m.index = newMachineIndex(m.Results)
		out[i] = m
	}
	return out
}

// indexed returns m's index, building it when m has none.
func (m Machine) indexed() *machineIndex {
	if m.index != nil {
		return m.index
	}
	return newMachineIndex(m.Results)
}

// NameMachines names the machines of the results read from files (in
// that order): each by its env.machine, or, when the file does not record
// one, by the file's name without .json. Machines of one name (one
// runner, two Go versions; CI artifacts all called results.json from
// runners of one host name) are told apart by as much of their files'
// paths as tells them apart ("host (amd64/results.json)"), then by their
// place on the command line ("host #2"), so that every machine has its
// own name and its own results file (MachineFile) in the review.
func NameMachines(files []string, results []*results.File) []Machine {
	ms := make([]Machine, len(files))
	for i, f := range files {
		name := results[i].Env.Machine
		if name == "" {
			name = strings.TrimSuffix(filepath.Base(f), ".json")
		}
		if name == "" {
			name = "machine"
		}
		ms[i] = Machine{Name: name, Source: f, Results: results[i]}
	}
	byName := map[string][]int{}
	for i, m := range ms {
		byName[m.Name] = append(byName[m.Name], i)
	}
	for name, group := range byName {
		if len(group) < 2 {
			continue
		}
		paths := make([]string, len(group))
		for j, i := range group {
			paths[j] = ms[i].Source
		}
		for j, i := range group {
			ms[i].Name = name + " (" + paths[j] + ")"
			if tail := distinctTails(paths); tail != nil {
				ms[i].Name = name + " (" + tail[j] + ")"
			}
		}
	}
	// Names still shared (one file given twice), or files whose names
	// coincide once made safe for a file name: numbered.
	seenName, seenFile := map[string]bool{}, map[string]bool{}
	for i := range ms {
		base := ms[i].Name
		for n := 2; seenName[ms[i].Name] || seenFile[MachineFile(ms[i].Name)]; n++ {
			ms[i].Name = base + " #" + strconv.Itoa(n)
		}
		seenName[ms[i].Name], seenFile[MachineFile(ms[i].Name)] = true, true
	}
	return ms
}

// distinctTails returns, for paths, the shortest ends of them (whole
// path components) that differ from one another, or nil when two paths
// are the same.
func distinctTails(paths []string) []string {
	split := make([][]string, len(paths))
	most := 0
	for i, p := range paths {
		split[i] = strings.Split(filepath.ToSlash(filepath.Clean(p)), "/")
		most = max(most, len(split[i]))
	}
	for k := 1; k <= most; k++ {
		tails := make([]string, len(paths))
		seen := map[string]bool{}
		unique := true
		for i, parts := range split {
			tails[i] = strings.Join(parts[max(0, len(parts)-k):], "/")
			unique = unique && !seen[tails[i]]
			seen[tails[i]] = true
		}
		if unique {
			return tails
		}
	}
	return nil
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
	n                   int // a case measured at another N is another reading
}

func figuresOf(r *results.Row) figures {
	return figures{r.BytesPerInstance, r.AllocsPerInstance, r.SlotBytes, r.Error != "", r.N}
}

// instance returns machine m's row of case k, or nil.
func instance(m Machine, k results.Key) *results.Row {
	return m.indexed().instances[k]
}

// variants returns, for the first machine's case r, the rows of the
// other machines whose figures differ from r's, one per distinct figure,
// each with the names of the machines that measured it; nil when every
// machine that measured the case agrees.
func (ms machines) variants(r results.Row) []variant {
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
	row      results.Row
	machines []string
}

// caseKeys returns the key of every row that rowsOf lists in some
// machine's results, each once, in the one ordering.
func caseKeys[R any](ms machines, rowsOf func(*results.File) []R, keyOf func(*R) results.Key) []results.Key {
	var keys []results.Key
	seen := map[results.Key]bool{}
	for _, m := range ms {
		rows := rowsOf(m.Results)
		for i := range rows {
			if k := keyOf(&rows[i]); !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	slices.SortStableFunc(keys, results.Compare)
	return keys
}

// differing returns every case measured on some machine whose figures
// differ between machines or that some machines did not measure, in the
// one ordering.
func (ms machines) differing() []results.Key {
	keys := caseKeys(ms, func(f *results.File) []results.Row { return f.Instances },
		func(r *results.Row) results.Key { return r.Key })
	var out []results.Key
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

// cell is machine m's figure of case k for the differs table, with its
// N when withN (the machines measured k at different N).
func cell(m Machine, k results.Key, withN bool) string {
	r := instance(m, k)
	switch {
	case r == nil:
		return "not measured"
	case r.Error != "":
		return "failed"
	}
	c := units.FormatFigure(r.BytesPerInstance) + " B, " + units.FormatFigure(r.AllocsPerInstance) + " allocs"
	if withN {
		c += " at N = " + strconv.Itoa(r.N)
	}
	return c
}

// nDiffers reports whether the machines that measured case k measured it
// at different N.
func (ms machines) nDiffers(k results.Key) bool {
	n := 0
	for _, m := range ms {
		if r := instance(m, k); r != nil {
			if n != 0 && r.N != n {
				return true
			}
			n = r.N
		}
	}
	return false
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
		mw.Printf("Bytes, allocations and slot per instance, and N, are the same on every machine, for every case.\n\n")
	} else {
		mw.Printf("Every case whose bytes, allocations or slot per instance, or N, differ between machines, or that some machine did not measure. " +
			"Sizes can differ across architectures, Go versions and cgo; the last column says in what the machines that disagree differ.\n\n")
		t := render.MarkdownTable{Header: []string{"case"}}
		for _, m := range ms {
			t.Header = append(t.Header, m.Name)
		}
		t.Header = append(t.Header, "the machines differ in")
		for _, k := range diff {
			row := []string{k.String()}
			withN := ms.nDiffers(k)
			for _, m := range ms {
				row = append(row, cell(m, k, withN))
			}
			row = append(row, ms.envDiffer(k))
			t.Rows = append(t.Rows, row)
		}
		mw.Table(t)
		mw.Line("")
	}
	if note := ms.scanRules(); note != "" {
		mw.Printf("%s\n\n", note)
	}
	ms.writeTimes(mw)
}

// scanRules says, where the machines' scan rules differ or some machine
// does not record its own, that their GC scan bytes are not compared and
// why; "" where every machine scanned under one recorded rule.
func (ms machines) scanRules() string {
	var parts []string
	var first *measure.ScanRule
	unknown, differs := false, false
	for _, m := range ms {
		if !results.HasScanBytes(m.Results) {
			continue // nothing of it depends on the rule
		}
		rule := string(m.Results.Env.ScanRule)
		if first == nil {
			first = &m.Results.Env.ScanRule
		}
		switch {
		case rule == "":
			unknown = true
			rule = "unknown (not recorded)"
		case rule != string(*first):
			differs = true
		}
		parts = append(parts, fmt.Sprintf("**%s** %s", m.Name, rule))
	}
	switch {
	case len(parts) < 2:
		return ""
	case differs:
		return "GC scan bytes are not compared across machines: " + results.ScanRuleWhy + "; the scan rules are " + strings.Join(parts, ", ") + "."
	case unknown:
		return "GC scan bytes are not compared across machines: whether they scanned under one rule cannot be told (" + strings.Join(parts, ", ") + ")."
	}
	return ""
}

// envDiffer says in which environment fields the machines whose figures
// of case k differ from the first's (or from the first that measured it)
// differ from it, and why a machine that did not measure it did not.
func (ms machines) envDiffer(k results.Key) string {
	var ref *Machine
	var fields []string
	for i := range ms {
		r := instance(ms[i], k)
		if r == nil {
			why := "not measured on " + ms[i].Name
			for _, reason := range ms[i].indexed().unavailable[k] {
				why += " (n/a: " + reason + ")"
			}
			fields = append(fields, why)
			continue
		}
		if ref == nil {
			ref = &ms[i]
			continue
		}
		first := instance(*ref, k)
		if figuresOf(r) == figuresOf(first) {
			continue
		}
		if r.N != first.N {
			f := fmt.Sprintf("N (%s %d, %s %d)", ref.Name, first.N, ms[i].Name, r.N)
			if !slices.Contains(fields, f) {
				fields = append(fields, f)
			}
		}
		for _, d := range results.EnvDiffs(ref.Results.Env, ms[i].Results.Env) {
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
	keys := caseKeys(ms, func(f *results.File) []results.ThroughputRow { return f.Throughput },
		func(t *results.ThroughputRow) results.Key { return t.Key })
	if len(keys) == 0 {
		return
	}
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
			t := m.indexed().throughput[k]
			switch {
			case t == nil:
				row = append(row, "-")
			case t.Error != "":
				row = append(row, "failed")
			default:
				row = append(row, units.FormatNs(t.NsPerOpMedian))
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
func (ms machines) variantRows(r results.Row, ops []render.KeyOp, typ vocab.Type) [][]string {
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
			cells = append(cells, units.FormatFigure(o.BytesPerInstance), units.FormatFigure(o.AllocsPerInstance), units.FormatFigure(o.SlotBytes), mb(o.BytesPerInstance))
		}
		m := ms[slices.IndexFunc(ms, func(m Machine) bool { return m.Name == v.machines[0] })]
		for _, op := range ops {
			cells = append(cells, m.indexed().times.cell(typ, o.Lib, o.Repr, op))
		}
		rows = append(rows, cells)
	}
	return rows
}
