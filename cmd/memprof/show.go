package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
	"github.com/memprof/memprof/workflow"
)

var showCommand = &command{
	Name:      "show",
	UsageLine: "show [--type T] [--lib L,...] [--repr R,...] [--layout L,...|all] [--scheme S,...|all] [--op OP,...] [--format table|json|markdown|csv|bench] [--wide | --columns COL,...] [--style plain|box] [-o FILE] [--max-bytes SIZE] [--max-rows N] RESULTS.json",
	Short:     "print a saved results file as instances and throughput do",
	Long: `Show prints a saved results file (memprof.results/v1, as -o or report
writes it) as the instances and throughput commands print what they
measure: the cases tables, the sweeps and the allocation sites, then the
throughput tables; or, with --format, as JSON, Markdown, CSV or Go benchmark
text. So a run measured once can be read again, and a document can show
exactly what a command prints.

The selection flags keep the rows they match, as they select cases to
measure in instances and throughput: without --type, every type of the
file; without --layout, the default layouts (pointer, collection,
single: not slice), and without --scheme, min-pk, as a run measures them
by default (and a budget without layout or scheme selects them); --layout
all and --scheme all show every row. The rows left out so are counted on
stderr. The file is read and validated as
check and compare read it (every problem is reported as FILE:
instances[12] (case): problem), up to 256 MiB (--max-bytes raises the
limit).

Exit status: 0 when the file was shown, 2 for a usage error, a selection
that matches no row of the file, or a results file that is missing, too
large or invalid.`,
	Run: runShow,
	Examples: []example{
		{Line: "memprof show fixtures/results/results.json --type Signature", What: "a saved run's tables, as instances and throughput printed them"},
		{Line: "memprof show fixtures/results/results.json --type G1 --format markdown", What: "the same as Markdown"},
	},
}

func runShow(ctx context.Context, inv *invocation, args []string) int {
	fs := inv.flags()
	var sel selectionFlags
	sel.add(fs)
	ops := fs.String("op", "", "only these `operations` (comma-separated): "+vocab.Join(vocab.Ops))
	format := addFormat(fs, "table", "json", "markdown", "csv", "bench")
	out := addOutput(fs)
	var tf tableFlags
	tf.add(fs)
	var limits inputLimits
	limits.addFlag(fs, "the results file")
	files, code, done := parseInterspersed(inv, fs, args)
	if done {
		return code
	}
	var err error
	if format.value, err = format.get(); err != nil {
		return inv.usageError("%v", err)
	}
	if err := checkFlags(fs, tf.inert(format.value)); err != nil {
		return inv.usageError("%v", err)
	}
	if len(files) != 1 {
		return inv.usageError("want one results file, RESULTS.json, got %d argument(s)", len(files))
	}
	if err := limits.parse(); err != nil {
		return inv.usageError("%v", err)
	}
	f, err := sel.filter(*ops)
	if err != nil {
		return inv.usageError("%v", err)
	}
	if err := checkOutputPath(*out); err != nil {
		return inv.fail("%v", err)
	}
	// What show holds is the file's rows and their rendering: bounded as
	// the other readers' (readingMemoryLimit).
	defer limitMemory()()
	rs, err := limits.readResults(ctx, files[0])
	if err != nil {
		return inv.badInput("", err)
	}
	if len(rs.Instances)+len(rs.Throughput)+len(rs.Unavailable) == 0 {
		return inv.badInput("", fmt.Errorf("reading results %s: no instance, throughput or unavailable rows in it: nothing to show", files[0]))
	}
	shown := rs.Select(f)
	rows := func(rs *results.File) int { return len(rs.Instances) + len(rs.Throughput) + len(rs.Unavailable) }
	if rows(shown) == 0 {
		return inv.usageError("no row of %s matches %s; its types are %s", files[0], strings.TrimSpace(sel.describe()+" "+opFlag(*ops)), vocab.Join(rs.Types()))
	}
	wide := f // what the defaults left out: the flags not given, widened
	if !wasGiven(fs, "layout") {
		wide.Layout = vocab.Strings(measure.Layouts)
	}
	if !wasGiven(fs, "scheme") {
		wide.Scheme = vocab.Strings(vocab.Schemes)
	}
	if hidden := rows(rs.Select(wide)) - rows(shown); hidden > 0 {
		fmt.Fprintf(inv.stderr, "memprof show: %s of other layouts or schemes than a run measures by default not shown: --layout all --scheme all shows them\n", count(hidden, "row"))
	}
	var instOpts, opOpts render.TableOptions
	if format.value == "table" {
		if instOpts, opOpts, err = tf.showOptions(tableWriter(inv, *out), shown); err != nil {
			return inv.usageError("%v", err)
		}
	}
	table := func(w io.Writer, rs *results.File) error {
		wrote := false
		if len(rs.Instances) > 0 || slices.ContainsFunc(rs.Unavailable, func(u results.Unavailable) bool { return !u.IsOp() }) {
			if err := render.InstancesTableFit(w, rs, instOpts); err != nil {
				return err
			}
			wrote = true
		}
		if len(rs.Throughput) > 0 || slices.ContainsFunc(rs.Unavailable, func(u results.Unavailable) bool { return u.IsOp() }) {
			if wrote {
				if _, err := fmt.Fprintln(w); err != nil {
					return err
				}
			}
			return render.ThroughputTableFit(w, rs, opOpts)
		}
		return nil
	}
	return inv.writeResults(shown, format.value, *out, table)
}

// opFlag writes --op as given, or "" when it was not.
func opFlag(ops string) string {
	if ops == "" {
		return ""
	}
	return "--op " + ops
}

// filter returns the results.Selector of the selection flags and --op:
// unlike a measurement, no --type keeps every type; no --layout keeps the
// default layouts and --scheme min-pk (its default), as a measurement
// (and a budget's select) does.
func (s *selectionFlags) filter(ops string) (results.Selector, error) {
	var f results.Selector
	list := func(what, v string, valid []string) ([]string, error) {
		l, err := workflow.ParseList(what, v, valid)
		if err != nil {
			return nil, vocab.Suggest(err, v, valid)
		}
		return l, nil
	}
	var err error
	if s.types != "" {
		types, err := workflow.ParseTypes(s.types)
		if err != nil {
			return f, vocab.Suggest(err, s.types, workflow.TypeNames())
		}
		f.Type = vocab.Strings(types)
	}
	if s.libs != "" {
		if f.Lib, err = list("lib", s.libs, vocab.Strings(vocab.Libs)); err != nil {
			return f, err
		}
	}
	if s.reprs != "" {
		if f.Repr, err = list("repr", s.reprs, vocab.Strings(vocab.Reprs)); err != nil {
			return f, err
		}
	}
	if s.layouts != "" {
		if f.Layout, err = list("layout", s.layouts, vocab.Strings(measure.Layouts)); err != nil {
			return f, err
		}
	}
	if f.Scheme, err = list("scheme", s.scheme, vocab.Strings(vocab.Schemes)); err != nil {
		return f, err
	}
	if ops != "" {
		if f.Op, err = list("op", ops, vocab.Strings(vocab.Ops)); err != nil {
			return f, err
		}
	}
	return f, nil
}

// showOptions returns the table options of the flags for the two tables
// show prints: --columns names the columns of both, each table taking
// those that apply to its rows (a name that applies to neither is a
// usage error).
func (t *tableFlags) showOptions(w io.Writer, rs *results.File) (instances, ops render.TableOptions, err error) {
	columns := t.columns
	t.columns = ""
	base, err := t.options(w, "", nil)
	t.columns = columns
	if err != nil || columns == "" {
		return base, base, err
	}
	if t.wide {
		return base, base, fmt.Errorf("--wide and --columns both choose the columns: give one")
	}
	instances, ops = base, base
	isInstance := func(c results.Column) bool { return c.Instance != nil }
	isOp := func(c results.Column) bool { return c.Throughput != nil }
	var forInstances, forOps []string
	for _, name := range strings.Split(columns, ",") {
		c, err := results.LookupColumn(strings.TrimSpace(name))
		if err != nil {
			return instances, ops, fmt.Errorf("--columns: %w", err)
		}
		if isInstance(c) {
			forInstances = append(forInstances, name)
		}
		if isOp(c) {
			forOps = append(forOps, name)
		}
		if !isInstance(c) && !isOp(c) {
			return instances, ops, fmt.Errorf("--columns: column %q is in no table of show", name)
		}
	}
	if len(forInstances) > 0 {
		if instances.Columns, err = render.ChooseColumns(forInstances, "instance", isInstance); err != nil {
			return instances, ops, err
		}
	}
	if len(forOps) > 0 {
		if ops.Columns, err = render.ChooseColumns(forOps, "throughput", isOp); err != nil {
			return instances, ops, err
		}
	}
	return instances, ops, nil
}
