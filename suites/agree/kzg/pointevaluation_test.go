package kzg

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/agree"
	"github.com/memprof/memprof/suites/ckzg"
	"github.com/memprof/memprof/suites/gokzg"
)

// TestPointEvaluation: every available library verifies go-ethereum's
// point evaluation vectors and refuses them with the value changed; a
// library that verifies anything, or refuses everything, is named.
func TestPointEvaluation(t *testing.T) {
	r, err := suites.NewRegistry(ckzg.Suite(), gokzg.Suite())
	if err != nil {
		t.Fatal(err)
	}
	var avail []suites.KZGAgreeLib
	for _, l := range r.KZGAgreeLibs() {
		if l.Unavailable.IsZero() {
			if l.VerifyKZGProof == nil {
				t.Errorf("%s offers no VerifyKZGProof", l.Lib)
			}
			avail = append(avail, l)
		}
	}
	if err := CheckPointEvaluation(avail); err != nil {
		t.Fatal(err)
	}
	lax, strict := avail[len(avail)-1], avail[len(avail)-1]
	lax.VerifyKZGProof = func(c, z, y, p []byte) (bool, error) { return true, nil }
	strict.VerifyKZGProof = func(c, z, y, p []byte) (bool, error) { return false, nil }
	for _, tt := range []struct {
		name string
		lib  suites.KZGAgreeLib
		want string
	}{
		{"verifies anything", lax, "verifies the proof for a value the polynomial does not take"},
		{"refuses everything", strict, "the proof does not verify"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckPointEvaluation([]suites.KZGAgreeLib{tt.lib})
			var d *agree.Disagreement
			if !errors.As(err, &d) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), PointEvaluationFile) {
				t.Errorf("got %v, want a disagreement on %s saying %q", err, PointEvaluationFile, tt.want)
			}
		})
	}
	if _, err := pointEvaluation(avail[0], changedHash(t)); err == nil || !strings.Contains(err.Error(), "versioned hash") {
		t.Errorf("a wrong versioned hash: got %v, want the harness's refusal", err)
	}
}

// changedHash is the first vector with the first byte of its versioned
// hash's digest changed.
func changedHash(t *testing.T) []byte {
	t.Helper()
	in := vectorInput(t)
	in[5] ^= 1
	return in
}

func vectorInput(t *testing.T) []byte {
	t.Helper()
	f, err := fixtures.LoadPrecompileFile(fixtures.KZGPrecompileDir, PointEvaluationFile)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Clone(f.Vectors[0].Input)
}
