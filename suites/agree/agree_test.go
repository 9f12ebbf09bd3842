// The tests are of package agree_test: they use the registry of every suite
// (suites/all), which holds the secp256k1 check that imports this package.
package agree_test

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/agree"
	"github.com/memprof/memprof/suites/all"
	"github.com/memprof/memprof/vocab"
)

func TestVectorsFile(t *testing.T) {
	v, err := fixtures.Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Cases) != 20 {
		t.Errorf("got %d cases, want 20", len(v.Cases))
	}
	if v.DST != "BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_" {
		t.Errorf("got DST %q, want the min-pk DST", v.DST)
	}
	lens := map[int]bool{}
	names := map[string]bool{}
	for _, c := range v.Cases {
		if len(c.IKM) != 32 || len(c.SK) != 32 || len(c.PK) != 48 || len(c.Sig) != 96 || len(c.PKUncompressed) != 96 || len(c.SigUncompressed) != 192 {
			t.Errorf("case %s: got lengths ikm %d sk %d pk %d sig %d pk_u %d sig_u %d, want 32 32 48 96 96 192",
				c.Name, len(c.IKM), len(c.SK), len(c.PK), len(c.Sig), len(c.PKUncompressed), len(c.SigUncompressed))
		}
		lens[len(c.Msg)] = true
		names[c.Name] = true
	}
	if len(lens) != len(v.Cases) || !lens[0] {
		t.Errorf("got %d distinct message lengths (empty included: %v), want %d, the empty message among them", len(lens), lens[0], len(v.Cases))
	}
	if len(names) != len(v.Cases) {
		t.Errorf("got %d distinct case names, want %d", len(names), len(v.Cases))
	}
}

func availableLibs(t *testing.T) map[vocab.Lib]suites.AgreeLib {
	t.Helper()
	m := map[vocab.Lib]suites.AgreeLib{}
	for _, l := range all.Registry().AgreeLibs() {
		if l.Unavailable.IsZero() {
			m[l.Lib] = l
		}
	}
	if _, ok := m["gnark"]; !ok {
		t.Fatal("gnark agreement adapter not registered")
	}
	if _, ok := m["circl"]; !ok {
		t.Fatal("circl agreement adapter not registered")
	}
	return m
}

// TestLibrariesAgree is the real check: every registered library against
// the file (blst too when cgo is on).
func TestLibrariesAgree(t *testing.T) {
	rep, err := agree.Run(all.Registry())
	if err != nil {
		t.Fatal(err)
	}
	eip, err := agree.EIP2537Cases()
	if err != nil {
		t.Fatal(err)
	}
	if rep.Cases != 20+eip {
		t.Errorf("got %d cases, want 20 and the %d EIP-2537 vectors", rep.Cases, eip)
	}
	want := []vocab.Lib{"circl", "gnark"}
	if memprof.CurrentEnv().Cgo {
		want = []vocab.Lib{"blst", "circl", "gnark"}
	} else if rep.Unavailable["blst"] == "" {
		t.Error("without cgo, blst is not reported unavailable")
	}
	if !slices.Equal(rep.Libs, want) {
		t.Errorf("got libs %v, want %v", rep.Libs, want)
	}
}

// corrupt returns b with one bit flipped.
func corrupt(b []byte, at int) []byte {
	c := bytes.Clone(b)
	c[at] ^= 0x01
	return c
}

func TestDisagreementsAreNamed(t *testing.T) {
	v, err := fixtures.Load()
	if err != nil {
		t.Fatal(err)
	}
	libs := availableLibs(t)
	gnark, circl := libs["gnark"], libs["circl"]
	target := v.Cases[3]

	badSign := gnark
	badSign.Sign = func(sk, msg []byte) ([]byte, error) {
		sig, err := gnark.Sign(sk, msg)
		if bytes.Equal(msg, target.Msg) {
			sig = corrupt(sig, 10)
		}
		return sig, err
	}
	lenient := circl
	lenient.Verify = func(pk, msg, sig []byte) (bool, error) { return true, nil }
	badTrip := gnark
	badTrip.RoundTrips = func(typ vocab.Type, enc []byte) ([]suites.AgreeRoundTrip, error) {
		trips, err := gnark.RoundTrips(typ, enc)
		if typ == "Signature" && len(trips) > 1 {
			trips[1].Uncompressed = corrupt(trips[1].Uncompressed, 100)
		}
		return trips, err
	}
	badKeyGen := circl
	badKeyGen.KeyGen = func(ikm []byte) ([]byte, error) { return gnark.KeyGen(append(bytes.Clone(ikm), 0)) }

	tests := []struct {
		name  string
		libs  []suites.AgreeLib
		check *agree.Disagreement
		in    []string // substrings of the message
	}{
		{"signature differs", []suites.AgreeLib{circl, badSign}, &agree.Disagreement{Case: target.Name, Check: "signature", Lib: "gnark"},
			[]string{"case " + target.Name, "signature", "gnark differs", "circl agree", "first difference at byte 10"}},
		{"verify accepts anything", []suites.AgreeLib{lenient, gnark}, &agree.Disagreement{Case: v.Cases[0].Name, Check: "verify of another message", Lib: "circl"},
			[]string{"accepts the signature for a message that was not signed"}},
		{"round trip differs", []suites.AgreeLib{badTrip}, &agree.Disagreement{Case: v.Cases[0].Name, Lib: "gnark"},
			[]string{"round trip through", "first difference at byte 100"}},
		{"keygen differs", []suites.AgreeLib{badKeyGen, gnark}, &agree.Disagreement{Case: v.Cases[0].Name, Check: "secret key (KeyGen)", Lib: "circl"},
			[]string{"secret key", "circl differs", "gnark agree"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := agree.Check(v, tt.libs)
			var d *agree.Disagreement
			if !errors.As(err, &d) {
				t.Fatalf("got error %v, want a *Disagreement", err)
			}
			if d.Case != tt.check.Case || d.Lib != tt.check.Lib || (tt.check.Check != "" && d.Check != tt.check.Check) {
				t.Errorf("got case %q check %q lib %q, want case %q check %q lib %q", d.Case, d.Check, d.Lib, tt.check.Case, tt.check.Check, tt.check.Lib)
			}
			for _, s := range tt.in {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("message %q does not contain %q", err.Error(), s)
				}
			}
		})
	}
}

func TestUnavailableLibraryReported(t *testing.T) {
	v, err := fixtures.Load()
	if err != nil {
		t.Fatal(err)
	}
	libs := availableLibs(t)
	rep, err := agree.Check(v, []suites.AgreeLib{{Lib: "blst", Unavailable: vocab.Because(vocab.NeedsCgo, "no cgo")}, libs["gnark"]})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Libs, []vocab.Lib{"gnark"}) || rep.Unavailable["blst"] != "no cgo" {
		t.Errorf("got libs %v unavailable %v, want [gnark] and blst: no cgo", rep.Libs, rep.Unavailable)
	}
	a := rep.Agreement(true)
	if a.Cases != 20 || !a.OK || !slices.Equal(a.Unavailable, []string{"blst: no cgo"}) {
		t.Errorf("got agreement %+v, want 20 cases, ok, blst unavailable", a)
	}
	if _, err := agree.Check(v, []suites.AgreeLib{{Lib: "blst", Unavailable: vocab.Because(vocab.NeedsCgo, "no cgo")}}); err == nil {
		t.Error("no library available: got no error")
	}
}
