package all

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/pqtest"
	"github.com/memprof/memprof/vocab"
)

// TestMain applies the post-quantum suites' -pq.all (every known answer in
// TestFamilyChecks), which .ci/run passes.
func TestMain(m *testing.M) { pqtest.Main(m) }

// withoutSuite are the families whose suites have not been written yet:
// the registry has nothing of them. A family's suites remove it from here.
var withoutSuite = []vocab.Family{}

// TestRegistry assembles every built-in suite: no duplicate, no name
// outside the vocabulary, every library and type of every family with
// suites present (and nothing of the families without), and every library
// in its family's agreement check.
func TestRegistry(t *testing.T) {
	r, err := suites.NewRegistry(Suites()...)
	if err != nil {
		t.Fatal(err)
	}
	type familyLib struct {
		f vocab.Family
		l vocab.Lib
	}
	libs := map[familyLib]bool{}
	types := map[vocab.Type]bool{}
	for _, e := range r.Entries() {
		libs[familyLib{e.Family(), e.Lib}], types[e.Type] = true, true
		if got, ok := r.Lookup(e.BenchName()); !ok || got.Key != e.Key {
			t.Errorf("Lookup(%s): got %v, %v; want the entry", e.BenchName(), got.Key, ok)
		}
	}
	agreeing := map[familyLib]bool{}
	for _, l := range r.AgreeLibs() {
		agreeing[familyLib{vocab.BLS12381, l.Lib}] = true
	}
	for _, l := range r.KZGAgreeLibs() {
		agreeing[familyLib{vocab.KZG, l.Lib}] = true
	}
	for _, c := range r.Checks() {
		for _, l := range r.FamilyAgreeLibs(c.Family) {
			agreeing[familyLib{c.Family, l.Lib}] = true
		}
	}
	for _, f := range vocab.Families {
		if slices.Contains(withoutSuite, f) {
			for _, ty := range f.Types() {
				if types[ty] {
					t.Errorf("family %s has entries: remove it from withoutSuite", f)
					break
				}
			}
			continue
		}
		for _, l := range f.Libs() {
			if !libs[familyLib{f, l}] {
				t.Errorf("family %s: no entry of library %s", f, l)
			}
			if !agreeing[familyLib{f, l}] {
				t.Errorf("family %s: library %s takes no part in the family's agreement check", f, l)
			}
		}
		for _, ty := range f.Types() {
			if !types[ty] {
				t.Errorf("family %s: no entry of type %s", f, ty)
			}
		}
	}
	if len(r.Ops()) == 0 {
		t.Errorf("got no operations")
	}
}

// TestFamilyChecks runs the agreement check of every family that has one
// in the registry (each family's, BLS12-381's and KZG's among them, the
// post-quantum ones: ML-KEM's libraries against each other and the known
// answers, ML-DSA's, SLH-DSA's known answers): each must pass and check
// cases.
func TestFamilyChecks(t *testing.T) {
	r, err := suites.NewRegistry(Suites()...)
	if err != nil {
		t.Fatal(err)
	}
	// It runs with -pq.all (.ci/run's post-quantum step): go test ./...
	// checks each family in its own package (the post-quantum families'
	// libraries against each other only here and in .ci/run's memprof
	// verify step: cmd/memprof's TestVerifyAllFamilies, -cli.real-suites).
	if !*pqtest.All {
		t.Skip("runs with -pq.all (.ci/run); go test checks each family in its own package; the cross-library post-quantum parts run in .ci/run")
	}
	for _, c := range r.Checks() {
		t.Run(string(c.Family), func(t *testing.T) {
			rep, err := r.RunCheck(c)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Cases == 0 || len(rep.Libs) == 0 {
				t.Errorf("got %d cases of %v, want some", rep.Cases, rep.Libs)
			}
			t.Logf("%s: %d cases, libraries %v", c.Family, rep.Cases, rep.Libs)
		})
	}
}

// TestCheckHelp: every agreement check has its paragraph in verify's help
// (suites.FamilyCheck.Help), one paragraph within 80 columns, or is
// covered by another check's, which names its family's subject.
func TestCheckHelp(t *testing.T) {
	r := Registry()
	var helps []string
	for _, c := range r.Checks() {
		if c.Help != "" {
			helps = append(helps, c.Help)
		}
	}
	for _, c := range r.Checks() {
		if c.Help == "" {
			i := slices.IndexFunc(r.Families(), func(f suites.Family) bool { return f.Family == c.Family })
			if i < 0 || !slices.ContainsFunc(helps, func(h string) bool { return strings.Contains(h, r.Families()[i].Subject) }) {
				t.Errorf("check of %s: no help paragraph, and no other check's names its family", c.Family)
			}
			continue
		}
		for n, line := range strings.Split(c.Help, "\n") {
			if line == "" || line != strings.TrimSpace(line) || utf8.RuneCountInString(line) > 80 {
				t.Errorf("check of %s, help line %d: got %q, want one line of a paragraph within 80 columns", c.Family, n+1, line)
			}
		}
	}
}

// TestSuiteFamilies: every entry of a built-in suite is of one of the
// families the suite is listed with (LookupCase builds only those suites),
// and a suite listed with none has no entries.
func TestSuiteFamilies(t *testing.T) {
	for _, b := range builtIn {
		s := b.suite()
		for _, e := range s.Entries {
			if !slices.Contains(b.families, e.Family()) {
				t.Errorf("suite %s: entry %s of family %q, listed with %v", s.Name, e.Key, e.Family(), b.families)
			}
		}
	}
}

// TestLookupCase: the child's lookup finds the registry's entry, the
// same entry, for the first and last entry of every suite (every suite
// is searched as every other; a lookup of each of the 600 entries takes
// seconds), building the suites of the entry's family only (their entries
// counted by EntriesBuilt), never the whole registry; an unknown name is
// an error.
func TestLookupCase(t *testing.T) {
	r := Registry()
	ofFamily := map[vocab.Family]int{}
	var names []string
	for _, b := range builtIn {
		s := b.suite()
		for _, f := range b.families {
			ofFamily[f] += len(s.Entries)
		}
		if n := len(s.Entries); n > 0 {
			names = append(names, s.Entries[0].Key.Normalize().BenchName(), s.Entries[n-1].Key.Normalize().BenchName())
		}
	}
	for _, name := range names {
		want, ok := r.Lookup(name)
		if !ok {
			t.Fatalf("%s: not in the registry", name)
		}
		before := EntriesBuilt()
		got, err := lookup(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got.Key.Normalize() != want.Key || got.Constructor != want.Constructor || got.Unavailable != want.Unavailable {
			t.Errorf("%s: got %s (%q), want the registry's entry (%q)", name, got.Key, got.Constructor, want.Constructor)
		}
		if built := EntriesBuilt() - before; built > ofFamily[want.Family()] || built >= len(r.Entries()) {
			t.Errorf("%s: built %d entries, want at most the %d of family %s's suites (the registry has %d)", name, built, ofFamily[want.Family()], want.Family(), len(r.Entries()))
		}
		if _, err := LookupCase(name); (err == nil) != want.Unavailable.IsZero() {
			t.Errorf("LookupCase(%s): error %v, unavailable %q", name, err, want.Unavailable.Reason)
		}
	}
	if _, err := LookupCase("type=G1/lib=nolib/repr=affine/layout=pointer"); err == nil {
		t.Errorf("LookupCase of an unknown name: got no error")
	}
}
