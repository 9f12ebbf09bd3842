package workflow

import (
	"fmt"
	"slices"
	"strings"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// Selection chooses, by name, the instance cases and the operations a
// workflow measures. A nil list selects every name of its kind, and a
// Scheme of "" every scheme. Layouts applies to instance cases only (an
// operation has no layout) and Ops to operations only; the operations of
// PublicKey and Signature are min-pk, so a min-sig Selection selects none
// of them. Schemes, when not nil, selects several schemes (memprof
// instances --scheme min-pk,min-sig); a type without a scheme is selected
// by any, and measured once.
type Selection struct {
	Types   []vocab.Type
	Libs    []vocab.Lib
	Reprs   []vocab.Repr
	Layouts []measure.Layout
	Scheme  vocab.Scheme
	Schemes []vocab.Scheme
	Ops     []vocab.Op
}

// Matches reports whether s selects the case or operation k, as the
// results.Selector of s (Selector) decides it.
func (s Selection) Matches(k results.Key) bool {
	if isEmpty(s.Types) || isEmpty(s.Libs) || isEmpty(s.Reprs) || isEmpty(s.Schemes) ||
		isEmpty(s.Layouts) && !k.IsOp() || isEmpty(s.Ops) && k.IsOp() {
		return false // an empty list, not nil, selects nothing
	}
	if k.Scheme != "" && s.Scheme != "" && s.Schemes != nil && !slices.Contains(s.Schemes, s.Scheme) {
		return false // Scheme is not among Schemes
	}
	return s.Selector(k.IsOp()).Matches(k)
}

// isEmpty reports whether list is empty but not nil.
func isEmpty[T any](list []T) bool { return list != nil && len(list) == 0 }

// Selector returns the results.Selector of s for operations (ops) or for
// instance cases: a nil list of s selects every name, where the
// results.Selector's empty Layout and Scheme select a run's defaults, so
// those are widened to every name; Ops applies to operations only.
func (s Selection) Selector(ops bool) results.Selector {
	sel := results.Selector{
		Type: vocab.Strings(s.Types), Lib: vocab.Strings(s.Libs), Repr: vocab.Strings(s.Reprs),
		Layout: vocab.Strings(measure.Layouts), Scheme: vocab.Strings(vocab.Schemes),
	}
	if s.Layouts != nil {
		sel.Layout = vocab.Strings(s.Layouts)
	}
	if s.Schemes != nil {
		sel.Scheme = vocab.Strings(s.Schemes)
	}
	if s.Scheme != "" {
		sel.Scheme = []string{string(s.Scheme)}
	}
	if ops {
		sel.Op = vocab.Strings(s.Ops)
	}
	return sel
}

// in reports whether list selects v: a nil list selects everything.
func in[T comparable](list []T, v T) bool { return list == nil || slices.Contains(list, v) }

// ParseList canonicalises a comma-separated list of names against valid,
// ignoring case and dropping repeats; "" and "all" mean every name. An
// unknown name is an error naming what (type, lib, ...) and listing the
// valid names; so are an empty item ("blst,") and all with other names
// ("all,min-pk").
func ParseList[T vocab.Name](what, v string, valid []T) ([]T, error) {
	if v == "" || strings.EqualFold(v, "all") {
		return slices.Clone(valid), nil
	}
	var out []T
	for _, part := range strings.Split(v, ",") {
		p := strings.TrimSpace(part)
		if err := listItem(what, v, p); err != nil {
			return nil, err
		}
		if strings.EqualFold(p, "all") {
			return nil, fmt.Errorf("%s list %q names all with other %ss: all alone means every %s", what, v, what, what)
		}
		c, err := vocab.Canonical(what, p, valid)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out, nil
}

// listItem refuses an empty item p of the comma-separated list v of
// what: "blst," has one after its comma.
func listItem(what, v, p string) error {
	if p == "" {
		return fmt.Errorf("%s list %q has an empty item: remove the extra comma", what, v)
	}
	return nil
}

// ParseTypes canonicalises a comma-separated list of types. Besides type
// names it takes "all" (BLS12-381's single-object types,
// vocab.ObjectTypes: measured in seconds), "scenarios" (vocab.Scenarios,
// measured at 1,000,000 validators), "everything" (every type) and the
// name of a family (vocab.Families: bls12-381, kzg, secp256k1, ...),
// which stands for the family's types; "kzg" is the KZG family's (blobs,
// cells, the contexts and the PeerDAS scenario). "" means all.
func ParseTypes(v string) ([]vocab.Type, error) {
	if strings.TrimSpace(v) == "" {
		return slices.Clone(vocab.ObjectTypes), nil
	}
	var out []vocab.Type
	add := func(ts ...vocab.Type) {
		for _, t := range ts {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	for _, part := range strings.Split(v, ",") {
		p := strings.TrimSpace(part)
		if err := listItem("type", v, p); err != nil {
			return nil, err
		}
		if f, err := vocab.Canonical("family", p, vocab.Families); err == nil {
			add(f.Types()...)
			continue
		}
		switch {
		case strings.EqualFold(p, "all"):
			add(vocab.ObjectTypes...)
		case strings.EqualFold(p, "scenarios"):
			add(vocab.Scenarios...)
		case strings.EqualFold(p, "everything"):
			add(vocab.Types...)
		default:
			c, err := vocab.Canonical("type", p, vocab.Types)
			if err != nil {
				return nil, fmt.Errorf("%v, %s", err, TypeGroupsHelp)
			}
			add(c)
		}
	}
	return out, nil
}

// TypeGroupsHelp lists the names ParseTypes takes besides type names, for
// the messages that list the valid types.
var TypeGroupsHelp = "or all (the object types), scenarios, everything, or a family: " + vocab.Join(vocab.Families)

// ParseOpTypes is ParseTypes for a selection of operations: the names of
// groups (all: the object types, scenarios, everything, a family) stand for the
// types of the group that have operations (opTypes), so that
// "throughput --type kzg" times every KZG operation and "--type all" the
// BLS ones, as before there were KZG types; a type named on its own is
// kept, and a workflow refuses it if it has no operations. A list whose
// groups select no type with operations (scenarios, a family without
// operations) is an error: it never stands for every operation.
func ParseOpTypes(v string, opTypes []vocab.Type) ([]vocab.Type, error) {
	var out []vocab.Type
	for _, part := range strings.Split(v, ",") {
		if err := listItem("type", v, strings.TrimSpace(part)); err != nil {
			return nil, err // not ParseTypes, which reads "" as all
		}
		ts, err := ParseTypes(part)
		if err != nil {
			return nil, err
		}
		if p := strings.TrimSpace(part); !slices.ContainsFunc(typeGroups, func(g string) bool { return strings.EqualFold(g, p) }) {
			if !slices.Contains(out, ts[0]) {
				out = append(out, ts[0])
			}
			continue
		}
		for _, t := range ts {
			if slices.Contains(opTypes, t) && !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--type %s selects no type with operations: types with operations are %s", v, vocab.Join(opTypes))
	}
	return out, nil
}

// TypeNames are the names ParseTypes takes: the types, the groups and the
// families.
func TypeNames() []string {
	names := append(vocab.Strings(vocab.Types), "all", "scenarios", "everything")
	return append(names, vocab.Strings(vocab.Families)...)
}

// typeGroups are the names ParseTypes takes besides type names.
var typeGroups = append([]string{"all", "scenarios", "everything"}, vocab.Strings(vocab.Families)...)

// selectCases returns the entries of reg that sel selects: those that can
// be measured, and those that cannot, with why, both in the registry's
// order. It fails with a *NoMatch when sel selects no entry, and with a
// *NothingMeasured when every entry it selects is unavailable.
func selectCases(reg *suites.Registry, sel Selection) (measure []suites.Entry, unavailable []results.Unavailable, err error) {
	for _, e := range reg.Entries() {
		switch {
		case !sel.Matches(e.Key):
		case !e.Unavailable.IsZero():
			unavailable = append(unavailable, results.Unavailable{Key: e.Key, Why: e.Unavailable})
		default:
			measure = append(measure, e)
		}
	}
	switch {
	case len(measure) == 0 && len(unavailable) == 0:
		return nil, nil, &NoMatch{What: "case"}
	case len(measure) == 0:
		return nil, nil, nothingMeasured("case", unavailable)
	}
	return measure, unavailable, nil
}

// selectOps returns the operations of reg that sel selects, unavailable
// ones included, in the registry's order (those compared with one another
// adjacent).
func selectOps(reg *suites.Registry, sel Selection) []suites.Op {
	var out []suites.Op
	for _, o := range reg.Ops() {
		if sel.Matches(o.Key) {
			out = append(out, o)
		}
	}
	return out
}
