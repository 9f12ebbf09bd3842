package suitekit

import (
	"strings"
	"testing"

	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/vocab"
)

// noLacks offers every applicable combination.
func noLacks(Key) vocab.Why { return vocab.Why{} }

// allImpls gives a constructor to every applicable combination.
func allImpls() map[Key]Impl {
	m := map[Key]Impl{}
	for _, k := range Keys() {
		if NotApplicable(k.Type, k.Repr).IsZero() {
			m[k] = Impl{Constructor: "test", SizeHint: 1, Case: func() memprof.Case { return memprof.Case{} }}
		}
	}
	return m
}

func TestEntriesCoverTheMatrix(t *testing.T) {
	es := Entries("gnark", noLacks, vocab.Why{}, allImpls())
	if got, want := len(es), len(Keys()); got != want {
		t.Fatalf("got %d entries, want %d", got, want)
	}
	for _, e := range es {
		na := NotApplicable(e.Type, e.Repr)
		if e.Unavailable != na {
			t.Errorf("%s: got %+v, want %+v", e.Key, e.Unavailable, na)
		}
	}
}

func TestEntriesBuildReason(t *testing.T) {
	build := vocab.Because(vocab.NeedsCgo, "needs cgo")
	for _, e := range Entries("blst", noLacks, build, nil) {
		if NotApplicable(e.Type, e.Repr).IsZero() && e.Unavailable != build {
			t.Errorf("%s: got %+v, want %+v", e.Key, e.Unavailable, build)
		}
	}
}

func TestEntriesPanicsOnDrift(t *testing.T) {
	missing := allImpls()
	delete(missing, Key{Type: "G1", Repr: "affine", Layout: "pointer"})
	extra := allImpls()
	extra[Key{Type: "G1", Repr: "scalar", Layout: "pointer"}] = Impl{}
	lacksAffine := func(k Key) vocab.Why {
		if k.Repr == "affine" {
			return vocab.Because(vocab.NotOffered, "no affine")
		}
		return vocab.Why{}
	}
	for _, tc := range []struct {
		name  string
		lacks func(Key) vocab.Why
		impls map[Key]Impl
		want  string
	}{
		{"missing constructor", noLacks, missing, "has no constructor"},
		{"constructor for a combination that does not apply", noLacks, extra, "does not offer"},
		{"constructor for a combination the library lacks", lacksAffine, allImpls(), "does not offer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				p, _ := recover().(string)
				if !strings.Contains(p, tc.want) {
					t.Errorf("got panic %q, want one containing %q", p, tc.want)
				}
			}()
			Entries("circl", tc.lacks, vocab.Why{}, tc.impls)
		})
	}
}

func TestNotApplicable(t *testing.T) {
	for _, tc := range []struct {
		typ     vocab.Type
		repr    vocab.Repr
		applies bool
	}{
		{"SecretKey", "scalar", true},
		{"SecretKey", "affine", false},
		{"SecretKey", "compressed", false},
		{"PublicKey", "scalar", false},
		{"PublicKey", "affine", true},
		{"G2", "uncompressed", true},
	} {
		if got := NotApplicable(tc.typ, tc.repr).IsZero(); got != tc.applies {
			t.Errorf("NotApplicable(%s, %s): applies %v, want %v", tc.typ, tc.repr, got, tc.applies)
		}
	}
}

func TestGroup(t *testing.T) {
	for _, tc := range []struct {
		typ    vocab.Type
		scheme vocab.Scheme
		want   vocab.Type
	}{
		{"PublicKey", "min-pk", "G1"},
		{"PublicKey", "min-sig", "G2"},
		{"Signature", "min-pk", "G2"},
		{"Signature", "min-sig", "G1"},
		{"G1", "", "G1"},
		{"G2", "", "G2"},
		{"SecretKey", "", ""},
	} {
		if got := Group(tc.typ, tc.scheme); got != tc.want {
			t.Errorf("Group(%s, %s): got %q, want %q", tc.typ, tc.scheme, got, tc.want)
		}
	}
}
