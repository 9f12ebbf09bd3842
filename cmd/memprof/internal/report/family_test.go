package report

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
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

// checkSection writes family f's section of the review of rs and checks
// that it holds each of want, and that results without the family's rows
// (empty) give no section; it returns the section.
func checkSection(t *testing.T, rs, empty *results.File, f suites.Family, want []string) string {
	t.Helper()
	var buf bytes.Buffer
	mw := render.NewMarkdownWriter(&buf)
	writeFamily(mw, rs, f, builtinKeyOps())
	if err := mw.Err(); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("the %s section lacks %q:\n%s", f.Family, w, got)
		}
	}
	var none bytes.Buffer
	writeFamily(render.NewMarkdownWriter(&none), empty, f, builtinKeyOps())
	if none.Len() != 0 {
		t.Errorf("results without %s rows: got a section:\n%s", f.Family, none.String())
	}
	return got
}

// builtinKeyOps are the built-in families' key operations.
func builtinKeyOps() render.KeyOps { return all.Registry().KeyOps() }

// TestKeyOpsOfTheFamilies: each family lists key operations of its own
// types only, and the registry's map holds every one of them.
func TestKeyOpsOfTheFamilies(t *testing.T) {
	keys := builtinKeyOps()
	for _, f := range all.Registry().Families() {
		for typ, ops := range f.KeyOps {
			if got := (results.Key{Type: typ}).Family(); got != f.Family {
				t.Errorf("family %s lists key operations of %s: got family %s, want %s", f.Family, typ, got, f.Family)
			}
			if !slices.Equal(keys[typ], ops) {
				t.Errorf("Registry.KeyOps()[%s]: got %v, want %v", typ, keys[typ], ops)
			}
		}
	}
	for _, typ := range []vocab.Type{vocab.Signature, vocab.Secp256k1Signature, vocab.BN254G1} {
		if len(keys[typ]) == 0 {
			t.Errorf("Registry.KeyOps()[%s]: got none, want the family's", typ)
		}
	}
}
