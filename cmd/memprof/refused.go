package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/memprof/memprof/cmd/memprof/internal/cliflag"
	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
	"github.com/memprof/memprof/workflow"
)

// nothingMeasuredHelp and flagsHelp end the help of the measuring
// commands: how a selection that can measure nothing, and a flag that does
// nothing, are refused (refused, cliflag.Check).
const (
	nothingMeasuredHelp = `A selection of which nothing can be measured is refused before anything
runs or is written: when every selected combination does not apply to its
type (--type Signature --repr scalar) it is a usage error (2) naming why;
when every one is unavailable for another reason (a library lacks it, or
blst in a build without cgo) the exit status is 1, with one line saying
that nothing was measured and why.`
	flagsHelp = `A flag given where it does nothing (--op, --samples or --min-sample without
the throughput they tune, --sweep-n without --sweep, --scheme for a type
without one) or given an empty value (--lib "", --repr ,) is a usage error
(2), never read as the default.`
)

// agreeRuns, when set, replace the agreement checks of the families they
// name (workflow.Options.Agree): tests set them to see a disagreement
// handled. Unset, every family's check is the registry's.
var agreeRuns map[vocab.Family]func(*suites.Registry) (*suites.AgreeReport, error)

// timing checks the timing flags, sets them and the agreement checks in
// o, and returns the operations --op chooses (see cliflag.Timing.Options).
func timing(to *cliflag.Timing, o *workflow.Options) ([]vocab.Op, error) {
	o.Agree = agreeRuns
	return to.Options(o)
}

// refused prints why a workflow measured nothing and returns the exit
// code: 2 when the request itself is wrong (workflow.IsUsage), 1 otherwise.
// selected describes the selection as its flags ("--type Signature --repr
// scalar"); noMatch words a *workflow.NoMatch for the command.
func (inv *invocation) refused(err error, selected string, noMatch func(m *workflow.NoMatch) string) int {
	var m *workflow.NoMatch
	var n *workflow.NothingMeasured
	switch {
	case errors.Is(err, errDryRun):
		return exitOK
	case errors.As(err, &m):
		return inv.usageError("%s", noMatch(m))
	case errors.As(err, &n) && n.DoesNotApply():
		return inv.usageError("%s selects only combinations that do not apply to their type: %s; run 'memprof list' for the combinations that exist", selected, strings.Join(n.Reasons(), "; "))
	case workflow.IsUsage(err):
		return inv.usageError("%v", err)
	}
	return inv.fail("%v", err)
}

// throughputFailed prints the error of a workflow's operations, whose
// instance rows are still good, and returns exitFailure.
func (inv *invocation) throughputFailed(err error) int {
	if disagree(err) {
		return inv.fail("%v\nno throughput figure is printed while the libraries disagree", err)
	}
	return inv.fail("%v", err)
}

// disagree reports whether err is a disagreement of the libraries, after
// which nothing is printed.
func disagree(err error) bool {
	var d *suites.Disagreement
	return errors.As(err, &d)
}

// progress prints a workflow's events on the command's stderr: what
// throughput tells (agreement checked without a library, the timing
// started, an operation failed) always, and, when bars is set and stderr
// is a terminal, a progress line of the cases and one of the timing.
type progress struct {
	inv  *invocation
	bars bool
	bar  *render.Progress // nil: none shown
}

func (p *progress) event(ev workflow.Event) {
	stderr := p.inv.stderr
	w := p.bar.Writer(stderr)
	name := p.inv.cmd.Name
	switch ev.Kind {
	case workflow.CasesStarting:
		p.bar = render.NewProgress(stderr, "case", ev.Total, p.bars && render.IsTerminal(stderr), time.Second)
		p.bar.ShowRSS(treeRSS)
	case workflow.CaseStarted:
		p.bar.Start(ev.Key.BenchName())
	case workflow.OpsStarting:
		p.bar = render.NewProgress(stderr, "throughput", 1, p.bars && render.IsTerminal(stderr), time.Second)
		p.bar.Start("agreement check and timing of the operations")
	case workflow.CasesDone, workflow.OpsDone:
		p.bar.Finish()
		p.bar = nil
	case workflow.AgreementWithout:
		fmt.Fprintf(w, "memprof %s: agreement checked without %s\n", name, ev.Message)
	case workflow.TimingStarted:
		t := ev.Timing
		fmt.Fprintf(w, "memprof %s: timing %s in %s (%s of at least %v each; at least %v)\n", name,
			count(t.Ops, "operation"), count(t.Groups, "group"), count(t.Samples, "sample"), t.MinSample, t.Estimate.Round(time.Second))
	case workflow.OpFailed:
		fmt.Fprintf(w, "memprof %s: %v\n", name, ev.Err)
	case workflow.MemoryEstimated:
		fmt.Fprintf(w, "memprof %s: this run will need %s\n", name, ev.Estimate.WithAvailable())
	case workflow.MemoryProbeFailed:
		fmt.Fprintf(w, "memprof %s: the memory estimate has the sizes alone, not what the constructors drop: probing them failed: %s\n", name, ev.Message)
	case workflow.SitesStarting:
		fmt.Fprintf(w, "memprof %s: profiling the allocation sites of %s, in child processes\n", name, count(ev.Total, "operation"))
	}
}

// count writes n things: "1 operation", "2 operations".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}
