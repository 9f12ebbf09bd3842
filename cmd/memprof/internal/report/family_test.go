package report

import (
	"slices"
	"testing"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/all"
	"github.com/memprof/memprof/vocab"
)

// TestReviewSubject: the review's title names the families of its rows,
// KZG's as BLS12-381's, so a review of BLS12-381 or KZG rows keeps the
// title it always had.
func TestReviewSubject(t *testing.T) {
	row := func(ty vocab.Type) results.Row { return results.Row{Key: results.Key{Type: ty}} }
	tests := []struct {
		name string
		rs   results.File
		want string
	}{
		{"empty", results.File{}, "BLS12-381"},
		{"BLS12-381", results.File{Instances: []results.Row{row(vocab.Signature)}}, "BLS12-381"},
		{"BLS12-381 and KZG", results.File{Instances: []results.Row{row(vocab.Blob), row(vocab.G1)}}, "BLS12-381"},
		{"secp256k1 and BN254", results.File{Instances: []results.Row{row(vocab.BN254G1)},
			Throughput: []results.ThroughputRow{{Key: results.Key{Type: vocab.Secp256k1Signature}}}}, "secp256k1 and BN254"},
		{"three", results.File{Instances: []results.Row{row(vocab.MLDSAPublicKey), row(vocab.PublicKey)},
			Unavailable: []results.Unavailable{{Key: results.Key{Type: vocab.MLKEMCiphertext}}}}, "BLS12-381, ML-KEM and ML-DSA"},
	}
	for _, tt := range tests {
		if got := reviewSubject(&tt.rs, all.Registry().Families()); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
	for _, f := range vocab.Families {
		if !slices.ContainsFunc(all.Registry().Families(), func(v suites.Family) bool { return v.Family == f && v.Subject != "" }) {
			t.Errorf("family %s has no name for the review's title", f)
		}
	}
}
