package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/cliflag"
	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/gate"
	"github.com/memprof/memprof/internal/atomicfile"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
	"github.com/memprof/memprof/workflow"
)

var instancesCommand = &command{
	Name:      "instances",
	UsageLine: "instances (--type T [--lib L,...] [--repr R,...] [--layout pointer|slice|collection|all] [--scheme min-pk|min-sig|all] | --budgets FILE [--skip-cgo]) [-n N] [--jobs N] [--force] [--memory-available SIZE] [--sweep [--sweep-n N,...]] [--with-throughput [--op OP,...] [--samples N] [--min-sample D] [--paths default|all] [--sites=false]] [--format table|json|markdown|csv|bench] [--wide | --columns COL,...] [--style plain|box] [-o FILE] [--profile-dir DIR] [--machine NAME] [--commit SHA]",
	Short:     "measure bytes per instance of each library and representation",
	// Built when help is printed: the method's paragraphs, wrapped, are
	// work every process (a measuring child too) would do at start.
	LongFunc: func() string {
		return `Instances measures each selected case in a fresh child process and
prints, per instance, the bytes and objects it keeps on the Go heap, the
representation's unsafe.Sizeof, the allocator's slot, off-heap runtime memory
(finalizer and cleanup records), goroutine stacks, the HeapAlloc cross-check,
the harness's holder, the C heap, the RSS growth and the part of it nothing
above explains (unaccounted), the collector's share (GC scan B, GC CPU/cycle,
and with --wide GC mark/cycle), and the allocation sites. How it measures, as
memprof help method prints it (and every results file records):

` + methodHelp(memprof.MethodBytes, memprof.MethodGC, memprof.MethodResolution) + `

The terminal table has one token per cell (units in the header): one
table per type, the values every row shares in its heading (the type,
layout, scheme and N), "n/a[k]" or "error[k]" where a case is not
available or failed, footnote k saying why, short headers and a legend
where the terminal is narrow, and, where it still does not fit, columns
left out (prose first, figures last) and named under it. --wide keeps
every column; --style box draws it in boxes.

With --budgets FILE, instances measures exactly what the budgets file
selects, as 'memprof check' does without --results (each instance case a
memory budget selects, at the n the budget names, and each operation a
time budget selects), and writes the results: 'memprof check --results'
then checks them. In a build with cgo off, a budget all of whose cases
need cgo cannot be measured: instances --budgets refuses it (exit 1)
unless --skip-cgo, which measures the others and names what it skipped
(check --skip-cgo then skips those budgets). Measuring nothing at all is
exit 1, as for --type. --scheme takes a list (min-pk,min-sig, or all): a type
without a scheme is measured once.

Type, library and representation names are case-insensitive. Exit status is
0 when every case was measured, 1 when any failed, 2 for a usage error.

` + nothingMeasuredHelp + `

` + flagsHelp
	},
	Run: runInstances,
	Examples: []example{
		{Line: "memprof instances --type Signature", What: "bytes per instance of every signature representation", Measures: true},
		{Line: "memprof instances --type kzg", What: "the KZG objects and contexts (C heap included)", Measures: true},
		{Line: "memprof instances --type PubkeyCache --lib gnark --repr index-slice,map-pointer --sweep", What: "how a cache's cost grows with N", Measures: true},
		{Line: "memprof instances --type Signature --with-throughput --op verify,aggregate", What: "bytes per instance beside the time of each use", Measures: true},
		{Line: "memprof instances --type PublicKey,Signature,G1 --scheme all", What: "both schemes' keys and signatures, G1 once", Measures: true},
		{Line: "memprof instances --budgets memprof.budgets.yaml --format json -o results.json", What: "measure what the budgets select, for check --results", Measures: true},
	},
}

func runInstances(ctx context.Context, inv *invocation, args []string) int {
	fs := inv.flags()
	var sel cliflag.Selection
	sel.Add(fs)
	budgetsPath := fs.String("budgets", "", "measure exactly what the budgets `file` selects (as check does without --results), instead of --type")
	skipCgo := fs.Bool("skip-cgo", false, "with --budgets in a build with cgo off, measure the other budgets' cases and skip the budgets all of whose cases need cgo (without it they are refused)")
	var cf cliflag.Cases
	cf.Add(fs, "number of instances per case (scenario types default to their real scale, 1000000)", "")
	cf.AddForce(fs, "")
	profileDir := fs.String("profile-dir", "", "keep each case's raw heap profile in `dir`")
	sweep := fs.Bool("sweep", false, "also measure each case at several N (--sweep-n) and fit bytes = a + b*N, reporting the slope's 95% confidence interval and R²")
	sweepN := fs.String("sweep-n", "1000,10000,100000,1000000", "the `N values` of --sweep, comma-separated")
	format := cliflag.AddFormat(fs, "table", "json", "markdown", "csv", "bench")
	out := cliflag.AddOutput(fs)
	withThroughput := fs.Bool("with-throughput", false, "also time the operations of the selected types (as memprof throughput does, after the agreement check) and print, per type, bytes per instance beside them")
	var to cliflag.Timing
	to.Add(fs, "", true)
	var prov cliflag.Provenance
	prov.Add(fs)
	var tf cliflag.Table
	tf.Add(fs)
	if code, done := inv.parseFlags(fs, args, format, func() []cliflag.Inert {
		return []cliflag.Inert{cliflag.Unless(*withThroughput, "without --with-throughput", "op", "samples", "min-sample"),
			cliflag.Unless(*budgetsPath != "", "without --budgets", "skip-cgo"),
			cliflag.Unless(*sweep, "without --sweep", "sweep-n"), tf.Inert(format.Value)}
	}); done {
		return code
	}
	tableOpts, err := tf.Options(render.TerminalWidth(tableWriter(inv, *out)), inv.registry.CheckTexts(), "instance", func(c results.Column) bool { return c.Instance != nil })
	if err != nil {
		return inv.usageError("%v", err)
	}
	opts := workflow.Options{ProfileDir: *profileDir}
	if err := cf.Options(&opts); err != nil {
		return inv.usageError("%v", err)
	}
	if *sweep {
		if opts.Sweep, err = cliflag.Sweep(*sweepN); err != nil {
			return inv.usageError("%v", err)
		}
	}
	if *budgetsPath != "" {
		if err := sel.NotWith("--budgets", "the budgets select the cases"); err != nil {
			return inv.usageError("%v", err)
		}
	}
	var ops []vocab.Op
	if *withThroughput {
		if err := sel.TimesMinPk("--with-throughput"); err != nil {
			return inv.usageError("%v", err)
		}
		if ops, err = timing(&to, &opts); err != nil {
			return inv.usageError("%v", err)
		}
		opts.Throughput = workflow.ThroughputRequired
	}
	var budgets *gate.File
	var s workflow.Selection
	if *budgetsPath != "" {
		var code int
		if budgets, code = instancesBudgets(inv, *budgetsPath, *skipCgo); budgets == nil {
			return code
		}
	} else if s, err = sel.Selection(ops); err != nil {
		return inv.usageError("%v", err)
	}
	opts.Ready = inv.ready(outputsWritable(*out, *profileDir))
	opts.Progress = (&progress{inv: inv, bars: true}).event
	prov.Options(&opts)
	var rs *results.File
	if budgets != nil {
		rs, err = workflow.BudgetedTimed(ctx, inv.registry, budgets, ops, opts)
	} else {
		rs, err = workflow.Instances(ctx, inv.registry, s, opts)
	}
	if rs == nil {
		described := sel.Describe()
		if budgets != nil {
			described = "--budgets " + *budgetsPath
		}
		return inv.refused(err, described, sel.NoMatch(&to, "--with-throughput"))
	}
	code := exitOK
	if err != nil {
		code = inv.throughputFailed(err)
		if disagree(err) {
			return code // nothing is printed after a disagreement
		}
	}
	return inv.printInstances(rs, format.Value, *out, tableOpts, *withThroughput, code)
}

// instancesBudgets reads the budgets of instances --budgets, and refuses
// the budgets all of whose cases need cgo in a build with cgo off, or,
// with --skip-cgo (skipCgo), says they are not measured. It returns nil
// and the exit code when it stops.
func instancesBudgets(inv *invocation, path string, skipCgo bool) (*gate.File, int) {
	budgets, err := gate.ReadFile(path)
	if err != nil {
		return nil, inv.badInput("", err)
	}
	if cgo := workflow.CgoOnly(inv.registry, budgets); len(cgo) > 0 {
		var lines []string
		for _, b := range cgo {
			lines = append(lines, fmt.Sprintf("%s:%d", budgets.Path, b.Line))
		}
		if !skipCgo {
			return nil, inv.fail("every case of the budgets at %s needs cgo, and this build has cgo off: build with cgo (CGO_ENABLED=1), or pass --skip-cgo to measure the other budgets' cases (check --skip-cgo then skips these)", strings.Join(lines, ", "))
		}
		fmt.Fprintf(inv.stderr, "memprof instances: --skip-cgo: not measured, every case needing cgo: the budgets at %s\n", strings.Join(lines, ", "))
	}
	return budgets, exitOK
}

// printInstances writes the rows measured (with their trade-off tables
// when withThroughput) in format to out or stdout, and the failed cases'
// errors on stderr; it returns code, or exitFailure when a case failed.
func (inv *invocation) printInstances(rs *results.File, format, out string, tableOpts render.TableOptions, withThroughput bool, code int) int {
	table := func(w io.Writer, rs *results.File) error {
		if err := render.InstancesTableFit(w, rs, tableOpts); err != nil || !withThroughput {
			return err
		}
		return render.TradeoffTablesFit(w, rs, tableOpts)
	}
	if code := inv.writeResults(rs, format, out, table); code != exitOK {
		return code
	}
	for _, r := range rs.Instances {
		if r.Error != "" {
			fmt.Fprintf(inv.stderr, "memprof instances: %s\n", r.Error)
		}
	}
	if rs.Failed() {
		code = exitFailure
	}
	return code
}

// outputsWritable checks, before minutes of measuring, that the -o file
// out and the --profile-dir directory can be written.
func outputsWritable(out, profileDir string) func() error {
	return func() error {
		if err := checkOutputPath(out); err != nil {
			return err
		}
		if profileDir != "" {
			// Before minutes of measuring, not after: a directory that
			// cannot be made or written keeps no profile.
			return writeError("profiles", atomicfile.CheckDir(profileDir))
		}
		return nil
	}
}
