package render

import (
	"strings"
	"testing"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites/all"
	"github.com/memprof/memprof/vocab"
)

// TestAgreementChecks: the agreement line says what was compared, by the
// libraries that took part or could not (issue 14: a KZG-only timing runs
// only the KZG check).
func TestAgreementChecks(t *testing.T) {
	tests := []struct {
		name      string
		a         results.Agreement
		kzg, sigs bool
	}{
		{"BLS", results.Agreement{Libs: []vocab.Lib{vocab.Blst, vocab.Gnark}}, false, true},
		{"KZG", results.Agreement{Libs: []vocab.Lib{vocab.CKZG, vocab.GoKZG}}, true, false},
		{"both, without cgo", results.Agreement{Libs: []vocab.Lib{vocab.Gnark, vocab.GoKZG}, Unavailable: []string{"blst: needs cgo", "ckzg: needs cgo"}}, true, true},
		{"KZG, c-kzg unavailable", results.Agreement{Libs: []vocab.Lib{vocab.GoKZG}, Unavailable: []string{"ckzg: needs cgo"}}, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := AgreementChecks(&tt.a, checkTexts())
			if strings.Contains(got, "KZG commitments") != tt.kzg || strings.Contains(got, "signatures") != tt.sigs {
				t.Errorf("got %q, want KZG named %v, signatures named %v", got, tt.kzg, tt.sigs)
			}
		})
	}
}

// TestAgreementLineByFamily: a record of several families' checks is one
// line per family, each naming its family and what it compared; a record
// without families is the one line it always was.
func TestAgreementLineByFamily(t *testing.T) {
	bls := results.FamilyAgreement{Family: vocab.BLS12381, Cases: 20, Libs: []vocab.Lib{vocab.Blst, vocab.Gnark}, OK: true}
	kzg := results.FamilyAgreement{Family: vocab.KZG, Cases: 8, Libs: []vocab.Lib{vocab.GoKZG}, OK: false, Unavailable: []string{"ckzg: needs cgo"}}
	tests := []struct {
		name string
		a    *results.Agreement
		want string
	}{
		{"none", nil, ""},
		{"before families", &results.Agreement{Cases: 20, Libs: []vocab.Lib{vocab.Blst, vocab.Gnark}, OK: true},
			"agreement: blst, gnark agree on 20 cases (" + checkTexts().Of(vocab.BLS12381) + ")\n"},
		{"two families", results.AgreementOf([]results.FamilyAgreement{bls, kzg}),
			"agreement: bls12-381: blst, gnark agree on 20 cases (" + checkTexts().Of(vocab.BLS12381) + ")\n" +
				"agreement: kzg: gokzg FAILS the known answers on 8 cases (" + checkTexts().Of(vocab.KZG) + "); not checked: ckzg: needs cgo\n"},
		{"one library, right", results.AgreementOf([]results.FamilyAgreement{{Family: vocab.SLHDSA, Cases: 32, Libs: []vocab.Lib{vocab.Circl}, OK: true}}),
			"agreement: slh-dsa: circl matches the known answers on 32 cases (" + checkTexts().Of(vocab.SLHDSA) + ")\n"},
		{"two libraries disagree", results.AgreementOf([]results.FamilyAgreement{{Family: vocab.MLKEM, Cases: 5, Libs: []vocab.Lib{vocab.Stdlib, vocab.Circl}}}),
			"agreement: ml-kem: stdlib, circl DISAGREE on 5 cases (" + checkTexts().Of(vocab.MLKEM) + ")\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := AgreementLine(&b, tt.a, checkTexts()); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tt.want)
			}
		})
	}
	// A family whose check says nothing of itself is named.
	if got := checkTexts().Of(vocab.Family("test-family")); !strings.Contains(got, "test-family") {
		t.Errorf("CheckTexts.Of(test-family): got %q, want it to name the family", got)
	}
}

// checkTexts are the built-in families' descriptions of their checks.
func checkTexts() CheckTexts { return all.Registry().CheckTexts() }
