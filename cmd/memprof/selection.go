package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/suites"
)

// selection is the set of cases the --type, --lib, --repr, --layout and
// --scheme flags choose.
type selection struct {
	types, libs, reprs, layouts string
	scheme                      string
	defaultLayout               string
}

// addFlags adds the selection flags to fs. defaultLayout "pointer" selects
// the pointer layout, and the collection layout of scenario types, unless
// --layout says otherwise; "" selects every layout.
func (s *selection) addFlags(fs *flag.FlagSet, defaultLayout string) {
	s.defaultLayout = defaultLayout
	fs.StringVar(&s.types, "type", "", "measure `types` (comma-separated): "+strings.Join(suites.Types, ", ")+"; all = the object types "+strings.Join(objectTypes(), ", ")+"; scenarios = "+strings.Join(suites.Scenarios, ", ")+" (1,000,000 validators each: minutes); everything = both")
	fs.StringVar(&s.libs, "lib", "", "only these `libraries` (comma-separated): "+strings.Join(suites.Libs, ", "))
	fs.StringVar(&s.reprs, "repr", "", "only these `representations` (comma-separated): "+strings.Join(suites.Reprs, ", "))
	help := "`layouts` (comma-separated, or all): " + strings.Join(suites.Layouts, ", ")
	if defaultLayout == "pointer" {
		help += " (default pointer, and collection for the scenario types " + strings.Join(suites.Scenarios, ", ") + ")"
	}
	fs.StringVar(&s.layouts, "layout", "", help)
	fs.StringVar(&s.scheme, "scheme", "min-pk", "signature `scheme`: min-pk (keys in G1, signatures in G2, as Ethereum) or min-sig")
}

// parseList canonicalises a comma-separated list of names against valid;
// "" and "all" mean every name.
func parseList(what, v string, valid []string) ([]string, error) {
	if v == "" || strings.EqualFold(v, "all") {
		return valid, nil
	}
	var out []string
	for _, part := range strings.Split(v, ",") {
		c, err := suites.Canonical(what, strings.TrimSpace(part), valid)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out, nil
}

// objectTypes are the single-object types: every type but the scenarios.
func objectTypes() []string {
	var out []string
	for _, t := range suites.Types {
		if !slices.Contains(suites.Scenarios, t) {
			out = append(out, t)
		}
	}
	return out
}

// parseTypes canonicalises a --type list. Besides type names it takes
// "all" (the single-object types: the matrix, measured in seconds),
// "scenarios" (the whole-structure types, measured at 1,000,000 validators)
// and "everything" (both); "" means all.
func parseTypes(v string) ([]string, error) {
	var out []string
	add := func(ts ...string) {
		for _, t := range ts {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	if strings.TrimSpace(v) == "" {
		return objectTypes(), nil
	}
	for _, part := range strings.Split(v, ",") {
		switch p := strings.TrimSpace(part); {
		case strings.EqualFold(p, "all"):
			add(objectTypes()...)
		case strings.EqualFold(p, "scenarios"):
			add(suites.Scenarios...)
		case strings.EqualFold(p, "everything"):
			add(suites.Types...)
		default:
			c, err := suites.Canonical("type", p, suites.Types)
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
func (s *selection) resolve(requireType bool) (measure []suites.Entry, unavailable []memprof.Unavailable, err error) {
	if requireType && s.types == "" {
		return nil, nil, fmt.Errorf("--type is required: valid types are %s, or all (the object types), scenarios, everything", strings.Join(suites.Types, ", "))
	}
	types, err := parseTypes(s.types)
	if err != nil {
		return nil, nil, err
	}
	libs, err := parseList("lib", s.libs, suites.Libs)
	if err != nil {
		return nil, nil, err
	}
	reprs, err := parseList("repr", s.reprs, suites.Reprs)
	if err != nil {
		return nil, nil, err
	}
	layouts, err := parseList("layout", s.layouts, suites.Layouts)
	if err != nil {
		return nil, nil, err
	}
	if s.layouts == "" && s.defaultLayout == "pointer" {
		layouts = []string{"pointer", "collection"}
	}
	scheme, err := suites.Canonical("scheme", s.scheme, suites.Schemes)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range suites.All() {
		if !slices.Contains(types, e.Type) || !slices.Contains(libs, e.Lib) || !slices.Contains(reprs, e.Repr) || !slices.Contains(layouts, e.Layout) {
			continue
		}
		if e.Scheme != "" && e.Scheme != scheme {
			continue
		}
		if e.Unavailable != "" {
			unavailable = append(unavailable, memprof.Unavailable{Type: e.Type, Lib: e.Lib, Repr: e.Repr, Layout: e.Layout, Reason: e.Unavailable})
			continue
		}
		measure = append(measure, e)
	}
	if len(measure) == 0 && len(unavailable) == 0 {
		return nil, nil, fmt.Errorf("no case matches --type %s --lib %s --repr %s --layout %s; run 'memprof list' for the combinations that exist", orAll(s.types), orAll(s.libs), orAll(s.reprs), orAll(s.layouts))
	}
	return measure, unavailable, nil
}

func orAll(v string) string {
	if v == "" {
		return "all"
	}
	return v
}
