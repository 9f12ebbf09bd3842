package report

import (
	"testing"

	"github.com/memprof/memprof/model"
)

// TestReviewSubject: the review's title names the families of its rows,
// KZG's as BLS12-381's, so a review of BLS12-381 or KZG rows keeps the
// title it always had.
func TestReviewSubject(t *testing.T) {
	row := func(ty model.Type) model.Result { return model.Result{Key: model.Key{Type: ty}} }
	tests := []struct {
		name string
		rs   model.Results
		want string
	}{
		{"empty", model.Results{}, "BLS12-381"},
		{"BLS12-381", model.Results{Instances: []model.Result{row(model.Signature)}}, "BLS12-381"},
		{"BLS12-381 and KZG", model.Results{Instances: []model.Result{row(model.Blob), row(model.G1)}}, "BLS12-381"},
		{"secp256k1 and BN254", model.Results{Instances: []model.Result{row(model.BN254G1)},
			Throughput: []model.ThroughputRow{{Key: model.Key{Type: model.Secp256k1Signature}}}}, "secp256k1 and BN254"},
		{"three", model.Results{Instances: []model.Result{row(model.MLDSAPublicKey), row(model.PublicKey)},
			Unavailable: []model.Unavailable{{Key: model.Key{Type: model.MLKEMCiphertext}}}}, "BLS12-381, ML-KEM and ML-DSA"},
	}
	for _, tt := range tests {
		if got := reviewSubject(&tt.rs); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
	for _, f := range model.Families {
		if familySubjects[f] == "" {
			t.Errorf("family %s has no name for the review's title", f)
		}
	}
}
