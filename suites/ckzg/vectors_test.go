//go:build cgo

package ckzg

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"os"
	"testing"

	"github.com/memprof/memprof/fixtures"
)

var kzgUpdate = flag.Bool("update", false, "rewrite fixtures/kzg-vectors.json from what c-kzg computes")

const kzgVectorsPath = "../../fixtures/kzg-vectors.json"

// The vectors' parameters: the seed of the blobs and how many there are
// (the agreement check runs on every one; the operations need at least 8).
const (
	vectorsSeed  = "memprof kzg vectors v1"
	vectorsBlobs = 8
)

// generateVectors computes the KZG vectors with c-kzg: for each blob its
// commitment, blob proof, the SHA-256 of its 128 cells and its cell proofs.
func generateVectors(t *testing.T) *fixtures.KZGVectors {
	t.Helper()
	l := agreeLib()
	v := &fixtures.KZGVectors{
		Comment: "Deterministic KZG vectors: blob i is fixtures.KZGBlobFromSeed(seed, i). c-kzg computed the commitments, blob proofs, cells " +
			"(kept as the SHA-256 of the 128 cells concatenated) and cell proofs; go-eth-kzg must compute the same bytes (memprof verify).",
		Generator: "go generate ./fixtures (runs: go test ./suites/ckzg -run TestKZGVectorsFile -update; needs cgo)",
		Seed:      vectorsSeed,
	}
	for i := range vectorsBlobs {
		blob := fixtures.KZGBlobFromSeed(vectorsSeed, i)[:]
		c, err := l.BlobToCommitment(blob)
		if err != nil {
			t.Fatal(err)
		}
		p, err := l.ComputeBlobProof(blob, c)
		if err != nil {
			t.Fatal(err)
		}
		cells, proofs, err := l.ComputeCellsAndProofs(blob)
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		for _, cell := range cells {
			h.Write(cell)
		}
		b := fixtures.KZGBlob{Name: fixtures.KZGBlobName(i), Commitment: c, Proof: p, CellsSHA256: h.Sum(nil)}
		for _, cp := range proofs {
			b.CellProofs = append(b.CellProofs, bytes.Clone(cp))
		}
		v.Blobs = append(v.Blobs, b)
	}
	return v
}

// TestKZGVectorsFile rewrites fixtures/kzg-vectors.json from what c-kzg
// computes (with -update; without, it only says where the file is
// checked).
func TestKZGVectorsFile(t *testing.T) {
	if !*kzgUpdate {
		t.Skip("a generator (go generate ./fixtures): it runs with -update; TestAgreement in suites/agree/kzg checks c-kzg and go-eth-kzg against the file")
	}
	want, err := fixtures.MarshalKZGVectors(generateVectors(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(kzgVectorsPath, want, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", kzgVectorsPath)
	if _, err := fixtures.ParseKZGVectors(want); err != nil {
		t.Error(err)
	}
}
