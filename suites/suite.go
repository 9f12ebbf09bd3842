// Package suites is the vocabulary of the built-in cases: what one crypto
// library contributes (Suite: its instance entries, its operations and its
// part of the agreement check, as values) and the Registry that one
// function assembles from every suite (suites/all.Registry). Each package
// below (suites/blst, suites/gnark, suites/circl, suites/scenarios) knows
// one library, or one kind of structure, and exposes its Suite; nothing is
// registered at package initialisation, and tests build registries of
// their own.
package suites

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// Entry is one instance case: a combination of type, library,
// representation and layout (and scheme, where the type has one), with how
// an instance is made, or why it cannot be.
type Entry struct {
	results.Key
	// Constructor says how an instance is made, for example
	// "(*blst.P2Affine).Uncompress of 96 bytes".
	Constructor string
	// SizeHint is unsafe.Sizeof of the representation, used to refuse an
	// N that cannot fit in memory before anything is allocated.
	SizeHint uintptr
	// BytesHint, if not zero, is what one instance is expected to keep
	// with the objects it points to, from their types' sizes, where that
	// is well beyond SizeHint (a key that points to an expanded matrix).
	// The estimate of a run's memory (workflow.EstimateMemory) takes the
	// larger of the two.
	BytesHint uint64
	// DefaultN, if not zero, is the N measured when the user gives none:
	// scenarios are measured at their real scale (1,000,000 validators).
	DefaultN int
	// FixedN, if not zero, is the only N the entry is measured at,
	// whatever N the user gives, and no sweep applies: 1 for a case of
	// the single layout (one object per process), the size its parameter
	// names for a scenario measured at several sizes (blobs=768).
	FixedN int
	// NWhy says why DefaultN (or FixedN) is the entry's N where it
	// differs from memprof.DefaultN, for the row's constructor (NNote);
	// the single layout and a FixedN its parameter names say so
	// themselves.
	NWhy string
	// Unavailable, when not zero, says why this combination cannot be
	// measured; Case is nil then.
	Unavailable vocab.Why
	// Case builds the case. It is called only when the entry is measured,
	// so assembling a registry costs nothing.
	Case func() memprof.Case
}

// Suite is what one package of suites contributes to the registry: its
// instance entries, its operations, its part of the agreement check and the
// module paths whose versions results record. Every field may be empty.
type Suite struct {
	// Name names the suite in errors ("blst", "scenarios").
	Name    string
	Modules []string
	Entries []Entry
	Ops     []Op
	Agree   []AgreeLib
	// KZGAgree is the suite's part of the KZG agreement check
	// (suites/agree/kzg).
	KZGAgree []KZGAgreeLib
	// FamilyAgree is the suite's part of the agreement checks of the
	// other families, and Checks those checks: a family's check is given
	// by one suite (or a package of its own), its libraries by each
	// library's suite.
	FamilyAgree []FamilyAgreeLib
	Checks      []FamilyCheck
	// Families are the family values the suite gives (family.go): a
	// family's value is given by one suite.
	Families []Family
}

// Registry is every entry, operation and agreement library of a set of
// suites, checked and ordered. It is read-only once built; its methods
// return the registry's own slices, which callers must not modify.
type Registry struct {
	entries []Entry
	byName  map[string]int
	ops     []Op
	agree   []AgreeLib
	kzg     []KZGAgreeLib
	// familyLibs and checks are the other families' agreement libraries
	// and checks.
	familyLibs []FamilyAgreeLib
	checks     []FamilyCheck
	families   []Family
	modules    []string
}

// NewRegistry checks and assembles suites. It fails on an entry or an
// operation whose names are outside the vocabulary (package vocab), that has both
// or neither of a constructor and a reason, that appears twice, or an
// agreement library that is incomplete: all programming errors in a suite.
func NewRegistry(suites ...Suite) (*Registry, error) {
	entries := newChecked("entry", func(e Entry) (Entry, error) {
		e.Key = e.Key.Normalize()
		return e, checkEntry(e)
	}, Entry.BenchName)
	ops := newChecked("op", func(o Op) (Op, error) {
		o.Key = o.Key.Normalize()
		return o, checkOp(o)
	}, func(o Op) results.Key { return o.Key })
	agree := newChecked("agreement lib", func(l AgreeLib) (AgreeLib, error) { return l, checkAgreeLib(l) },
		func(l AgreeLib) vocab.Lib { return l.Lib })
	kzg := newChecked("KZG agreement lib", func(l KZGAgreeLib) (KZGAgreeLib, error) { return l, checkKZGAgreeLib(l) },
		func(l KZGAgreeLib) vocab.Lib { return l.Lib })
	familyLibs := newChecked("agreement lib", func(l FamilyAgreeLib) (FamilyAgreeLib, error) { return l, checkFamilyAgreeLib(l) },
		func(l FamilyAgreeLib) familyLibID { return familyLibID{l.Family, l.Lib} })
	checks := newChecked("agreement check", func(c FamilyCheck) (FamilyCheck, error) { return c, checkFamilyCheck(c) },
		func(c FamilyCheck) vocab.Family { return c.Family })
	families := newChecked("family", func(f Family) (Family, error) { return f, checkFamily(f) },
		func(f Family) vocab.Family { return f.Family })
	r := &Registry{byName: map[string]int{}}
	var errs []error
	for _, s := range suites {
		for _, err := range slices.Concat(entries.add(s.Entries), ops.add(s.Ops), agree.add(s.Agree), kzg.add(s.KZGAgree),
			familyLibs.add(s.FamilyAgree), checks.add(s.Checks), families.add(s.Families)) {
			errs = append(errs, fmt.Errorf("suite %s: %w", s.Name, err))
		}
		for _, m := range s.Modules {
			if !slices.Contains(r.modules, m) {
				r.modules = append(r.modules, m)
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	r.entries, r.ops, r.agree, r.kzg = entries.items, ops.items, agree.items, kzg.items
	r.familyLibs, r.checks, r.families = familyLibs.items, checks.items, families.items
	slices.SortStableFunc(r.entries, func(a, b Entry) int { return results.Compare(a.Key, b.Key) })
	for i, e := range r.entries {
		r.byName[e.BenchName()] = i
	}
	slices.SortStableFunc(r.ops, func(a, b Op) int { return results.Compare(a.Key, b.Key) })
	slices.SortStableFunc(r.agree, func(a, b AgreeLib) int { return results.Compare(results.Key{Lib: a.Lib}, results.Key{Lib: b.Lib}) })
	slices.SortStableFunc(r.kzg, func(a, b KZGAgreeLib) int { return results.Compare(results.Key{Lib: a.Lib}, results.Key{Lib: b.Lib}) })
	slices.SortStableFunc(r.familyLibs, func(a, b FamilyAgreeLib) int {
		return cmp.Or(cmpFamily(a.Family, b.Family), results.Compare(results.Key{Lib: a.Lib}, results.Key{Lib: b.Lib}))
	})
	slices.SortStableFunc(r.checks, func(a, b FamilyCheck) int { return cmpFamily(a.Family, b.Family) })
	slices.SortStableFunc(r.families, func(a, b Family) int { return cmpFamily(a.Family, b.Family) })
	if err := r.checkFamilies(); err != nil {
		return nil, err
	}
	return r, nil
}

// cmpFamily orders families as vocab.Families does.
func cmpFamily(a, b vocab.Family) int {
	return slices.Index(vocab.Families, a) - slices.Index(vocab.Families, b)
}

// checked collects the items of one kind (entries, operations, agreement
// libraries) from every suite: each is prepared and checked by check, and
// kept unless check fails or an earlier item has the same id.
type checked[T any, I comparable] struct {
	what  string
	check func(T) (T, error)
	id    func(T) I
	seen  map[I]bool
	items []T
}

func newChecked[T any, I comparable](what string, check func(T) (T, error), id func(T) I) *checked[T, I] {
	return &checked[T, I]{what: what, check: check, id: id, seen: map[I]bool{}}
}

// add keeps the valid, new items of one suite and returns an error for
// each of the others.
func (c *checked[T, I]) add(items []T) []error {
	var errs []error
	for _, it := range items {
		it, err := c.check(it)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		id := c.id(it)
		if c.seen[id] {
			errs = append(errs, fmt.Errorf("duplicate %s %v", c.what, id))
			continue
		}
		c.seen[id] = true
		c.items = append(c.items, it)
	}
	return errs
}

func checkKeyNames(k results.Key) error {
	// valid lists a vocabulary for the error only: joining it for every
	// key of the registry cost the parent of each case a few percent.
	type check struct {
		what  string
		ok    bool
		value string
		valid func() string
	}
	for _, c := range []check{
		{"type", vocab.Known(k.Type, vocab.Types), string(k.Type), func() string { return vocab.Join(vocab.Types) }},
		{"lib", vocab.Known(k.Lib, vocab.Libs), string(k.Lib), func() string { return vocab.Join(vocab.Libs) }},
		{"repr", vocab.Known(k.Repr, vocab.Reprs), string(k.Repr), func() string { return vocab.Join(vocab.Reprs) }},
		{"layout", k.Layout == "" || vocab.Known(k.Layout, measure.Layouts), string(k.Layout), func() string { return vocab.Join(measure.Layouts) }},
		{"scheme", k.Scheme == "" || vocab.Known(k.Scheme, vocab.Schemes), string(k.Scheme), func() string { return vocab.Join(vocab.Schemes) }},
		{"op", k.Op == "" || vocab.Known(k.Op, vocab.Ops), string(k.Op), func() string { return vocab.Join(vocab.Ops) }},
	} {
		if !c.ok {
			return fmt.Errorf("%s: %s %q is not one of %s", k, c.what, c.value, c.valid())
		}
	}
	if why := k.FamilyMismatch(); why != "" {
		return fmt.Errorf("%s: %s", k, why)
	}
	if k.HasSchemeMismatch() {
		return fmt.Errorf("%s: scheme %q for a type without one, or none for a type with one", k, k.Scheme)
	}
	return k.Param.Check()
}

func checkEntry(e Entry) error {
	if err := checkKeyNames(e.Key); err != nil {
		return fmt.Errorf("entry %w", err)
	}
	if e.Layout == "" || e.Op != "" || e.Batch != 0 {
		return fmt.Errorf("entry %s: an entry has a layout and no op or batch", e.Key)
	}
	if (e.Case == nil) == e.Unavailable.IsZero() {
		return fmt.Errorf("entry %s: exactly one of Case and Unavailable must be set", e.Key)
	}
	if (e.Layout == measure.Single) != (e.FixedN == 1) {
		return fmt.Errorf("entry %s: an entry of the %s layout, and only one, has FixedN 1 (got %d)", e.Key, measure.Single, e.FixedN)
	}
	if e.FixedN < 0 {
		return fmt.Errorf("entry %s: FixedN must not be negative, got %d", e.Key, e.FixedN)
	}
	if !e.Unavailable.IsZero() && !vocab.Known(e.Unavailable.Kind, vocab.Kinds) {
		return fmt.Errorf("entry %s: unavailable without a known kind (%q)", e.Key, e.Unavailable.Kind)
	}
	return nil
}

// Entries returns every entry in the one ordering of keys (results.Compare).
func (r *Registry) Entries() []Entry { return r.entries }

// Lookup finds an entry by its key's BenchName.
func (r *Registry) Lookup(name string) (Entry, bool) {
	i, ok := r.byName[name]
	if !ok {
		return Entry{}, false
	}
	return r.entries[i], true
}

// LookupCase finds the case of an available entry by its key's
// BenchName; it is the lookup a child process hands to
// memprof.ServeChild, so the names stay stable across processes.
func (r *Registry) LookupCase(name string) (memprof.Case, error) {
	e, ok := r.Lookup(name)
	if !ok {
		return memprof.Case{}, fmt.Errorf("no case %q registered", name)
	}
	return e.CaseNamed(name)
}

// CaseNamed returns the case of an available entry, called name if its
// constructor gives it no name (LookupCase's result for the entry of that
// name); an unavailable entry's error says why.
func (e Entry) CaseNamed(name string) (memprof.Case, error) {
	if !e.Unavailable.IsZero() {
		return memprof.Case{}, fmt.Errorf("case %s is unavailable: %s", name, e.Unavailable.Reason)
	}
	c := e.Case()
	if c.Name == "" {
		c.Name = name
	}
	return c, nil
}

// Ops returns every operation in the one ordering of keys: by type,
// operation, library and representation, so that the operations compared
// with one another are adjacent.
func (r *Registry) Ops() []Op { return r.ops }

// OpTypes returns the types that have at least one operation, in
// vocabulary order.
func (r *Registry) OpTypes() []vocab.Type {
	var out []vocab.Type
	for _, o := range r.ops {
		if !slices.Contains(out, o.Type) {
			out = append(out, o.Type)
		}
	}
	return out
}

// AgreeLibs returns the agreement libraries in vocabulary order.
func (r *Registry) AgreeLibs() []AgreeLib { return r.agree }

// KZGAgreeLibs returns the KZG agreement libraries in vocabulary order.
func (r *Registry) KZGAgreeLibs() []KZGAgreeLib { return r.kzg }

// Modules returns the module paths of the suites' libraries, whose
// versions results record (memprof.CurrentEnv).
func (r *Registry) Modules() []string { return r.modules }

// NNote says why e is measured at n instances, when n is the entry's own
// N (its DefaultN or FixedN) and differs from memprof.DefaultN: "N = 256:
// ..."; "" otherwise. A row's constructor carries it (workflow), and a
// test requires it of every entry whose own N differs.
func (e Entry) NNote(n int) string {
	if n == memprof.DefaultN || (n != e.FixedN && n != e.DefaultN) {
		return ""
	}
	why := e.NWhy
	_, value := e.Param.Split()
	switch {
	case why != "":
	case e.Layout == measure.Single && n == 1:
		why = "the single layout measures one object, alone in its process"
	case e.FixedN == n && value == strconv.Itoa(n):
		why = "the size its parameter names"
	default:
		return ""
	}
	return "N = " + strconv.Itoa(n) + ": " + why
}
