package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
)

// nothingMeasuredHelp and flagsHelp end the help of the measuring
// commands: how a selection that can measure nothing, and a flag that does
// nothing, are refused (refuseNothing, checkFlags).
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

// selection is the set of cases the --type, --lib, --repr, --layout and
// --scheme flags choose.
type selection struct {
	types, libs, reprs, layouts string
	scheme                      string
	defaultLayout               string
	fs                          *flag.FlagSet // the flags were added to it: which were given
}

// addFlags adds the selection flags to fs. defaultLayout "pointer" selects
// the pointer layout, and the collection layout of scenario types, unless
// --layout says otherwise; "" selects every layout.
func (s *selection) addFlags(fs *flag.FlagSet, defaultLayout string) {
	s.defaultLayout, s.fs = defaultLayout, fs
	fs.StringVar(&s.types, "type", "", "measure `types` (comma-separated): "+model.Join(model.Types)+"; all = the object types "+model.Join(model.ObjectTypes)+"; scenarios = "+model.Join(model.Scenarios)+" (1,000,000 validators each: minutes); everything = both")
	fs.StringVar(&s.libs, "lib", "", "only these `libraries` (comma-separated): "+model.Join(model.Libs))
	fs.StringVar(&s.reprs, "repr", "", "only these `representations` (comma-separated): "+model.Join(model.Reprs))
	help := "`layouts` (comma-separated, or all): " + model.Join(model.Layouts)
	if defaultLayout == "pointer" {
		help += " (default pointer, and collection for the scenario types " + model.Join(model.Scenarios) + ")"
	}
	fs.StringVar(&s.layouts, "layout", "", help)
	fs.StringVar(&s.scheme, "scheme", "min-pk", "signature `scheme`: min-pk (keys in G1, signatures in G2, as Ethereum) or min-sig")
}

// parseList canonicalises a comma-separated list of names against valid;
// "" and "all" mean every name.
func parseList[T model.Name](what, v string, valid []T) ([]T, error) {
	if v == "" || strings.EqualFold(v, "all") {
		return valid, nil
	}
	var out []T
	for _, part := range strings.Split(v, ",") {
		c, err := model.Canonical(what, strings.TrimSpace(part), valid)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out, nil
}

// parseTypes canonicalises a --type list. Besides type names it takes
// "all" (the single-object types: the matrix, measured in seconds),
// "scenarios" (the whole-structure types, measured at 1,000,000 validators)
// and "everything" (both); "" means all.
func parseTypes(v string) ([]model.Type, error) {
	var out []model.Type
	add := func(ts ...model.Type) {
		for _, t := range ts {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	if strings.TrimSpace(v) == "" {
		return model.ObjectTypes, nil
	}
	for _, part := range strings.Split(v, ",") {
		switch p := strings.TrimSpace(part); {
		case strings.EqualFold(p, "all"):
			add(model.ObjectTypes...)
		case strings.EqualFold(p, "scenarios"):
			add(model.Scenarios...)
		case strings.EqualFold(p, "everything"):
			add(model.Types...)
		default:
			c, err := model.Canonical("type", p, model.Types)
			if err != nil {
				return nil, fmt.Errorf("%v, or all (the object types), scenarios, everything", err)
			}
			add(c)
		}
	}
	return out, nil
}

// resolve returns the registered entries the selection chooses: those that
// can be measured, and those that cannot, with the reason. A usage error
// (unknown name, missing --type) is returned as err.
func (s *selection) resolve(requireType bool) (measure []suites.Entry, unavailable []model.Unavailable, err error) {
	if requireType && s.types == "" {
		return nil, nil, fmt.Errorf("--type is required: valid types are %s, or all (the object types), scenarios, everything", model.Join(model.Types))
	}
	types, err := parseTypes(s.types)
	if err != nil {
		return nil, nil, err
	}
	libs, err := parseList("lib", s.libs, model.Libs)
	if err != nil {
		return nil, nil, err
	}
	reprs, err := parseList("repr", s.reprs, model.Reprs)
	if err != nil {
		return nil, nil, err
	}
	layouts, err := parseList("layout", s.layouts, model.Layouts)
	if err != nil {
		return nil, nil, err
	}
	if s.layouts == "" && s.defaultLayout == "pointer" {
		layouts = []model.Layout{model.Pointer, model.Collection}
	}
	scheme, err := model.Canonical("scheme", s.scheme, model.Schemes)
	if err != nil {
		return nil, nil, err
	}
	if s.fs != nil && wasGiven(s.fs, "scheme") {
		if !slices.ContainsFunc(types, model.Type.HasScheme) {
			return nil, nil, fmt.Errorf("--scheme does nothing for --type %s: only %s have a scheme (it decides their group)", s.types, model.Join(schemeTypes()))
		}
	}
	for _, e := range registry().Entries() {
		if !slices.Contains(types, e.Type) || !slices.Contains(libs, e.Lib) || !slices.Contains(reprs, e.Repr) || !slices.Contains(layouts, e.Layout) {
			continue
		}
		if e.Scheme != "" && e.Scheme != scheme {
			continue
		}
		if !e.Unavailable.IsZero() {
			unavailable = append(unavailable, model.Unavailable{Key: e.Key, Why: e.Unavailable})
			continue
		}
		measure = append(measure, e)
	}
	if len(measure) == 0 && len(unavailable) == 0 {
		return nil, nil, fmt.Errorf("no case matches --type %s --lib %s --repr %s --layout %s; run 'memprof list' for the combinations that exist", orAll(s.types), orAll(s.libs), orAll(s.reprs), orAll(s.layouts))
	}
	return measure, unavailable, nil
}

// describe writes the selection as the flags that made it:
// "--type Signature --repr scalar".
func (s *selection) describe() string {
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

// schemeTypes are the types whose group the scheme decides (PublicKey and
// Signature).
func schemeTypes() []model.Type {
	var out []model.Type
	for _, t := range model.Types {
		if t.HasScheme() {
			out = append(out, t)
		}
	}
	return out
}

// refuseNothing refuses a selection of which nothing can be measured:
// every selected case (what: "case" or "operation") is unavailable, for
// the reasons given. When none of them applies to its type (a scalar
// Signature), the selection itself is wrong: a usage error naming why.
// Otherwise a library or this build lacks them: a failure, one line
// saying that nothing was measured and why. Either way nothing is
// measured or written.
func (inv *invocation) refuseNothing(selected, what string, reasons []model.Why) int {
	var notApplicable, other []string
	for _, why := range reasons {
		list, text := &other, why.Reason
		if why.Kind == model.DoesNotApply {
			list, text = &notApplicable, strings.TrimPrefix(why.Reason, "does not apply: ")
		}
		if !slices.Contains(*list, text) {
			*list = append(*list, text)
		}
	}
	if len(other) == 0 {
		return inv.usageError("%s selects only combinations that do not apply to their type: %s; run 'memprof list' for the combinations that exist", selected, strings.Join(notApplicable, "; "))
	}
	return inv.fail("nothing measured: every selected %s is unavailable: %s", what, strings.Join(other, "; "))
}

// unavailableReasons returns the reasons of us.
func unavailableReasons(us []model.Unavailable) []model.Why {
	out := make([]model.Why, len(us))
	for i, u := range us {
		out[i] = u.Why
	}
	return out
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
	choices := map[string][]string{"type": model.Strings(model.Types), "lib": model.Strings(model.Libs), "repr": model.Strings(model.Reprs), "layout": model.Strings(model.Layouts), "op": model.Strings(model.Ops), "scheme": model.Strings(model.Schemes)}
	def := "leave the flag out for the default"
	if f.DefValue != "" {
		def += " (" + f.DefValue + ")"
	}
	switch valid := choices[f.Name]; {
	case f.Name == "type":
		return "name one or more of " + strings.Join(valid, ", ") + ", or all, scenarios, everything"
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

func orAll(v string) string {
	if v == "" {
		return "all"
	}
	return v
}
