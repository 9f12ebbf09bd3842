package results

import (
	"slices"
	"strings"

	"github.com/memprof/memprof/measure"
)

// Selector chooses cases and operations by their key, with the syntax and
// meaning of a budget's select: each field lists the accepted names
// (compared ignoring case). An empty field selects what a run that does
// not name it measures: every name, but for Layout the default layouts
// (measure.DefaultLayouts: not the slice) and for Scheme the scheme a
// case's type has by default (min-pk), as memprof instances and
// throughput measure them by default; the full list of names ("all" in
// a budgets file or a flag) widens them. Budgets (gate), show and the
// measuring workflow select with it.
type Selector struct {
	Type, Lib, Repr, Layout, Scheme, Op []string
	// Param selects the parameter of cases measured at several settings
	// ("precompute=8"); any value is a valid name.
	Param []string
	// NoScheme selects, of the instance cases a scheme decides, none
	// (memprof check --scheme keeps so the types without a scheme of a
	// budget whose schemes were left out).
	NoScheme bool
}

// accepts reports whether list accepts v: an empty list accepts any.
func accepts(list []string, v string) bool {
	if len(list) == 0 {
		return true
	}
	return slices.ContainsFunc(list, func(s string) bool { return strings.EqualFold(s, v) })
}

// Matches reports whether the case or operation k is selected. For an
// instance case (no op), a selector naming an op selects only operations,
// never instances; a selector without layout selects the default layouts
// (measure.DefaultLayouts), and one without scheme the scheme a case's
// type has by default (min-pk; a key without a scheme is of its type's
// default). A case whose type has no scheme is selected by any scheme,
// and a case without a layout (a user's own) by any layout. An operation
// is not selected on layout (it has none), and on scheme only by a
// selector that names schemes (operations are min-pk), when its type has
// one.
func (s Selector) Matches(k Key) bool {
	base := accepts(s.Type, string(k.Type)) && accepts(s.Lib, string(k.Lib)) && accepts(s.Repr, string(k.Repr)) && accepts(s.Param, string(k.Param))
	if k.Op != "" {
		scheme := k.Normalize().Scheme
		return base && accepts(s.Op, string(k.Op)) && (scheme == "" || accepts(s.Scheme, string(scheme)))
	}
	if !base || len(s.Op) > 0 {
		return false
	}
	switch {
	case k.Layout == "": // a user's own case: no layout to select on
	case len(s.Layout) == 0 && !slices.Contains(measure.DefaultLayouts, k.Layout):
		return false
	case !accepts(s.Layout, string(k.Layout)):
		return false
	}
	switch scheme := k.Normalize().Scheme; {
	case scheme == "":
		return true
	case s.NoScheme:
		return false
	case len(s.Scheme) == 0:
		return scheme == k.Type.DefaultScheme()
	default:
		return accepts(s.Scheme, string(scheme))
	}
}

// Select returns a copy of f with the rows s selects (its other fields
// shared with f; the trade-offs, derived from every row, left out). A
// list s selects whole is f's own, shared; the others are new lists of
// exactly the rows selected, so that selecting from a file at the row
// limit costs no second copy of it.
func (f *File) Select(s Selector) *File {
	c := *f
	c.Tradeoff = nil
	c.Instances = selectRows(f.Instances, s, func(r *Row) Key { return r.Key })
	c.Throughput = selectRows(f.Throughput, s, func(r *ThroughputRow) Key { return r.Key })
	c.Unavailable = selectRows(f.Unavailable, s, func(u *Unavailable) Key { return u.Key })
	return &c
}

// Count returns how many rows of f s selects.
func (f *File) Count(s Selector) int {
	return countRows(f.Instances, s, func(r *Row) Key { return r.Key }) +
		countRows(f.Throughput, s, func(r *ThroughputRow) Key { return r.Key }) +
		countRows(f.Unavailable, s, func(u *Unavailable) Key { return u.Key })
}

// selectRows returns the rows of rows whose key s matches: rows itself
// when it matches them all, nil when none.
func selectRows[T any](rows []T, s Selector, key func(*T) Key) []T {
	n := countRows(rows, s, key)
	switch n {
	case 0:
		return nil
	case len(rows):
		return rows
	}
	out := make([]T, 0, n)
	for i := range rows {
		if s.Matches(key(&rows[i])) {
			out = append(out, rows[i])
		}
	}
	return out
}

// countRows counts the rows of rows whose key s matches.
func countRows[T any](rows []T, s Selector, key func(*T) Key) int {
	n := 0
	for i := range rows {
		if s.Matches(key(&rows[i])) {
			n++
		}
	}
	return n
}
