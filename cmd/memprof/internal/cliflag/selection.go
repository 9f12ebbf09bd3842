// Package cliflag holds memprof's flags as types: the selection (--type,
// --lib, --repr, --layout, --scheme), the measurement's (-n, --jobs, the
// timing flags, --machine, --commit), the table's, the input limits, and
// the checks every command makes of its flags (a flag given where it does
// nothing or empty, a value that does not parse). It parses and checks;
// it never prints or exits: the command words the error.
package cliflag

import (
	"flag"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
	"github.com/memprof/memprof/workflow"
)

// Selection are the --type, --lib, --repr, --layout and --scheme
// flags, as given: workflow.Selection is what they choose.
type Selection struct {
	Types, Libs, Reprs, Layouts string
	Scheme                      string
	fs                          *flag.FlagSet // the flags were added to it: which were given
}

// add adds the selection flags to fs. Unless --layout says otherwise they
// select the pointer layout, and the collection layout of scenario types.
func (s *Selection) Add(fs *flag.FlagSet) {
	s.fs = fs
	fs.StringVar(&s.Types, "type", "", "measure `types` (comma-separated): "+vocab.Join(vocab.Types)+"; all = the object types "+vocab.Join(vocab.ObjectTypes)+"; scenarios = "+vocab.Join(vocab.Scenarios)+" (1,000,000 validators each: minutes); a family ("+vocab.Join(vocab.Families)+") = its types (kzg = "+vocab.Join(vocab.KZGTypes)+"); everything = every type")
	fs.StringVar(&s.Libs, "lib", "", "only these `libraries` (comma-separated): "+vocab.Join(vocab.Libs))
	fs.StringVar(&s.Reprs, "repr", "", "only these `representations` (comma-separated): "+vocab.Join(vocab.Reprs))
	fs.StringVar(&s.Layouts, "layout", "", "`layouts` (comma-separated, or all): "+vocab.Join(measure.Layouts)+" (default pointer, collection for the scenario types "+vocab.Join(vocab.Scenarios)+" and PeerDASNode, and single for KZGContext)")
	fs.StringVar(&s.Scheme, "scheme", "min-pk", "signature `schemes` (comma-separated, or all): min-pk (keys in G1, signatures in G2, as Ethereum), min-sig; types without a scheme are measured once")
}

// selection returns what the flags select, ops being the operations of
// --op; a usage error (a missing --type, an unknown name, --scheme for
// types without one) is returned as err.
func (s *Selection) Selection(ops []vocab.Op) (workflow.Selection, error) {
	if s.Types == "" {
		return workflow.Selection{}, fmt.Errorf("--type is required: valid types are %s, %s", vocab.Join(vocab.Types), workflow.TypeGroupsHelp)
	}
	sel := workflow.Selection{Ops: ops, Layouts: slices.Clone(measure.DefaultLayouts)}
	var err error
	if sel.Types, err = workflow.ParseTypes(s.Types); err != nil {
		return sel, vocab.Suggest(err, s.Types, workflow.TypeNames())
	}
	if sel.Libs, err = workflow.ParseList("lib", s.Libs, vocab.Libs); err != nil {
		return sel, vocab.Suggest(err, s.Libs, vocab.Strings(vocab.Libs))
	}
	if sel.Reprs, err = workflow.ParseList("repr", s.Reprs, vocab.Reprs); err != nil {
		return sel, vocab.Suggest(err, s.Reprs, vocab.Strings(vocab.Reprs))
	}
	if s.Layouts != "" {
		if sel.Layouts, err = workflow.ParseList("layout", s.Layouts, measure.Layouts); err != nil {
			return sel, vocab.Suggest(err, s.Layouts, vocab.Strings(measure.Layouts))
		}
	}
	if sel.Schemes, err = workflow.ParseList("scheme", s.Scheme, vocab.Schemes); err != nil {
		return sel, vocab.Suggest(err, s.Scheme, vocab.Strings(vocab.Schemes))
	}
	if WasGiven(s.fs, "scheme") && !slices.ContainsFunc(sel.Types, vocab.Type.HasScheme) {
		return sel, fmt.Errorf("--scheme does nothing for --type %s: only %s have a scheme (it decides their group)", s.Types, vocab.Join(vocab.SchemeTypes()))
	}
	return sel, nil
}

// timesMinPk refuses --with-throughput (flag named given) for a --scheme
// list without min-pk: operations are timed in min-pk only.
func (s *Selection) TimesMinPk(given string) error {
	schemes, err := workflow.ParseList("scheme", s.Scheme, vocab.Schemes)
	if err != nil || slices.Contains(schemes, vocab.MinPk) {
		return nil // an unknown scheme is refused by selection
	}
	return fmt.Errorf("%s times min-pk operations only (keys in G1, signatures in G2); add min-pk to --scheme %s", given, s.Scheme)
}

// describe writes the selection as the flags that made it:
// "--type Signature --repr scalar".
func (s *Selection) Describe() string {
	var parts []string
	for _, f := range []struct{ name, v string }{{"type", s.Types}, {"lib", s.Libs}, {"repr", s.Reprs}, {"layout", s.Layouts}} {
		if f.v != "" {
			parts = append(parts, "--"+f.name+" "+f.v)
		}
	}
	if !strings.EqualFold(s.Scheme, "min-pk") {
		parts = append(parts, "--scheme "+s.Scheme)
	}
	return strings.Join(parts, " ")
}

// Cases are -n and --jobs, of the commands that measure instances in
// child processes.
type Cases struct {
	n, jobs   int
	force     bool
	available string
	fs        *flag.FlagSet
}

// add adds the flags; nHelp is -n's help, and when ends --jobs' help.
func (c *Cases) Add(fs *flag.FlagSet, nHelp, when string) {
	c.fs = fs
	fs.IntVar(&c.n, "n", memprof.DefaultN, nHelp)
	fs.IntVar(&c.jobs, "jobs", runtime.GOMAXPROCS(0), "child processes run at once"+when)
	fs.StringVar(&c.available, "memory-available", "", "check the estimated peak memory against `size` (2GiB, 500MB) instead of the machine's available memory (MemAvailable of /proc/meminfo)"+when)
}

// ForceHelp is --force's help where it lets a run past the memory
// estimate.
const ForceHelp = "measure even when the estimated peak memory exceeds the memory available (such a run is otherwise refused before it starts)"

// AddForce adds --force, which lets a run past the memory estimate; a
// command whose --force does more says so in its own flag, and sets
// Options.Force itself.
func (c *Cases) AddForce(fs *flag.FlagSet, when string) {
	fs.BoolVar(&c.force, "force", false, ForceHelp+when)
}

// options checks the flags (the error is a usage error) and sets them in
// o: -n only when given, so that the scenarios keep their own scale.
func (c *Cases) Options(o *workflow.Options) error {
	if c.n <= 0 {
		return fmt.Errorf("-n must be positive, got %d", c.n)
	}
	if c.jobs <= 0 {
		return fmt.Errorf("--jobs must be positive, got %d", c.jobs)
	}
	if WasGiven(c.fs, "n") {
		o.N = c.n
	}
	o.Jobs = c.jobs
	o.Force = c.force
	if c.available != "" {
		b, err := units.ParseSize(c.available)
		if err != nil || b < 1 {
			return fmt.Errorf("--memory-available: want a positive size, got %q", c.available)
		}
		o.MemoryAvailable = uint64(b)
	}
	return nil
}

// Widen returns f with what the defaults of the flags not given left out:
// every layout without --layout, every scheme without --scheme.
func (s *Selection) Widen(f results.Selector) results.Selector {
	if !WasGiven(s.fs, "layout") {
		f.Layout = vocab.Strings(measure.Layouts)
	}
	if !WasGiven(s.fs, "scheme") {
		f.Scheme = vocab.Strings(vocab.Schemes)
	}
	return f
}

// NotWith refuses the selection flags given beside the flag with, which
// chooses the cases itself (why says how).
func (s *Selection) NotWith(with, why string) error {
	for _, name := range []string{"type", "lib", "repr", "layout", "scheme"} {
		if WasGiven(s.fs, name) {
			return fmt.Errorf("%s does nothing with %s: %s", Dashed(name), with, why)
		}
	}
	return nil
}

// Timing are the flags of the throughput measurement: --samples,
// --min-sample and, where operations are chosen, --op.
type Timing struct {
	samples   int
	minSample time.Duration
	Ops       string
	paths     string // default or all
	sites     bool
}

// add adds the flags; when starts their help ("when timing, "), and
// withOp adds --op.
func (to *Timing) Add(fs *flag.FlagSet, when string, withOp bool) {
	fs.IntVar(&to.samples, "samples", memprof.DefaultSamples, when+"`number` of samples per operation (at least 1)")
	fs.DurationVar(&to.minSample, "min-sample", memprof.DefaultMinSample, when+"least wall-time `duration` of one sample")
	if withOp {
		fs.StringVar(&to.Ops, "op", "", "only these `operations` (comma-separated): "+vocab.Join(vocab.Ops))
	}
	fs.StringVar(&to.paths, "paths", "default", when+"which `paths` to time: default (the natural operations, and "+vocab.Join(suites.DefaultPathOps)+" from every representation) or all (every operation from every representation)")
	fs.BoolVar(&to.sites, "sites", true, when+"also profile where each operation allocates (sites), in one child process after the timing")
}

// options checks the flags (the error is a usage error), sets them in o
// and returns the operations --op chooses.
func (to *Timing) Options(o *workflow.Options) ([]vocab.Op, error) {
	if to.samples < 1 {
		return nil, fmt.Errorf("--samples must be at least 1, got %d", to.samples)
	}
	if to.minSample <= 0 {
		return nil, fmt.Errorf("--min-sample must be a positive duration such as 100ms, got %v", to.minSample)
	}
	o.Samples, o.MinSample = to.samples, to.minSample
	switch strings.ToLower(to.paths) {
	case "default":
	case "all":
		o.AllPaths = true
	default:
		return nil, fmt.Errorf("--paths must be default or all, got %q", to.paths)
	}
	o.NoSites = !to.sites
	ops, err := workflow.ParseList("op", to.Ops, vocab.Ops)
	return ops, vocab.Suggest(err, to.Ops, vocab.Strings(vocab.Ops))
}

// OpFlag writes --op as given, or "" when it was not.
func (to *Timing) OpFlag() string {
	if to.Ops == "" {
		return ""
	}
	return "--op " + to.Ops
}

// Added runs add and returns the names of the flags it added to fs.
func Added(fs *flag.FlagSet, add func()) []string {
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

// noCaseMatches says that no registered case matches the selection flags.
func (s *Selection) NoCaseMatches() string {
	return fmt.Sprintf("no case matches --type %s --lib %s --repr %s --layout %s; run 'memprof list' for the combinations that exist", OrAll(s.Types), OrAll(s.Libs), OrAll(s.Reprs), OrAll(s.Layouts))
}

// noMatch words a *workflow.NoMatch of instances --with-throughput or of
// report: what flag did nothing (given), that no operation matches the
// selection and --op, and which types have operations.
func (s *Selection) NoMatch(to *Timing, given string) func(m *workflow.NoMatch) string {
	return func(m *workflow.NoMatch) string {
		if m.What == "case" {
			return s.NoCaseMatches()
		}
		return fmt.Sprintf("%s does nothing: no operation matches %s; types with operations are %s", given, strings.TrimSpace(s.Describe()+" "+to.OpFlag()), vocab.Join(m.OpTypes))
	}
}

// Inert says that some flags do nothing unless a condition holds, as
// --op without --with-throughput.
type Inert struct {
	Matters bool     // the condition holds: the flags have an effect
	Why     string   // completes "--op does nothing ...": "without --with-throughput"
	Flags   []string // the flags' names, without dashes
}

// Unless says that flags do nothing unless matters, why completing
// "--op does nothing ...".
func Unless(matters bool, why string, flags ...string) Inert {
	return Inert{Matters: matters, Why: why, Flags: flags}
}

// Check returns a usage error for the first flag given on the command
// line (fs.Visit sees only those) that has an empty value, blank or only
// commas, or that a rule says does nothing. An empty value is never read
// as the default: an unset shell variable in --lib "$LIB" would otherwise
// select every library, and in -o "$OUT" write to stdout.
func Check(fs *flag.FlagSet, rules ...Inert) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err != nil {
			return
		}
		if g, ok := f.Value.(flag.Getter); ok {
			if v, ok := g.Get().(string); ok && strings.Trim(v, ", \t") == "" {
				err = fmt.Errorf("%s is empty: %s", Dashed(f.Name), emptyHint(f))
				return
			}
		}
		for _, r := range rules {
			if !r.Matters && slices.Contains(r.Flags, f.Name) {
				err = fmt.Errorf("%s does nothing %s", Dashed(f.Name), r.Why)
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

// WasGiven reports whether the flag name was given on the command line.
func WasGiven(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

// Dashed writes a flag's name as its help does: -n, --lib.
func Dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

func OrAll(v string) string {
	if v == "" {
		return "all"
	}
	return v
}
