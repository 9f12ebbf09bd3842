package results

import (
	"slices"

	"github.com/memprof/memprof/vocab"
)

// Family returns the family of k's type ("" for a user's own case).
func (k Key) Family() vocab.Family { return k.Type.Family() }

// FamilyMismatch returns why k's library or operation is not one of its
// type's family, or "" when both are (names outside the vocabulary, and a
// key without a type, are the name checks' to report): a Secp256k1Signature made
// by blst, or a fast-aggregate-verify of one, is a programming error in a
// suite or a bad results file.
func (k Key) FamilyMismatch() string {
	f := k.Family()
	if f == "" {
		return ""
	}
	if vocab.Known(k.Lib, vocab.Libs) && !f.HasLib(k.Lib) {
		return "lib " + string(k.Lib) + " is not a library of family " + string(f) + " (" + vocab.Join(f.Libs()) + ")"
	}
	if vocab.Known(k.Op, vocab.Ops) && !f.HasOp(k.Op) {
		return "op " + string(k.Op) + " is not an operation of family " + string(f) + " (" + vocab.Join(f.Ops()) + ")"
	}
	return ""
}

// FamilyAgreement is the agreement check of one family, in a record of
// several (Agreement.Families).
type FamilyAgreement struct {
	Family      vocab.Family `json:"family"`
	Cases       int          `json:"cases"`
	Libs        []vocab.Lib  `json:"libs"`
	OK          bool         `json:"ok"`
	Unavailable []string     `json:"unavailable,omitempty"`
}

// AgreementOf merges the checks of several families into one record, in
// the order given: the sums of their cases, their libraries
// (alphabetically, each once), OK when all are, and Families unless the
// only family is BLS12-381 or KZG (the records written before families).
// It returns nil for no check.
func AgreementOf(checks []FamilyAgreement) *Agreement {
	if len(checks) == 0 {
		return nil
	}
	a := &Agreement{OK: true}
	for _, c := range checks {
		a.Cases += c.Cases
		a.Libs = append(a.Libs, c.Libs...)
		a.Unavailable = append(a.Unavailable, c.Unavailable...)
		a.OK = a.OK && c.OK
	}
	slices.Sort(a.Libs)
	a.Libs = slices.Compact(a.Libs)
	slices.Sort(a.Unavailable)
	a.Unavailable = slices.Compact(a.Unavailable)
	if len(checks) > 1 || (checks[0].Family != vocab.BLS12381 && checks[0].Family != vocab.KZG) {
		a.Families = slices.Clone(checks)
	}
	return a
}

// checkFamilies checks an agreement record's Families: known families,
// each once and in family order, with known libraries and non-negative
// cases.
func (c *checker) checkFamilies(a *Agreement) {
	last := -1
	for i, f := range a.Families {
		r := slices.Index(vocab.Families, f.Family)
		switch {
		case f.Family == "":
			c.add("families[%d].family is missing", i)
		case r < 0:
			c.add("families[%d]: unknown family %q: valid families are %s", i, string(f.Family), vocab.Join(vocab.Families))
		case r <= last:
			c.add("families[%d]: family %s is out of order or repeated (the order is %s)", i, f.Family, vocab.Join(vocab.Families))
		}
		last = max(last, r)
		if f.Cases < 0 {
			c.add("families[%d].cases is %d, want a non-negative number", i, f.Cases)
		}
		for _, lib := range f.Libs {
			checkName(c, "lib", lib, vocab.Libs, true)
		}
	}
}
