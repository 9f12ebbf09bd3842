package render

import (
	"strings"
	"testing"

	"github.com/memprof/memprof/model"
)

// TestAgreementChecks: the agreement line says what was compared, by the
// libraries that took part or could not (issue 14: a KZG-only timing runs
// only the KZG check).
func TestAgreementChecks(t *testing.T) {
	tests := []struct {
		name      string
		a         model.Agreement
		kzg, sigs bool
	}{
		{"BLS", model.Agreement{Libs: []model.Lib{model.Blst, model.Gnark}}, false, true},
		{"KZG", model.Agreement{Libs: []model.Lib{model.CKZG, model.GoKZG}}, true, false},
		{"both, without cgo", model.Agreement{Libs: []model.Lib{model.Gnark, model.GoKZG}, Unavailable: []string{"blst: needs cgo", "ckzg: needs cgo"}}, true, true},
		{"KZG, c-kzg unavailable", model.Agreement{Libs: []model.Lib{model.GoKZG}, Unavailable: []string{"ckzg: needs cgo"}}, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := AgreementChecks(&tt.a)
			if strings.Contains(got, "KZG commitments") != tt.kzg || strings.Contains(got, "signatures") != tt.sigs {
				t.Errorf("got %q, want KZG named %v, signatures named %v", got, tt.kzg, tt.sigs)
			}
		})
	}
}
