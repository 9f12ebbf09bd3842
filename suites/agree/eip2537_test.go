package agree_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/agree"
	"github.com/memprof/memprof/vocab"
)

// TestEIP2537: every library offers the EIP-2537 operations it has
// (gnark-crypto all of them, blst with cgo all but the maps, circl the
// scalar multiplication and the pairing check); TestLibrariesAgree runs
// the vectors through them (Run).
func TestEIP2537(t *testing.T) {
	libs := availableLibs(t)
	offers := map[vocab.Lib]int{}
	for lib, l := range libs {
		e := l.EIP2537
		for _, f := range []bool{e.G1Add != nil, e.G2Add != nil, e.G1Mul != nil, e.PairingCheck != nil, e.MapG1 != nil, e.MapG2 != nil} {
			if f {
				offers[lib]++
			}
		}
	}
	if offers["gnark"] != 6 || offers["circl"] != 2 || (libs["blst"].Lib != "" && offers["blst"] != 4) {
		t.Errorf("got operations offered %v, want gnark 6, circl 2, blst 4 (with cgo)", offers)
	}
}

// TestEIP2537Disagreements: a library whose addition is wrong, or that
// accepts what a fail- vector rejects, is named with the file and the
// vector.
func TestEIP2537Disagreements(t *testing.T) {
	gnark := availableLibs(t)["gnark"]
	wrong := gnark
	wrong.EIP2537.G1Add = func(a, b []byte) ([]byte, error) { return gnark.EIP2537.G1Add(b, b) }
	lax := gnark
	lax.EIP2537.G1Mul = func(p, k []byte) ([]byte, error) {
		if out, err := gnark.EIP2537.G1Mul(p, k); err == nil {
			return out, nil
		}
		return p, nil // what it should refuse, accepted
	}
	for _, tt := range []struct {
		name string
		lib  suites.AgreeLib
		in   []string
	}{
		{"wrong sum", wrong, []string{"blsG1Add.json: ", "EIP-2537 G1 addition", "gnark differs"}},
		{"accepts anything", lax, []string{"blsG1Mul.json: ", "accepts an input the vector rejects"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := agree.CheckEIP2537([]suites.AgreeLib{tt.lib})
			var d *agree.Disagreement
			if !errors.As(err, &d) {
				t.Fatalf("got %v, want a disagreement", err)
			}
			for _, s := range tt.in {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("message %q does not contain %q", err.Error(), s)
				}
			}
		})
	}
}
