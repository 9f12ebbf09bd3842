package kzg

import (
	"bytes"
	"errors"
	"flag"
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/agree"
	"github.com/memprof/memprof/suites/ckzg"
	"github.com/memprof/memprof/suites/gokzg"
	"github.com/memprof/memprof/vocab"
)

func vectors(t *testing.T) *fixtures.KZGVectors {
	t.Helper()
	v, err := fixtures.LoadKZGVectors()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

var allBlobs = flag.Bool("kzg.all-blobs", false, "TestAgreement checks every blob of fixtures/kzg-vectors.json (go test checks the first two, seconds each; .ci/run sets it)")

// TestAgreement runs the check on the real libraries: with cgo c-kzg and
// go-eth-kzg against each other and the file, without cgo go-eth-kzg
// against the file (c-kzg reported unavailable). go test checks the
// file's first two blobs (two, for the check that each library rejects
// another blob's proofs); -kzg.all-blobs, which .ci/run sets, every blob.
func TestAgreement(t *testing.T) {
	r, err := suites.NewRegistry(ckzg.Suite(), gokzg.Suite())
	if err != nil {
		t.Fatal(err)
	}
	v := vectors(t)
	if len(v.Blobs) < 8 {
		t.Errorf("the vectors hold %d blobs, want at least 8", len(v.Blobs))
	}
	if !*allBlobs {
		first := *v
		first.Blobs = v.Blobs[:2]
		v = &first
	}
	rep, err := Check(v, r.KZGAgreeLibs())
	if err != nil {
		t.Fatal(err)
	}
	var want []vocab.Lib
	for _, l := range r.KZGAgreeLibs() {
		if l.Unavailable.IsZero() {
			want = append(want, l.Lib)
		} else if rep.Unavailable[l.Lib] == "" {
			t.Errorf("%s is unavailable (%s) but the report does not say so", l.Lib, l.Unavailable.Reason)
		}
	}
	if !slices.Equal(rep.Libs, want) || rep.Cases != len(v.Blobs) {
		t.Errorf("report: got libs %v and %d cases, want %v and %d", rep.Libs, rep.Cases, want, len(v.Blobs))
	}
}

// synthetic returns a copy of the vectors whose cells are made up (cell k
// of blob i: the byte i, then the byte k repeated) and its cells_sha256 set to
// theirs, with the cells: the fake libraries serve them, so the hostile
// cases test the check, not the cryptography, and run in no time.
func synthetic(t *testing.T) (*fixtures.KZGVectors, [][][]byte) {
	t.Helper()
	v := *vectors(t)
	v.Blobs = slices.Clone(v.Blobs)
	var cells [][][]byte
	for i := range v.Blobs {
		var bc [][]byte
		for k := range fixtures.KZGCellsPerBlob {
			c := slices.Repeat([]byte{byte(k)}, fixtures.KZGBytesPerCell)
			c[0] = byte(i)
			bc = append(bc, c)
		}
		v.Blobs[i].CellsSHA256 = cellsHash(bc)
		cells = append(cells, bc)
	}
	return &v, cells
}

// fake is a library that computes what the vectors say (from a table, so
// the hostile cases run in no time) and verifies by comparing with the
// same table; a field set to non-nil replaces one behaviour.
type fake struct {
	lib   vocab.Lib
	v     *fixtures.KZGVectors
	cells [][][]byte
	// blobOf finds the blob index of a blob's bytes.
	blobOf map[string]int

	commitment func(i int, c []byte) []byte
	cell       func(i, k int, c []byte) []byte
	cellProof  func(i, k int, p []byte) []byte
	accept     bool // verification accepts anything
	recovered  func(i int, cells [][]byte) [][]byte
	fail       error // every computation fails with it
}

func newFake(v *fixtures.KZGVectors, cells [][][]byte, lib vocab.Lib) *fake {
	f := &fake{lib: lib, v: v, cells: cells, blobOf: map[string]int{}}
	for i := range f.v.Blobs {
		f.blobOf[string(f.v.Blob(i)[:])] = i
	}
	return f
}

func clone2(in [][]byte) [][]byte {
	out := make([][]byte, len(in))
	for i := range in {
		out[i] = slices.Clone(in[i])
	}
	return out
}

func (f *fake) agreeLib() suites.KZGAgreeLib {
	id := func(b []byte) int { return f.blobOf[string(b)] }
	return suites.KZGAgreeLib{
		Lib: f.lib,
		BlobToCommitment: func(blob []byte) ([]byte, error) {
			if f.fail != nil {
				return nil, f.fail
			}
			i := id(blob)
			c := slices.Clone(f.v.Blobs[i].Commitment)
			if f.commitment != nil {
				c = f.commitment(i, c)
			}
			return c, nil
		},
		ComputeBlobProof: func(blob, _ []byte) ([]byte, error) { return slices.Clone(f.v.Blobs[id(blob)].Proof), nil },
		VerifyBlobProof: func(blob, c, p []byte) (bool, error) {
			i := id(blob)
			return f.accept || slices.Equal(c, f.v.Blobs[i].Commitment) && slices.Equal(p, f.v.Blobs[i].Proof), nil
		},
		ComputeCellsAndProofs: func(blob []byte) ([][]byte, [][]byte, error) {
			i := id(blob)
			cells := clone2(f.cells[i])
			var proofs [][]byte
			for k := range cells {
				proofs = append(proofs, slices.Clone(f.v.Blobs[i].CellProofs[k]))
				if f.cell != nil {
					cells[k] = f.cell(i, k, cells[k])
				}
				if f.cellProof != nil {
					proofs[k] = f.cellProof(i, k, proofs[k])
				}
			}
			return cells, proofs, nil
		},
		VerifyCellProofBatch: func(cs [][]byte, idx []uint64, cells, proofs [][]byte) (bool, error) {
			if f.accept {
				return true, nil
			}
			for j := range cells {
				i := slices.IndexFunc(f.v.Blobs, func(b fixtures.KZGBlob) bool { return slices.Equal(b.Commitment, cs[j]) })
				if i < 0 || !slices.Equal(cells[j], f.cells[i][idx[j]]) || !slices.Equal(proofs[j], f.v.Blobs[i].CellProofs[idx[j]]) {
					return false, nil
				}
			}
			return true, nil
		},
		RecoverCells: func(idx []uint64, cells [][]byte) ([][]byte, error) {
			i := slices.IndexFunc(f.cells, func(all [][]byte) bool { return slices.Equal(all[idx[0]], cells[0]) })
			if i < 0 {
				return nil, errors.New("fake: unknown cells")
			}
			out := clone2(f.cells[i])
			if f.recovered != nil {
				out = f.recovered(i, out)
			}
			return out, nil
		},
	}
}

// flipAt returns a breaker of cell (or cell proof) k of blob i: byte at
// flipped.
func flipAt(i, k, at int) func(int, int, []byte) []byte {
	return func(bi, bk int, b []byte) []byte {
		if bi == i && bk == k {
			return flip(b, at)
		}
		return b
	}
}

// flip returns b with byte at flipped.
func flip(b []byte, at int) []byte {
	b = slices.Clone(b)
	b[at] ^= 0x01
	return b
}

// TestDisagreements: each library that computes or checks one thing
// wrong is a disagreement naming the blob, the object and, where there
// are bytes to compare, the first differing byte.
func TestDisagreements(t *testing.T) {
	tests := []struct {
		name   string
		break_ func(f *fake)
		want   []string
	}{
		{"commitment", func(f *fake) {
			f.commitment = func(i int, c []byte) []byte {
				if i == 3 {
					return flip(c, 7)
				}
				return c
			}
		}, []string{"case blob-3: commitment: gokzg differs", "first difference at byte 7", "(ckzg agree with it)"}},
		{"cell", func(f *fake) { f.cell = flipAt(2, 17, 100) },
			[]string{"case blob-2: cell 17: gokzg differs from ckzg", "first difference at byte 100"}},
		{"cell proof", func(f *fake) { f.cellProof = flipAt(0, 5, 0) },
			[]string{"case blob-0: proof of cell 5: gokzg", "first difference at byte 0"}},
		{"accepts another blob's proofs", func(f *fake) { f.accept = true },
			[]string{"case blob-0: reject the blob proof of blob-1: gokzg", "accepts proofs made for another blob"}},
		{"recovery", func(f *fake) {
			f.recovered = func(i int, cells [][]byte) [][]byte {
				if i == 6 {
					cells[64] = flip(cells[64], 2047)
				}
				return cells
			}
		}, []string{"case blob-6: recover the cells from half of them: cell 64: gokzg", "first difference at byte 2047"}},
		{"error", func(f *fake) { f.fail = errors.New("library refused the blob") },
			[]string{"case blob-0: commitment: gokzg", "library refused the blob"}},
	}
	v, cells := synthetic(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			good, bad := newFake(v, cells, vocab.CKZG), newFake(v, cells, vocab.GoKZG)
			tt.break_(bad)
			_, err := Check(v, []suites.KZGAgreeLib{good.agreeLib(), bad.agreeLib()})
			var d *agree.Disagreement
			if !errors.As(err, &d) {
				t.Fatalf("got %v, want a disagreement", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("got %q, want it to contain %q", err, w)
				}
			}
		})
	}
	t.Run("agreeing fakes", func(t *testing.T) {
		if _, err := Check(v, []suites.KZGAgreeLib{newFake(v, cells, vocab.CKZG).agreeLib(), newFake(v, cells, vocab.GoKZG).agreeLib()}); err != nil {
			t.Errorf("got %v, want none: the fakes compute the vectors", err)
		}
	})
	t.Run("no library", func(t *testing.T) {
		_, err := Check(v, []suites.KZGAgreeLib{{Lib: vocab.CKZG, Unavailable: vocab.Because(vocab.NeedsCgo, "needs cgo")}})
		if err == nil || !strings.Contains(err.Error(), "no library available") {
			t.Errorf("got %v, want no library available", err)
		}
	})
}

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
