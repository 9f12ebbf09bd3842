package suites

import (
	"fmt"
	"slices"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// AgreeReport is the outcome of an agreement check of one family: how
// many cases it ran, the libraries it checked and those that could not
// take part.
type AgreeReport struct {
	Cases int
	// Libs are the libraries checked, alphabetically.
	Libs []vocab.Lib
	// Unavailable maps the libraries that could not take part to the
	// reason.
	Unavailable map[vocab.Lib]string
}

// Agreement is the report in the results-file form.
func (r *AgreeReport) Agreement(ok bool) *results.Agreement {
	a := &results.Agreement{Cases: r.Cases, Libs: slices.Clone(r.Libs), OK: ok}
	for _, lib := range slices.Sorted(mapKeys(r.Unavailable)) {
		a.Unavailable = append(a.Unavailable, string(lib)+": "+r.Unavailable[lib])
	}
	return a
}

func mapKeys(m map[vocab.Lib]string) func(func(vocab.Lib) bool) {
	return func(yield func(vocab.Lib) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// FamilyAgreeLib is one library's part in the agreement check of a family
// other than BLS12-381 and KZG (whose libraries are AgreeLib and
// KZGAgreeLib): which family and library, why it cannot take part, and
// Impl, what the family's check needs from it.
type FamilyAgreeLib struct {
	Family vocab.Family
	Lib    vocab.Lib
	// Unavailable, when not zero, says why the library cannot take part
	// (a cgo library in a build without cgo); Impl is nil then.
	Unavailable vocab.Why
	// Impl is of a type the family's check defines (a struct of functions,
	// as AgreeLib is for BLS12-381); the check asserts it.
	Impl any
}

// FamilyCheck is the agreement check of a family, as a value: it runs
// before any operation of the family is timed, and in memprof verify.
// Every family's check comes through the registry (Registry.Check); a
// family's package gives it in its Suite.
type FamilyCheck struct {
	Family vocab.Family
	// Checks says in one line what the check compares, for the reports
	// of the check ("public keys, addresses ... byte for byte").
	Checks string
	// Help is the check's paragraph in the help of memprof verify: what
	// it compares, against which vectors, and what a build without cgo
	// checks, wrapped at 80 columns. "" when another check's paragraph
	// covers it.
	Help string
	// Run checks libs, the family's libraries from every suite in
	// vocabulary order (the unavailable ones included, for the report).
	// The error is an *agree.Disagreement when a library computes
	// something else (nothing is timed then), or another error when the
	// check cannot run (agree.Available's when no library can take part);
	// the report is returned with either when there is one.
	Run func(libs []FamilyAgreeLib) (*AgreeReport, error)
	// RunOwn is the check of BLS12-381 or KZG, whose libraries are of
	// their own kinds (Registry.AgreeLibs, Registry.KZGAgreeLibs): it
	// takes them from the registry. Exactly one of Run and RunOwn is set,
	// RunOwn for those two families only.
	RunOwn func(*Registry) (*AgreeReport, error)
}

// RunCheck runs c: RunOwn on r, or Run on f's agreement libraries of r.
func (r *Registry) RunCheck(c FamilyCheck) (*AgreeReport, error) {
	if c.RunOwn != nil {
		return c.RunOwn(r)
	}
	return c.Run(r.FamilyAgreeLibs(c.Family))
}

// ownCheck reports whether f's libraries are of its own kind, not
// FamilyAgreeLib, so that its check takes them from the registry (RunOwn):
// BLS12-381's and KZG's have libraries of their own kinds.
func ownCheck(f vocab.Family) bool { return f == vocab.BLS12381 || f == vocab.KZG }

// familyLibID is an agreement library's identity: a library may take part
// in the checks of several families.
type familyLibID struct {
	family vocab.Family
	lib    vocab.Lib
}

func (id familyLibID) String() string { return string(id.family) + "/" + string(id.lib) }

func checkFamilyAgreeLib(l FamilyAgreeLib) error {
	switch {
	case !vocab.Known(l.Family, vocab.Families):
		return fmt.Errorf("agreement lib %s: family %q is not one of %s", l.Lib, l.Family, vocab.Join(vocab.Families))
	case ownCheck(l.Family):
		return fmt.Errorf("agreement lib %s: family %s has agreement libraries of its own kind (Suite.Agree, Suite.KZGAgree)", l.Lib, l.Family)
	case !l.Family.HasLib(l.Lib):
		return fmt.Errorf("agreement lib %q is not a library of family %s (%s)", l.Lib, l.Family, vocab.Join(l.Family.Libs()))
	case (l.Impl == nil) == l.Unavailable.IsZero():
		return fmt.Errorf("agreement lib %s/%s: set either Impl or Unavailable", l.Family, l.Lib)
	}
	return nil
}

func checkFamilyCheck(c FamilyCheck) error {
	switch {
	case !vocab.Known(c.Family, vocab.Families):
		return fmt.Errorf("agreement check: family %q is not one of %s", c.Family, vocab.Join(vocab.Families))
	case ownCheck(c.Family) && (c.RunOwn == nil || c.Run != nil):
		return fmt.Errorf("agreement check of %s: its libraries are of the family's own kind, so RunOwn and not Run is set", c.Family)
	case !ownCheck(c.Family) && c.RunOwn != nil:
		return fmt.Errorf("agreement check of %s: RunOwn is for the families whose libraries are of their own kind", c.Family)
	case !ownCheck(c.Family) && c.Run == nil:
		return fmt.Errorf("agreement check of %s: Run is nil", c.Family)
	}
	return nil
}

// checkFamilies fails unless every family other than BLS12-381 and KZG
// that has operations or agreement libraries has its check, and every
// check has libraries: no operation of a family is timed before its
// libraries have been shown to agree.
func (r *Registry) checkFamilies() error {
	need := map[vocab.Family]string{}
	for _, o := range r.ops {
		if f := o.Family(); !ownCheck(f) {
			need[f] = "operations"
		}
	}
	for _, l := range r.familyLibs {
		need[l.Family] = "agreement libraries"
	}
	for _, f := range vocab.Families {
		_, has := r.Check(f)
		switch {
		case need[f] != "" && !has:
			return fmt.Errorf("family %s has %s but no agreement check (Suite.Checks)", f, need[f])
		case has && !ownCheck(f) && len(r.FamilyAgreeLibs(f)) == 0:
			return fmt.Errorf("family %s has an agreement check but no agreement library (Suite.FamilyAgree)", f)
		}
	}
	return nil
}

// Checks returns the agreement checks of every family that has one, in
// family order.
func (r *Registry) Checks() []FamilyCheck { return r.checks }

// Check returns f's agreement check, if a suite gives one.
func (r *Registry) Check(f vocab.Family) (FamilyCheck, bool) {
	i := slices.IndexFunc(r.checks, func(c FamilyCheck) bool { return c.Family == f })
	if i < 0 {
		return FamilyCheck{}, false
	}
	return r.checks[i], true
}

// FamilyAgreeLibs returns f's agreement libraries, in vocabulary order.
// The slice is the caller's.
func (r *Registry) FamilyAgreeLibs(f vocab.Family) []FamilyAgreeLib {
	var out []FamilyAgreeLib
	for _, l := range r.familyLibs {
		if l.Family == f {
			out = append(out, l)
		}
	}
	return out
}

// CheckTexts says, by family, what each agreement check of r compares
// (FamilyCheck.Checks).
func (r *Registry) CheckTexts() map[vocab.Family]string {
	out := map[vocab.Family]string{}
	for _, c := range r.checks {
		if c.Checks != "" {
			out[c.Family] = c.Checks
		}
	}
	return out
}
