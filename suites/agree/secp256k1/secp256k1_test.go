package secp256k1_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/agree"
	check "github.com/memprof/memprof/suites/agree/secp256k1"
	"github.com/memprof/memprof/suites/all"
	"github.com/memprof/memprof/suites/internal/secpkit"
	"github.com/memprof/memprof/vocab"
)

// libs returns the registry's secp256k1 libraries.
func libs(t *testing.T) []suites.FamilyAgreeLib {
	t.Helper()
	ls := all.Registry().FamilyAgreeLibs(vocab.Secp256k1)
	if len(ls) != 3 {
		t.Fatalf("got %d secp256k1 agreement libraries, want 3 (libsecp256k1, go-ethereum, decred)", len(ls))
	}
	return ls
}

// TestLibrariesAgree: the registry's libraries pass every vector, and the
// report counts every case of every file and names the libraries.
func TestLibrariesAgree(t *testing.T) {
	v, err := fixtures.LoadSecp256k1()
	if err != nil {
		t.Fatal(err)
	}
	c, ok := all.Registry().Check(vocab.Secp256k1)
	if !ok {
		t.Fatal("the registry has no secp256k1 check")
	}
	rep, err := c.Run(libs(t))
	if err != nil {
		t.Fatal(err)
	}
	tests := 0
	for _, w := range []*fixtures.Wycheproof{v.Bitcoin, v.P1363} {
		for _, g := range w.TestGroups {
			tests += len(g.Tests)
		}
	}
	if want := 1 + secpkit.Distinct + len(v.EcRecover) + tests; rep.Cases != want {
		t.Errorf("cases: got %d, want %d (ops.json, %d keys, %d ecRecover vectors, %d Wycheproof tests)", rep.Cases, want, secpkit.Distinct, len(v.EcRecover), tests)
	}
	if len(rep.Libs)+len(rep.Unavailable) != 3 || len(rep.Libs) == 0 {
		t.Errorf("got libs %v, unavailable %v; want the three libraries, decred available", rep.Libs, rep.Unavailable)
	}
}

// wrap returns the decred library with f changed.
func wrap(t *testing.T, f func(l *secpkit.AgreeLib)) suites.FamilyAgreeLib {
	t.Helper()
	for _, l := range libs(t) {
		if l.Lib == vocab.Decred {
			impl := *l.Impl.(*secpkit.AgreeLib)
			f(&impl)
			l.Impl = &impl
			return l
		}
	}
	t.Fatal("no decred library")
	return suites.FamilyAgreeLib{}
}

// TestDisagreementsAreNamed: a library that signs, verifies, parses DER
// or recovers otherwise is caught, with the case and the check named.
func TestDisagreementsAreNamed(t *testing.T) {
	v, err := fixtures.LoadSecp256k1()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		change    func(l *secpkit.AgreeLib)
		wantCase  string
		wantCheck string
	}{
		{"a signature differs", func(l *secpkit.AgreeLib) {
			sign := l.Sign
			l.Sign = func(sk, h []byte) ([]byte, error) { s, err := sign(sk, h); s[3] ^= 1; return s, err }
		}, "ops.json", "signature R‖S‖V (RFC 6979)"},
		{"verify accepts anything", func(l *secpkit.AgreeLib) {
			l.Verify = func(_, _, _ []byte) (bool, error) { return true, nil }
		}, "ops.json", "verify against another hash"},
		{"a DER parser that takes BER's long-form length", func(l *secpkit.AgreeLib) {
			parse := l.ParseDER
			l.ParseDER = func(der []byte) ([]byte, error) {
				if len(der) > 2 && der[1] == 0x81 {
					der = append([]byte{der[0]}, der[2:]...)
				}
				return parse(der)
			}
		}, fixtures.WycheproofBitcoinFile, "verify (strict DER, low S)"},
		{"recovery of another key", func(l *secpkit.AgreeLib) {
			rec := l.Recover
			l.Recover = func(h, sig []byte) ([]byte, error) {
				if sig[64] == 1 {
					sig = append(sig[:64:64], 0)
				}
				return rec(h, sig)
			}
		}, "", "recovered public key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := check.CheckVectors(v, []suites.FamilyAgreeLib{wrap(t, tt.change)})
			var d *agree.Disagreement
			if !errors.As(err, &d) {
				t.Fatalf("got %v, want a *agree.Disagreement", err)
			}
			if !strings.HasPrefix(d.Case, tt.wantCase) || d.Check != tt.wantCheck || d.Lib != vocab.Decred {
				t.Errorf("got case %q, check %q, lib %s; want case %q..., check %q, lib decred", d.Case, d.Check, d.Lib, tt.wantCase, tt.wantCheck)
			}
		})
	}
}

// TestUnavailableLibraryReported: a library this build cannot run is
// named with its reason, and the check of none fails.
func TestUnavailableLibraryReported(t *testing.T) {
	v, err := fixtures.LoadSecp256k1()
	if err != nil {
		t.Fatal(err)
	}
	off := suites.FamilyAgreeLib{Family: vocab.Secp256k1, Lib: vocab.Libsecp256k1, Unavailable: vocab.Because(vocab.NeedsCgo, "no cgo")}
	rep, err := check.CheckVectors(v, []suites.FamilyAgreeLib{off, wrap(t, func(*secpkit.AgreeLib) {})})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Unavailable[vocab.Libsecp256k1] != "no cgo" || len(rep.Libs) != 1 || rep.Libs[0] != vocab.Decred {
		t.Errorf("got libs %v, unavailable %v; want decred checked, libsecp256k1 unavailable", rep.Libs, rep.Unavailable)
	}
	if _, err := check.CheckVectors(v, []suites.FamilyAgreeLib{off}); err == nil {
		t.Error("a check of no available library passed")
	}
}
