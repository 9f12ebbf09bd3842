package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/cliflag"
	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
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
	var sel cliflag.Selection
	sel.Add(fs)
	ops := fs.String("op", "", "only these `operations` (comma-separated): "+vocab.Join(vocab.Ops))
	format := cliflag.AddFormat(fs, "table", "json", "markdown", "csv", "bench")
	out := cliflag.AddOutput(fs)
	var tf cliflag.Table
	tf.Add(fs)
	var limits cliflag.Limits
	limits.AddFlag(fs, "the results file")
	files, code, done := parseInterspersed(inv, fs, args)
	if done {
		return code
	}
	var err error
	if format.Value, err = format.Get(); err != nil {
		return inv.usageError("%v", err)
	}
	if err := cliflag.Check(fs, tf.Inert(format.Value)); err != nil {
		return inv.usageError("%v", err)
	}
	if len(files) != 1 {
		return inv.usageError("want one results file, RESULTS.json, got %d argument(s)", len(files))
	}
	if err := limits.Parse(); err != nil {
		return inv.usageError("%v", err)
	}
	f, err := sel.Filter(*ops)
	if err != nil {
		return inv.usageError("%v", err)
	}
	if err := checkOutputPath(*out); err != nil {
		return inv.fail("%v", err)
	}
	// What show holds is the file's rows and their rendering: bounded as
	// the other readers' (cliflag.ReadingMemoryLimit).
	defer cliflag.LimitMemory()()
	rs, err := limits.ReadResults(ctx, files[0])
	if err != nil {
		return inv.badInput("", err)
	}
	if len(rs.Instances)+len(rs.Throughput)+len(rs.Unavailable) == 0 {
		return inv.badInput("", fmt.Errorf("reading results %s: no instance, throughput or unavailable rows in it: nothing to show", files[0]))
	}
	shown := rs.Select(f)
	rows := func(rs *results.File) int { return len(rs.Instances) + len(rs.Throughput) + len(rs.Unavailable) }
	if rows(shown) == 0 {
		return inv.usageError("no row of %s matches %s; its types are %s", files[0], strings.TrimSpace(sel.Describe()+" "+cliflag.OpFlag(*ops)), vocab.Join(rs.Types()))
	}
	if hidden := rs.Count(sel.Widen(f)) - rows(shown); hidden > 0 {
		fmt.Fprintf(inv.stderr, "memprof show: %s of other layouts or schemes than a run measures by default not shown: --layout all --scheme all shows them\n", count(hidden, "row"))
	}
	var instOpts, opOpts render.TableOptions
	if format.Value == "table" {
		if instOpts, opOpts, err = tf.ShowOptions(render.TerminalWidth(tableWriter(inv, *out)), inv.registry.CheckTexts(), shown); err != nil {
			return inv.usageError("%v", err)
		}
	}
	table := func(w io.Writer, rs *results.File) error { return render.ShowTables(w, rs, instOpts, opOpts) }
	return inv.writeResults(shown, format.Value, *out, table)
}
