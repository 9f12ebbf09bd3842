package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/cliflag"
	"github.com/memprof/memprof/cmd/memprof/internal/gatereport"
	"github.com/memprof/memprof/gate"
	"github.com/memprof/memprof/internal/readlimit"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
	"github.com/memprof/memprof/workflow"
)

var checkCommand = &command{
	Name:      "check",
	UsageLine: "check [--budgets FILE] [--results FILE] [--format text|markdown] [-o FILE] [--update [--headroom 1.2]] [--fail-on-time] [--skip-cgo] [--scheme min-pk|min-sig|all] [-n N] [--jobs N] [--force] [--memory-available SIZE] [--samples N] [--min-sample D] [--paths default|all] [--sites=false] [--max-bytes SIZE] [--max-rows N]",
	Short:     "check measurements against the budgets file",
	Long: `Check reads a budgets file (memprof.budgets.yaml by default) and checks
every budget against measurements: those of a saved results file
(--results), or, without it, fresh measurements of the instance cases the
budgets select (each in its own child process, as 'memprof instances') and
timings of the operations they select (as 'memprof throughput').

Each budget selects cases by type, lib, repr, layout, scheme, op and param
and bounds one or more of these figures. An omitted key selects what a run
measures when not told otherwise: every type, lib, repr, op and param, the
default layouts (pointer, collection, single: not slice) and the min-pk
scheme; layout: all or scheme: all (or a list) widens them. So a budget
copied from a table 'memprof instances' printed selects that table's rows.

` + limitsHelp() + `
Sizes and durations take units: 192, 192B, 1.5KiB, 800us, 2ms. A time
budget (ns/op, GC CPU) is exceeded only when the median exceeds it and so
does the whole interquartile range; otherwise it warns. Even then it warns
and does not fail unless --fail-on-time (for a pinned, quiet runner):
times move with the machine. The GC mark time is the runtime's estimate
of its mark workers' time, which a busy machine inflates: its budget
warns and never fails. An off-heap or scan
figure above its budget by no more than its resolution warns. A time
budget whose operation could not be timed (the libraries disagree, the
operation failed, or the results file has no
throughput rows) is an error, never a pass.

A budget selects the cases memprof knows (as 'memprof list' shows them),
not only those the results hold: a selected case the results lack is an
error naming it and what to do, unless the budget says optional: true
(then it is skipped); a selector, or a param value, that matches no case
memprof knows makes the file invalid, and so do two budgets that name
different n for one case. A budget none of whose cases was checked is an
error, optional or not: optional excuses some cases, never all. In results
measured with cgo off (env.cgo false) a case that needs cgo is skipped
where other cases of its budget were checked; a budget all of whose cases
need cgo is an error, unless --skip-cgo (for a runner without cgo whose
cgo budgets a runner with cgo checks) skips it, saying so. A check that
checks nothing fails, saying why. A budget on a figure the results lack (a file
older than the figure) is an error, never a pass. Sizes are 0 to 1 TiB,
durations 0 to 1 hour, counts 0 to 10^12, min_delta at most 100% or the
budget; a budgets file is one YAML document.

Each failure names the case, the metric, measured vs budget and by how
much, and the budget's file:line, owner and reason. --format markdown
writes the same for a pull-request comment: the verdict first, the
outcomes that did not pass with their change against the budget (bytes
and percent), every outcome in a <details> block, and the waivers.

A budget with expires: 2027-03-31 (and issue: URL) is a waiver that ends:
it holds through the end of that day (UTC) and then fails, whatever is
measured, with "budget expired on 2027-03-31 (owner, issue)"; --update
does not extend it (it refuses while one has expired). A time budget with
min_delta: 5% (or a duration, 50us) warns instead of failing when the
median is over the budget by no more than that: a noise floor. Bytes and
allocation budgets stay exact.

With --update, check rewrites each limit in the file to the current
measurement (bytes, scan bytes and allocations exactly, times as median x
--headroom, from 1 to 100), keeping keys, comments and layout, atomically.

A results file is validated before anything is checked (every problem is
reported as FILE: instances[12] (case): problem); times are the median and
quartiles of each operation's samples_ns, as compare reads them, and none
passes when the file's agreement check failed. Budgets files are read up
to ` + readlimit.FormatSize(gate.DefaultMaxBytes) + ` and half a million YAML nodes, results files up to 256 MiB
(--max-bytes raises these) and ` + cliflag.DefaultRows + ` rows (--max-rows), so that
checking stays within its memory.

Exit status: 0 when every budget holds (warnings included), 1 when one is
exceeded or could not be checked (a case failed to measure, every selected
case is unavailable, a time is missing, or the libraries disagreed), 2 when
the budgets file is invalid (unknown keys, bad values, a selector that
matches nothing, two n for one case) or the results file is missing, too
large, invalid or holds no instance or throughput row; with
--update an invalid input leaves the budgets file untouched.`,
	Run: runCheck,
	Examples: []example{
		{Line: "memprof check --budgets fixtures/budgets/pass.yaml --results fixtures/budgets/results.json", What: "check a saved results file against budgets (exit 1 when one is exceeded)"},
		{Line: "memprof check --budgets fixtures/budgets/exceeded.yaml --results fixtures/budgets/results.json --format markdown", What: "the same for a pull-request comment"},
		{Line: "memprof check --budgets memprof.budgets.yaml", What: "measure what the project's budgets select, and check them", Measures: true},
		{Line: "memprof check --budgets memprof.budgets.yaml --update", What: "rewrite the budgets to the current measurements, keeping comments", Measures: true},
	},
}

// limitsHelp lists the budget keys and the figures they bound, one a
// line, from the one list of figures (gate.Metrics()).
func limitsHelp() string {
	var b strings.Builder
	for _, m := range gate.Metrics() {
		fmt.Fprintf(&b, "\t%-32s%s\n", m.Key(), m)
	}
	return b.String()
}

func runCheck(ctx context.Context, inv *invocation, args []string) int {
	fs := inv.flags()
	budgetsPath := fs.String("budgets", "memprof.budgets.yaml", "read budgets from `file`")
	resultsPath := fs.String("results", "", "check the saved results `file` instead of measuring")
	update := fs.Bool("update", false, "rewrite the budgets file to the current measurements, keeping comments")
	failOnTime := fs.Bool("fail-on-time", false, "fail on a time above its budget (for a pinned, quiet runner); without it such a time warns")
	skipCgo := fs.Bool("skip-cgo", false, "skip, in results measured with cgo off, the budgets all of whose cases need cgo (a runner with cgo checks them); without it such a budget is an error")
	headroom := fs.Float64("headroom", 1.2, "with --update, multiply times by `factor` (1 to 100)")
	scheme := fs.String("scheme", "all", "check the cases of these signature `schemes` only (comma-separated, or all): min-pk, min-sig; types without a scheme are checked once")
	var cf cliflag.Cases
	cf.Add(fs, "number of instances per case, when measuring (scenario types default to their own scale)", ", when measuring")
	cf.AddForce(fs, ", when measuring")
	var to cliflag.Timing
	to.Add(fs, "when timing, ", false)
	var limits cliflag.Limits
	limits.AddFlag(fs, "the budgets or results file")
	format := cliflag.AddFormat(fs, "text", "markdown")
	out := cliflag.AddOutput(fs)
	if code, done := inv.parseFlags(fs, args, format, func() []cliflag.Inert {
		return []cliflag.Inert{cliflag.Unless(*update, "without --update", "headroom"),
			cliflag.Unless(!*update, "with --update: it rewrites the budgets file and prints no report", "format", "o"),
			cliflag.Unless(*resultsPath == "", "with --results: the saved results are checked, nothing is measured", "n", "jobs", "force", "memory-available", "samples", "min-sample"),
			cliflag.Unless(*resultsPath == "", "without --results: it bounds a results file", "max-rows")}
	}); done {
		return code
	}
	if !(*headroom >= 1 && *headroom <= gate.MaxHeadroom) {
		return inv.usageError("--headroom must be a number from 1 to %d, got %v", gate.MaxHeadroom, *headroom)
	}
	var opts workflow.Options
	if err := cf.Options(&opts); err != nil {
		return inv.usageError("%v", err)
	}
	if _, err := timing(&to, &opts); err != nil {
		return inv.usageError("%v", err)
	}
	if err := limits.Parse(); err != nil {
		return inv.usageError("%v", err)
	}
	f, err := limits.ReadBudgets(*budgetsPath)
	if err != nil {
		return inv.badInput("", err)
	}
	f, code := ofSchemes(inv, f, *scheme, *update)
	if f == nil {
		return code
	}
	if *update {
		if err := checkWritable("budgets", f.Path); err != nil {
			return inv.fail("%v", err)
		}
	}
	if err := checkWritable("the check", *out); err != nil {
		return inv.fail("%v", err)
	}

	if (*resultsPath == "" || *update) && inv.stopDry() {
		return exitOK // it would measure, or write the budgets file
	}
	var rs *results.File
	if *resultsPath != "" {
		defer cliflag.LimitMemory()()
		// An invalid results file stops here, before --update can touch
		// the budgets file.
		rs, err = readRows(ctx, limits, *resultsPath, "nothing to check")
		if err != nil {
			return inv.badInput("", err)
		}
	} else {
		opts.Progress = (&progress{inv: inv, bars: true}).event
		rs, err = workflow.Budgeted(ctx, inv.registry, f, opts)
		if rs == nil {
			if workflow.IsUsage(err) {
				return inv.badInput("", err)
			}
			return inv.fail("%v", err)
		}
		if err != nil {
			// The operations have no times: Check reports their budgets.
			inv.throughputFailed(err)
		}
	}
	// The budgets select from the registry, so a case the results lack is
	// an error, not a budget that checks less than it says.
	rep := gate.Check(f, rs, gate.CheckOptions{Registry: workflow.RegistryCases(inv.registry), FailOnTime: *failOnTime, SkipCgo: *skipCgo})

	if *update {
		return updateBudgets(inv, f, rep, *headroom)
	}
	return checkReport(inv, rep, rs, f.Path, format.Value, *out, *skipCgo)
}

// checkReport writes the report of a check of the budgets file budgets
// (text or markdown, to out or stdout), says on stderr what is wrong with
// the budgets or that nothing was checked, and returns the exit code.
func checkReport(inv *invocation, rep *gate.Report, rs *results.File, budgets, format, out string, skipCgo bool) int {
	var err error
	var buf bytes.Buffer
	if format == "markdown" {
		err = gatereport.CheckMarkdown(inv.live(&buf), rep, rs.Env)
	} else {
		err = gatereport.Check(inv.live(&buf), rep)
	}
	if err != nil {
		return inv.fail("rendering: %v", err)
	}
	if err := writeOutput(inv, out, buf.Bytes()); err != nil {
		return inv.fail("%v", err)
	}
	switch {
	case len(rep.Problems) > 0:
		for _, p := range rep.Problems {
			fmt.Fprintf(inv.stderr, "memprof check: %v\n", p)
		}
		fmt.Fprintf(inv.stderr, "memprof check: %s is invalid: fix the budgets above (a budget that selects nothing checks nothing)\n", budgets)
		return exitUsage
	case rep.Checked() == 0:
		fmt.Fprintf(inv.stderr, "memprof check: nothing checked: %s\n", nothingCheckedWhy(rep, skipCgo))
		return exitFailure
	case !rep.OK():
		return exitFailure
	}
	return exitOK
}

// ofSchemes keeps the budgets of f that select the schemes of --scheme
// (scheme), saying on stderr how many it dropped. It returns nil and the
// exit code when nothing is left to check, or --scheme is refused.
func ofSchemes(inv *invocation, f *gate.File, scheme string, update bool) (*gate.File, int) {
	schemes, err := workflow.ParseList("scheme", scheme, vocab.Schemes)
	if err != nil {
		return nil, inv.usageError("--scheme: %v", vocab.Suggest(err, scheme, vocab.Strings(vocab.Schemes)))
	}
	if len(schemes) == len(vocab.Schemes) {
		return f, exitOK
	}
	if update {
		return nil, inv.usageError("--scheme does nothing with --update: it rewrites every budget of the file")
	}
	var dropped int
	if f, dropped = f.OfSchemes(schemes); dropped > 0 {
		fmt.Fprintf(inv.stderr, "memprof check: %d budgets of other schemes than %s not checked (--scheme; a budget without scheme selects min-pk)\n", dropped, vocab.Join(schemes))
	}
	if len(f.Budgets) == 0 {
		return nil, inv.fail("nothing checked: every budget of %s selects other schemes than --scheme %s (a budget without scheme selects min-pk)", f.Path, scheme)
	}
	return f, exitOK
}

func updateBudgets(inv *invocation, f *gate.File, rep *gate.Report, headroom float64) int {
	src, err := gate.Update(f, rep, headroom)
	if err != nil {
		fmt.Fprintf(inv.stderr, "memprof check: %v\n", err)
		if len(rep.Problems) > 0 {
			return exitUsage
		}
		return exitFailure
	}
	old, err := os.ReadFile(f.Path)
	if err != nil {
		return inv.fail("%v", err)
	}
	if bytes.Equal(old, src) {
		fmt.Fprintf(inv.stdout, "memprof check: %s already matches the measurements\n", f.Path)
		return exitOK
	}
	if err := inv.writeFile("budgets", f.Path, src); err != nil {
		return inv.fail("%v", err)
	}
	fmt.Fprintf(inv.stdout, "memprof check: updated %s to the current measurements (review the diff)\n", f.Path)
	return exitOK
}

// nothingCheckedWhy says why a check whose report checked no figure
// checked nothing.
func nothingCheckedWhy(rep *gate.Report, skipCgo bool) string {
	switch {
	case skipCgo && rep.Skipped(gate.SkipCgo) == len(rep.Outcomes):
		return "every budget's cases need cgo, and --skip-cgo skipped them: check them where cgo is on"
	case rep.Count(gate.Error) > 0:
		return "no budget's figure could be checked (the errors above say why)"
	}
	return "no budget selects a case the results hold"
}
