package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/cliflag"
	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/cmd/memprof/internal/report"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
	"github.com/memprof/memprof/workflow"
)

var reportCommand = &command{
	Name:      "report",
	UsageLine: "report (--type T [--lib L,...] [--repr R,...] [--layout L,...] [--scheme S] [-n N] [--jobs N] [--memory-available SIZE] [--throughput=false] [--samples N] [--min-sample D] [--paths default|all] [--sites=false] [--op OP,...] [--machine NAME] [--commit SHA] | --from results.json [--from other.json ...] [--max-bytes SIZE] [--max-rows N]) --out DIR [--force]",
	Short:     "write a design review: Markdown, SVG charts, JSON, CSV, bench text",
	Long: `Report measures the selected cases (as instances does), times their
operations (as throughput does, after the agreement check; --throughput=false
skips this) and writes a design review into the directory --out:

` + reviewFiles() + `

With --from it renders a saved results file instead of measuring, so a run
measured once can be rendered many times. --from given several times (one
file per runner: amd64 and arm64, two Go versions, cgo on and off) writes
one review of them all: the first file's, with one environment section per
machine (named by env.machine: --machine when measuring, else the host
name), the rows of cases whose bytes differ tagged by machine, a "differs
across machines" table saying in what the machines differ, the time of
each operation on each machine, and each machine's results file
(results-<machine>.json). The file is validated first
(every problem is reported as FILE: instances[12] (case): problem) and read
up to 256 MiB (--max-bytes raises the limit) and ` + cliflag.DefaultRows + ` rows (--max-rows).

The review is written to a temporary directory beside --out and renamed
into place at the end. An --out that exists and is not empty is refused
unless --force, which replaces it as a whole. Progress goes to stderr when
stderr is a terminal, and nowhere otherwise.

Exit status: 0 when the review was written and every case was measured; 1
when a case or an operation failed (the review is still written, the
failure in it), when the libraries disagree (nothing is written), or when
writing failed; 2 for a usage error, an --out that is not empty included,
or bad input: a --from file that is missing, too large, not a
memprof.results/v1 file or invalid (nothing is written).

` + nothingMeasuredHelp + `

` + flagsHelp,
	Run: runReport,
	Examples: []example{
		{Line: "memprof report --type Signature,PublicKey --out review", What: "measure and write a design review into review/", Measures: true},
		{Line: "memprof report --from fixtures/results/results.json --out review --force", What: "render a saved results file as a review", Measures: true},
	},
}

// reviewFiles lists the files a review writes (report.Files), for the
// help: a name and what it holds, wrapped beside it.
func reviewFiles() string {
	files := report.Files()
	width := 0
	for _, f := range files {
		width = max(width, len(f.Name))
	}
	indent := "\t" + strings.Repeat(" ", width+2)
	var lines []string
	for _, f := range files {
		what := render.Wrap(f.What, render.HelpWidth-8-width-2, "") // the tab takes 8 columns
		lines = append(lines, "\t"+f.Name+strings.Repeat(" ", width+2-len(f.Name))+strings.ReplaceAll(what, "\n", "\n"+indent))
	}
	return strings.Join(lines, "\n")
}

func runReport(ctx context.Context, inv *invocation, args []string) int {
	fs := inv.flags()
	var sel cliflag.Selection
	var cf cliflag.Cases
	var withThroughput *bool
	var to cliflag.Timing
	var prov cliflag.Provenance
	// The flags that choose or tune a measurement, which --from refuses.
	measureFlags := cliflag.Added(fs, func() {
		sel.Add(fs)
		cf.Add(fs, "number of instances per case", "")
		withThroughput = fs.Bool("throughput", true, "also time the operations of the selected types, as memprof throughput does (after the agreement check)")
		to.Add(fs, "", true)
		prov.Add(fs)
	})
	var from cliflag.List
	fs.Var(&from, "from", "render the results `file` (memprof.results/v1) instead of measuring; repeat it to review several machines at once")
	out := fs.String("out", "", "write the review into `dir` (required)")
	force := fs.Bool("force", false, "replace --out if it exists and is not empty; and, when measuring, "+cliflag.ForceHelp)
	var limits cliflag.Limits
	limits.AddFlag(fs, "the --from file")
	if code, done := inv.parseFlags(fs, args, nil, func() []cliflag.Inert {
		return []cliflag.Inert{cliflag.Unless(*withThroughput, "with --throughput=false", "op", "samples", "min-sample")}
	}); done {
		return code
	}
	if *out == "" {
		return inv.usageError("--out is required: the directory to write the review into")
	}
	if err := fromConflict(fs, measureFlags, len(from) > 0, limits.Size); err != nil {
		return inv.usageError("%v", err)
	}
	if err := limits.Parse(); err != nil {
		return inv.usageError("%v", err)
	}
	if err := report.CheckOut(*out, *force); err != nil {
		return inv.usageError("%v", err)
	}

	opts := report.Options{Force: *force}
	var rs *results.File
	if len(from) > 0 {
		// The files of a review are held at once: they share the row
		// limit.
		defer cliflag.LimitMemory()()
		rss, err := limits.ReadShared(ctx, from)
		if err != nil {
			return inv.badInput("", err)
		}
		rs, opts.Source = rss[0], from[0]
		if len(from) > 1 {
			opts.Machines = report.NameMachines(from, rss)
		}
	} else {
		var code int
		if rs, code = measureReview(ctx, inv, fs, &sel, &cf, &to, &prov, *withThroughput, *force); rs == nil {
			return code
		}
		switch {
		case !*withThroughput:
			opts.Notes = append(opts.Notes, "Throughput was not measured (--throughput=false), so there are no trade-off charts.")
		case rs.Agreement == nil:
			// Every timing starts with the agreement check: none ran.
			opts.Notes = append(opts.Notes, "The selected types have no timed operations, so there are no trade-off charts.")
		}
	}
	if err := ctx.Err(); err != nil {
		return inv.fail("interrupted: %v; nothing written", err)
	}
	if inv.stopDry() {
		return exitOK
	}

	if _, err := report.WriteContext(ctx, *out, rs, opts); errors.Is(err, report.ErrOutNotEmpty) {
		// --out was filled while we measured.
		return inv.usageError("%v", err)
	} else if err != nil {
		return inv.fail("%v", err)
	}
	for _, r := range rs.Instances {
		if r.Error != "" {
			fmt.Fprintf(inv.stderr, "memprof report: %s: %s\n", r.Key, firstLine(r.Error))
		}
	}
	if rs.Failed() {
		return exitFailure // the failed operations were reported as they failed
	}
	return exitOK
}

// measureReview measures what report reviews: the selected cases, with a
// progress line on a terminal, and unless --throughput=false the
// operations of their types (force lets it past the memory estimate). It returns nil and the exit code when there
// is nothing to write: a usage error, a refused selection, libraries that
// disagree, or a timing that failed without a row.
func measureReview(ctx context.Context, inv *invocation, fs *flag.FlagSet, sel *cliflag.Selection, cf *cliflag.Cases, to *cliflag.Timing, prov *cliflag.Provenance, withThroughput, force bool) (*results.File, int) {
	var opts workflow.Options
	prov.Options(&opts)
	if err := cf.Options(&opts); err != nil {
		return nil, inv.usageError("%v", err)
	}
	opts.Force = force
	var ops []vocab.Op
	given := "" // the first flag that asks for the timing
	if withThroughput {
		if err := sel.TimesMinPk("--with-throughput"); err != nil {
			return nil, inv.usageError("%v", err)
		}
		var err error
		if ops, err = timing(to, &opts); err != nil {
			return nil, inv.usageError("%v", err)
		}
		// Asked for, not merely the default: timing nothing is refused.
		opts.Throughput = workflow.ThroughputIfAny
		for _, name := range []string{"op", "throughput", "samples", "min-sample"} {
			if given == "" && cliflag.WasGiven(fs, name) {
				given, opts.Throughput = cliflag.Dashed(name), workflow.ThroughputRequired
			}
		}
	}
	s, err := sel.Selection(ops)
	if err != nil {
		return nil, inv.usageError("%v", err)
	}
	opts.Progress = (&progress{inv: inv, bars: true}).event
	opts.Ready = inv.ready(func() error { return nil })
	opts.SkipThroughput = !withThroughput
	rs, err := workflow.Report(ctx, inv.registry, s, opts)
	if rs == nil {
		return nil, inv.refused(err, sel.Describe(), sel.NoMatch(to, given))
	}
	if err != nil {
		code := inv.throughputFailed(err)
		if disagree(err) {
			return nil, code // nothing is written while the libraries disagree
		}
		if len(rs.Throughput) == 0 {
			return nil, inv.fail("throughput failed; no review written")
		}
	}
	return rs, exitOK
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// fromConflict refuses, with --from (from), the flags that choose or tune a
// measurement (measureFlags), and without it the limits of the --from
// file (--max-bytes, given as maxBytes, and --max-rows).
func fromConflict(fs *flag.FlagSet, measureFlags []string, from bool, maxBytes string) error {
	var given []string
	fs.Visit(func(f *flag.Flag) {
		if slices.Contains(measureFlags, f.Name) {
			given = append(given, cliflag.Dashed(f.Name))
		}
	})
	switch {
	case from && len(given) > 0:
		return fmt.Errorf("--from renders a saved results file and measures nothing: it cannot be combined with %s", strings.Join(given, ", "))
	case maxBytes != "" && !from:
		return errors.New("--max-bytes bounds the --from file: give it with --from")
	case cliflag.WasGiven(fs, "max-rows") && !from:
		return errors.New("--max-rows bounds the --from file: give it with --from")
	}
	return nil
}
