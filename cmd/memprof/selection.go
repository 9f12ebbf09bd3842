package main

import (
	"errors"
	"flag"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
	"github.com/memprof/memprof/workflow"
)

// nothingMeasuredHelp and flagsHelp end the help of the measuring
// commands: how a selection that can measure nothing, and a flag that does
// nothing, are refused (refused, checkFlags).
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

// selectionFlags are the --type, --lib, --repr, --layout and --scheme
// flags, as given: workflow.Selection is what they choose.
type selectionFlags struct {
	types, libs, reprs, layouts string
	scheme                      string
	fs                          *flag.FlagSet // the flags were added to it: which were given
}

// add adds the selection flags to fs. Unless --layout says otherwise they
// select the pointer layout, and the collection layout of scenario types.
func (s *selectionFlags) add(fs *flag.FlagSet) {
	s.fs = fs
	fs.StringVar(&s.types, "type", "", "measure `types` (comma-separated): "+vocab.Join(vocab.Types)+"; all = the object types "+vocab.Join(vocab.ObjectTypes)+"; scenarios = "+vocab.Join(vocab.Scenarios)+" (1,000,000 validators each: minutes); a family ("+vocab.Join(vocab.Families)+") = its types (kzg = "+vocab.Join(vocab.KZGTypes)+"); everything = every type")
	fs.StringVar(&s.libs, "lib", "", "only these `libraries` (comma-separated): "+vocab.Join(vocab.Libs))
	fs.StringVar(&s.reprs, "repr", "", "only these `representations` (comma-separated): "+vocab.Join(vocab.Reprs))
	fs.StringVar(&s.layouts, "layout", "", "`layouts` (comma-separated, or all): "+vocab.Join(measure.Layouts)+" (default pointer, collection for the scenario types "+vocab.Join(vocab.Scenarios)+" and PeerDASNode, and single for KZGContext)")
	fs.StringVar(&s.scheme, "scheme", "min-pk", "signature `schemes` (comma-separated, or all): min-pk (keys in G1, signatures in G2, as Ethereum), min-sig; types without a scheme are measured once")
}

// selection returns what the flags select, ops being the operations of
// --op; a usage error (a missing --type, an unknown name, --scheme for
// types without one) is returned as err.
func (s *selectionFlags) selection(ops []vocab.Op) (workflow.Selection, error) {
	if s.types == "" {
		return workflow.Selection{}, fmt.Errorf("--type is required: valid types are %s, %s", vocab.Join(vocab.Types), workflow.TypeGroupsHelp)
	}
	sel := workflow.Selection{Ops: ops, Layouts: slices.Clone(measure.DefaultLayouts)}
	var err error
	if sel.Types, err = workflow.ParseTypes(s.types); err != nil {
		return sel, vocab.Suggest(err, s.types, workflow.TypeNames())
	}
	if sel.Libs, err = workflow.ParseList("lib", s.libs, vocab.Libs); err != nil {
		return sel, vocab.Suggest(err, s.libs, vocab.Strings(vocab.Libs))
	}
	if sel.Reprs, err = workflow.ParseList("repr", s.reprs, vocab.Reprs); err != nil {
		return sel, vocab.Suggest(err, s.reprs, vocab.Strings(vocab.Reprs))
	}
	if s.layouts != "" {
		if sel.Layouts, err = workflow.ParseList("layout", s.layouts, measure.Layouts); err != nil {
			return sel, vocab.Suggest(err, s.layouts, vocab.Strings(measure.Layouts))
		}
	}
	if sel.Schemes, err = workflow.ParseList("scheme", s.scheme, vocab.Schemes); err != nil {
		return sel, vocab.Suggest(err, s.scheme, vocab.Strings(vocab.Schemes))
	}
	if wasGiven(s.fs, "scheme") && !slices.ContainsFunc(sel.Types, vocab.Type.HasScheme) {
		return sel, fmt.Errorf("--scheme does nothing for --type %s: only %s have a scheme (it decides their group)", s.types, vocab.Join(vocab.SchemeTypes()))
	}
	return sel, nil
}

// timesMinPk refuses --with-throughput (flag named given) for a --scheme
// list without min-pk: operations are timed in min-pk only.
func (s *selectionFlags) timesMinPk(given string) error {
	schemes, err := workflow.ParseList("scheme", s.scheme, vocab.Schemes)
	if err != nil || slices.Contains(schemes, vocab.MinPk) {
		return nil // an unknown scheme is refused by selection
	}
	return fmt.Errorf("%s times min-pk operations only (keys in G1, signatures in G2); add min-pk to --scheme %s", given, s.scheme)
}

// describe writes the selection as the flags that made it:
// "--type Signature --repr scalar".
func (s *selectionFlags) describe() string {
	var parts []string
	for _, f := range []struct{ name, v string }{{"type", s.types}, {"lib", s.libs}, {"repr", s.reprs}, {"layout", s.layouts}} {
		if f.v != "" {
			parts = append(parts, "--"+f.name+" "+f.v)
		}
	}
	if !strings.EqualFold(s.scheme, "min-pk") {
		parts = append(parts, "--scheme "+s.scheme)
	}
	return strings.Join(parts, " ")
}

// caseFlags are -n and --jobs, of the commands that measure instances in
// child processes.
type caseFlags struct {
	n, jobs int
	fs      *flag.FlagSet
}

// add adds the flags; nHelp is -n's help, and when ends --jobs' help.
func (c *caseFlags) add(fs *flag.FlagSet, nHelp, when string) {
	c.fs = fs
	fs.IntVar(&c.n, "n", memprof.DefaultN, nHelp)
	fs.IntVar(&c.jobs, "jobs", runtime.GOMAXPROCS(0), "child processes run at once"+when)
}

// options checks the flags (the error is a usage error) and sets them in
// o: -n only when given, so that the scenarios keep their own scale.
func (c *caseFlags) options(o *workflow.Options) error {
	if c.n <= 0 {
		return fmt.Errorf("-n must be positive, got %d", c.n)
	}
	if c.jobs <= 0 {
		return fmt.Errorf("--jobs must be positive, got %d", c.jobs)
	}
	if wasGiven(c.fs, "n") {
		o.N = c.n
	}
	o.Jobs = c.jobs
	return nil
}

// timingFlags are the flags of the throughput measurement: --samples,
// --min-sample and, where operations are chosen, --op.
type timingFlags struct {
	samples   int
	minSample time.Duration
	ops       string
	paths     string // default or all
	sites     bool
}

// add adds the flags; when starts their help ("when timing, "), and
// withOp adds --op.
func (to *timingFlags) add(fs *flag.FlagSet, when string, withOp bool) {
	fs.IntVar(&to.samples, "samples", memprof.DefaultSamples, when+"`number` of samples per operation (at least 1)")
	fs.DurationVar(&to.minSample, "min-sample", memprof.DefaultMinSample, when+"least wall-time `duration` of one sample")
	if withOp {
		fs.StringVar(&to.ops, "op", "", "only these `operations` (comma-separated): "+vocab.Join(vocab.Ops))
	}
	fs.StringVar(&to.paths, "paths", "default", when+"which `paths` to time: default (the natural operations, and "+vocab.Join(suites.DefaultPathOps)+" from every representation) or all (every operation from every representation)")
	fs.BoolVar(&to.sites, "sites", true, when+"also profile where each operation allocates (sites), in one child process after the timing")
}

// options checks the flags (the error is a usage error), sets them in o
// and returns the operations --op chooses.
func (to *timingFlags) options(o *workflow.Options) ([]vocab.Op, error) {
	if to.samples < 1 {
		return nil, fmt.Errorf("--samples must be at least 1, got %d", to.samples)
	}
	if to.minSample <= 0 {
		return nil, fmt.Errorf("--min-sample must be a positive duration such as 100ms, got %v", to.minSample)
	}
	o.Samples, o.MinSample, o.Agree, o.AgreeKZG = to.samples, to.minSample, agreeRun, agreeKZGRun
	switch strings.ToLower(to.paths) {
	case "default":
	case "all":
		o.AllPaths = true
	default:
		return nil, fmt.Errorf("--paths must be default or all, got %q", to.paths)
	}
	o.NoSites = !to.sites
	ops, err := workflow.ParseList("op", to.ops, vocab.Ops)
	return ops, vocab.Suggest(err, to.ops, vocab.Strings(vocab.Ops))
}

// opFlag writes --op as given, or "" when it was not.
func (to *timingFlags) opFlag() string {
	if to.ops == "" {
		return ""
	}
	return "--op " + to.ops
}

// agreeRun and agreeKZGRun, when set, replace two families' agreement
// checks (workflow.Options.Agree, AgreeKZG): tests set them to see a
// disagreement handled. Unset, every family's check is the registry's.
var agreeRun, agreeKZGRun func(*suites.Registry) (*suites.AgreeReport, error)

// flagsAdded runs add and returns the names of the flags it added to fs.
func flagsAdded(fs *flag.FlagSet, add func()) []string {
	before := map[string]bool{}
	fs.VisitAll(func(f *flag.Flag) { before[f.Name] = true })
	add()
	var names []string
	fs.VisitAll(func(f *flag.Flag) {
		if !before[f.Name] {
			names = append(names, f.Name)
		}
	})
	return names
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

// noCaseMatches says that no registered case matches the selection flags.
func (s *selectionFlags) noCaseMatches() string {
	return fmt.Sprintf("no case matches --type %s --lib %s --repr %s --layout %s; run 'memprof list' for the combinations that exist", orAll(s.types), orAll(s.libs), orAll(s.reprs), orAll(s.layouts))
}

// noMatch words a *workflow.NoMatch of instances --with-throughput or of
// report: what flag did nothing (given), that no operation matches the
// selection and --op, and which types have operations.
func (s *selectionFlags) noMatch(to *timingFlags, given string) func(m *workflow.NoMatch) string {
	return func(m *workflow.NoMatch) string {
		if m.What == "case" {
			return s.noCaseMatches()
		}
		return fmt.Sprintf("%s does nothing: no operation matches %s; types with operations are %s", given, strings.TrimSpace(s.describe()+" "+to.opFlag()), vocab.Join(m.OpTypes))
	}
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
		p.bar = render.NewProgress(stderr, "case", ev.Total, p.bars && isTerminal(stderr), time.Second)
	case workflow.CaseStarted:
		p.bar.Start(ev.Key.BenchName())
	case workflow.OpsStarting:
		p.bar = render.NewProgress(stderr, "throughput", 1, p.bars && isTerminal(stderr), time.Second)
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
	case workflow.SitesStarting:
		fmt.Fprintf(w, "memprof %s: profiling the allocation sites of %s, in child processes\n", name, count(ev.Total, "operation"))
	}
}

// inert says that some flags do nothing unless a condition holds, as
// --op without --with-throughput.
type inert struct {
	matters bool     // the condition holds: the flags have an effect
	why     string   // completes "--op does nothing ...": "without --with-throughput"
	flags   []string // the flags' names, without dashes
}

// checkFlags returns a usage error for the first flag given on the command
// line (fs.Visit sees only those) that has an empty value, blank or only
// commas, or that a rule says does nothing. An empty value is never read
// as the default: an unset shell variable in --lib "$LIB" would otherwise
// select every library, and in -o "$OUT" write to stdout.
func checkFlags(fs *flag.FlagSet, rules ...inert) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err != nil {
			return
		}
		if g, ok := f.Value.(flag.Getter); ok {
			if v, ok := g.Get().(string); ok && strings.Trim(v, ", \t") == "" {
				err = fmt.Errorf("%s is empty: %s", dashed(f.Name), emptyHint(f))
				return
			}
		}
		for _, r := range rules {
			if !r.matters && slices.Contains(r.flags, f.Name) {
				err = fmt.Errorf("%s does nothing %s", dashed(f.Name), r.why)
				return
			}
		}
	})
	return err
}

// emptyHint says what an empty flag could have been instead.
func emptyHint(f *flag.Flag) string {
	choices := map[string][]string{"type": vocab.Strings(vocab.Types), "lib": vocab.Strings(vocab.Libs), "repr": vocab.Strings(vocab.Reprs), "layout": vocab.Strings(measure.Layouts), "op": vocab.Strings(vocab.Ops), "scheme": vocab.Strings(vocab.Schemes)}
	def := "leave the flag out for the default"
	if f.DefValue != "" {
		def += " (" + f.DefValue + ")"
	}
	switch valid := choices[f.Name]; {
	case f.Name == "type":
		return "name one or more of " + strings.Join(valid, ", ") + ", or all, scenarios, everything, or a family: " + vocab.Join(vocab.Families)
	case f.Name == "scheme":
		return "name one of " + strings.Join(valid, ", ") + ", or " + def
	case valid != nil && f.Name != "layout":
		return "name one or more of " + strings.Join(valid, ", ") + ", or leave the flag out for all"
	case valid != nil:
		return "name one or more of " + strings.Join(valid, ", ") + ", or " + def
	}
	return "give a value, or " + def
}

// wasGiven reports whether the flag name was given on the command line.
func wasGiven(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

// dashed writes a flag's name as its help does: -n, --lib.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// count writes n things: "1 operation", "2 operations".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

func orAll(v string) string {
	if v == "" {
		return "all"
	}
	return v
}
