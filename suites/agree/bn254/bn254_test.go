package bn254

import (
	"errors"
	"testing"

	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/agree"
	"github.com/memprof/memprof/suites/bn256cloudflare"
	"github.com/memprof/memprof/suites/bn256gnark"
	"github.com/memprof/memprof/suites/bn256google"
	"github.com/memprof/memprof/suites/gnarkbn254"
	"github.com/memprof/memprof/vocab"
)

// libs are the four libraries' parts, from their suites.
func libs(t *testing.T) []suites.FamilyAgreeLib {
	t.Helper()
	var out []suites.FamilyAgreeLib
	for _, s := range []suites.Suite{gnarkbn254.Suite(), bn256cloudflare.Suite(), bn256google.Suite(), bn256gnark.Suite()} {
		out = append(out, s.FamilyAgree...)
	}
	if len(out) != 4 {
		t.Fatalf("got %d agreement libraries, want 4", len(out))
	}
	return out
}

// TestAgreement: the four libraries compute every vector, reject every
// failing one and round-trip every point.
func TestAgreement(t *testing.T) {
	rep, err := Run(libs(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Libs) != 4 || rep.Cases == 0 {
		t.Errorf("got %d libraries and %d cases, want 4 and some", len(rep.Libs), rep.Cases)
	}
}

// TestDisagreements: a library that computes a wrong sum, or accepts what
// it must reject, is reported, naming the case and the library.
func TestDisagreements(t *testing.T) {
	good := libs(t)[3].Impl.(Lib) // bn256-gnark, the fastest
	wrongSum := good
	wrongSum.Lib = vocab.BN256Google
	wrongSum.G1Add = func(a, b []byte) ([]byte, error) {
		out, err := good.G1Add(a, b)
		if err != nil || len(out) == 0 {
			return out, err
		}
		return append([]byte{out[0] ^ 1}, out[1:]...), nil
	}
	lax := good
	lax.Lib = vocab.BN256Google
	lax.G1Add = func(a, b []byte) ([]byte, error) { return make([]byte, 64), nil }
	for _, tt := range []struct {
		name  string
		lib   Lib
		check string
	}{
		{"wrong sum", wrongSum, "bn256Add"},
		{"accepts anything", lax, "bn256Add"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := CheckLibs([]Lib{good, tt.lib})
			var d *agree.Disagreement
			if !errors.As(err, &d) {
				t.Fatalf("got %v, want a disagreement", err)
			}
			if d.Lib != vocab.BN256Google || d.Check != tt.check {
				t.Errorf("got a disagreement of %s in %q (%v), want %s in %q", d.Lib, d.Check, d, vocab.BN256Google, tt.check)
			}
		})
	}
}
