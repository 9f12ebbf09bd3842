package gate

import (
	"strings"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// Selector chooses cases. Each field lists the accepted names. An empty
// field selects what a run that does not name it measures: every name,
// but for Layout the default layouts (measure.DefaultLayouts: not the
// slice) and for Scheme the default scheme (min-pk), as memprof instances
// and throughput measure them by default; "all" in a budgets file (or
// the full list) widens them. Names are canonical (as the suites
// registry spells them).
type Selector struct {
	Type, Lib, Repr, Layout, Scheme, Op []string
	// Param selects the parameter of cases measured at several settings
	// ("precompute=8"); any value is a valid name.
	Param []string
	// noScheme selects, of the cases a scheme decides, none (File.OfSchemes
	// keeps so the types without a scheme of a budget whose schemes were
	// left out).
	noScheme bool
}

// String renders the selector as in a budgets file: {type: Signature, lib: blst}.
func (s Selector) String() string {
	var parts []string
	for _, f := range s.fields() {
		if len(f.values) == 1 {
			parts = append(parts, f.key+": "+f.values[0])
		} else if len(f.values) > 1 {
			parts = append(parts, f.key+": ["+strings.Join(f.values, ", ")+"]")
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

type selectorField struct {
	key    string
	values []string
	valid  []string // nil: any name
}

func (s *Selector) fields() []selectorField {
	return []selectorField{
		{"type", s.Type, vocab.Strings(vocab.Types)}, {"lib", s.Lib, vocab.Strings(vocab.Libs)}, {"repr", s.Repr, vocab.Strings(vocab.Reprs)},
		{"layout", s.Layout, vocab.Strings(measure.Layouts)}, {"scheme", s.Scheme, vocab.Strings(vocab.Schemes)}, {"op", s.Op, vocab.Strings(vocab.Ops)},
		{"param", s.Param, nil},
	}
}

// Matches reports whether the case k is selected, as results.Selector
// decides it. For an instance case
// (no op), a selector naming an op selects only operations, never
// instances; a selector without layout selects the default layouts
// (measure.DefaultLayouts), and one without scheme the scheme a case's type
// has by default (min-pk; a key without a scheme is of its type's
// default), what memprof instances measures when not told otherwise. A
// case whose type has no scheme is selected by any scheme. For an
// operation the layout and scheme are not selected on (operations have
// no layout and are all min-pk; Parse refuses time budgets that select on
// them).
func (s Selector) Matches(k results.Key) bool { return s.Results().Matches(k) }

// Results returns s as the results.Selector that decides what it selects
// (for a time budget, whose selectors name no scheme, the scheme of an
// operation is its type's default).
func (s Selector) Results() results.Selector {
	return results.Selector{Type: s.Type, Lib: s.Lib, Repr: s.Repr, Layout: s.Layout, Scheme: s.Scheme, Op: s.Op, Param: s.Param, NoScheme: s.noScheme}
}
