//go:build cgo

package ckzg

import (
	"fmt"
	"slices"
	"sync"
	"unsafe"

	ckzg4844 "github.com/ethereum/c-kzg-4844/v2/bindings/go"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/kzgkit"
	"github.com/memprof/memprof/vocab"
)

// haveCgo tells the tests which variant made the entries.
const haveCgo = true

// buildReason is zero: this build runs c-kzg.
var buildReason vocab.Why

// The process's one c-kzg setup: the level loaded, -1 when none.
var (
	setupMu     sync.Mutex
	setupLoaded = -1
)

// load makes c-kzg's setup the embedded mainnet one at precompute level l.
// With replace, a setup loaded at any level is freed and loaded again (a
// context measured once per pass); without, a setup already loaded at l
// is kept and one at another level is an error, since c-kzg holds one per
// process.
func load(l int, replace bool) error {
	setupMu.Lock()
	defer setupMu.Unlock()
	if setupLoaded == l && !replace {
		return nil
	}
	if setupLoaded >= 0 && !replace {
		return fmt.Errorf("c-kzg holds one trusted setup per process: it is loaded at precompute %d, and precompute %d was asked for (each level's operations run in a process of their own)", setupLoaded, l)
	}
	s, err := fixtures.LoadKZGTrustedSetup()
	if err != nil {
		return err
	}
	if setupLoaded >= 0 {
		ckzg4844.FreeTrustedSetup()
		setupLoaded = -1
	}
	if err := ckzg4844.LoadTrustedSetup(s.G1Monomial, s.G1Lagrange, s.G2Monomial, uint(l)); err != nil {
		return fmt.Errorf("c-kzg: loading %s at precompute %d: %w", fixtures.KZGTrustedSetupFile, l, err)
	}
	setupLoaded = l
	return nil
}

// loadAny makes sure a setup is loaded, at precompute 0 unless one already
// is: the data entries and the agreement check compute the same bytes at
// every level.
func loadAny() error {
	setupMu.Lock()
	loaded := setupLoaded >= 0
	setupMu.Unlock()
	if loaded {
		return nil
	}
	return load(0, false)
}

// setup is what the Go heap holds of a c-kzg context: c-kzg keeps its
// KZGSettings in a package variable of the binding and every table in C
// memory.
type setup struct{ precompute int }

// blobCells is one blob's cells and proofs as ComputeCellsAndKZGProofs
// returns them (two arrays by value), kept together.
type blobCells struct {
	Cells  [ckzg4844.CellsPerExtBlob]ckzg4844.Cell
	Proofs [ckzg4844.CellsPerExtBlob]ckzg4844.KZGProof
}

func toBlob(b *[fixtures.KZGBytesPerBlob]byte) ckzg4844.Blob { return ckzg4844.Blob(*b) }

// computed returns c-kzg's cells and proofs of the first kzgkit.CellBlobs
// vector blobs, computed once per process at whatever level is loaded
// (they are the same bytes at every level; the cell entries and the
// PeerDAS scenario copy them, outside the measurement, and never change
// them).
var computed = sync.OnceValues(computeCells)

func computeCells() ([]blobCells, error) {
	if err := loadAny(); err != nil {
		return nil, err
	}
	return kzgkit.Computed("c-kzg", toBlob, func(b *ckzg4844.Blob) (c blobCells, err error) {
		c.Cells, c.Proofs, err = ckzg4844.ComputeCellsAndKZGProofs(b)
		return c, err
	})
}

// entryImpls returns the constructor of every entry c-kzg offers.
func entryImpls() map[results.Key]kzgkit.Impl {
	key := func(t vocab.Type) results.Key {
		return results.Key{Type: t, Lib: lib, Repr: vocab.ByteForm, Layout: measure.Pointer}
	}
	m := map[results.Key]kzgkit.Impl{
		key(vocab.Blob): {
			Constructor: fmt.Sprintf("a new ckzg4844.Blob (a %d-byte array) holding a copy of one of %d vector blobs", unsafe.Sizeof(ckzg4844.Blob{}), kzgkit.DistinctBlobs),
			SizeHint:    unsafe.Sizeof(ckzg4844.Blob{}), DefaultN: 1_000,
			Case: func() memprof.Case {
				return kzgkit.Copies(func() ([]ckzg4844.Blob, error) { return kzgkit.Blobs(kzgkit.DistinctBlobs, toBlob) })
			},
		},
		key(vocab.Commitment): {
			Constructor: "a new ckzg4844.KZGCommitment (48 bytes) holding a copy of one of the vectors' commitments",
			SizeHint:    unsafe.Sizeof(ckzg4844.KZGCommitment{}),
			Case:        func() memprof.Case { return kzgkit.Copies(kzgkit.Points[ckzg4844.KZGCommitment](false)) },
		},
		key(vocab.Proof): {
			Constructor: "a new ckzg4844.KZGProof (48 bytes) holding a copy of one of the vectors' blob proofs",
			SizeHint:    unsafe.Sizeof(ckzg4844.KZGProof{}),
			Case:        func() memprof.Case { return kzgkit.Copies(kzgkit.Points[ckzg4844.KZGProof](true)) },
		},
		key(vocab.KZGCell): {
			Constructor: fmt.Sprintf("a new ckzg4844.Cell (%d bytes) holding a copy of one of the cells c-kzg computed of %d vector blobs", unsafe.Sizeof(ckzg4844.Cell{}), kzgkit.CellBlobs),
			SizeHint:    unsafe.Sizeof(ckzg4844.Cell{}), DefaultN: 10_000,
			Case: func() memprof.Case {
				return kzgkit.Copies(kzgkit.CellsOf(computed, func(b *blobCells) []ckzg4844.Cell { return b.Cells[:] }))
			},
		},
		key(vocab.CellsAndProofs): {
			Constructor: fmt.Sprintf("one blob's cells and proofs as ckzg4844.ComputeCellsAndKZGProofs returns them ([128]Cell and [128]KZGProof by value), kept in one new struct: a copy of what c-kzg computed of one of %d vector blobs", kzgkit.CellBlobs),
			SizeHint:    unsafe.Sizeof(blobCells{}), DefaultN: 100,
			Case: func() memprof.Case { return kzgkit.Copies(computed) },
		},
	}
	for _, k := range kzgkit.PeerDASKeys(lib) {
		if k.Repr != vocab.ByteForm {
			continue // the packed form is measured once (kzgkit.PackedLib)
		}
		m[k] = kzgkit.Impl{
			Constructor: kzgkit.PeerDASConstructor("c-kzg", "as c-kzg returns them: per blob one struct of [128]ckzg4844.Cell and [128]ckzg4844.KZGProof by value, held by pointer in a []*struct grown one blob at a time"),
			SizeHint:    unsafe.Sizeof(blobCells{}),
			Case: func() memprof.Case {
				return kzgkit.PeerDASCase(computed, func(bs []blobCells, n int) any {
					return kzgkit.ReturnedNode(bs, n, func(b *blobCells) *blobCells { c := *b; return &c })
				}, unsafe.Sizeof(blobCells{}))
			},
		}
	}
	for _, l := range Levels {
		m[kzgkit.ContextKey(lib, kzgkit.PrecomputeParam(l))] = kzgkit.Impl{
			Constructor: fmt.Sprintf("ckzg4844.LoadTrustedSetup of the embedded mainnet setup (%s, decoded from hex beforehand) at precompute %d: blst points, FK20 columns and, above 0, fixed-base MSM tables, all in C memory; the Go heap holds a handle", fixtures.KZGTrustedSetupFile, l),
			SizeHint:    unsafe.Sizeof(setup{}),
			Case: func() memprof.Case {
				return kzgkit.Context(func() error { _, err := fixtures.LoadKZGTrustedSetup(); return err }, func() any {
					if err := load(l, true); err != nil {
						panic(err)
					}
					return &setup{precompute: l}
				})
			},
		}
	}
	return m
}

// impls returns c-kzg's operations at precompute level l.
func impls(l int) suites.KZGImpls {
	ready := func() error { return load(l, false) }
	// op wraps a maker so that it loads the setup at l first.
	op := func(note string, do suites.KZGMaker) suites.Impl[suites.KZGMaker] {
		return suites.Offer[suites.KZGMaker](note, func(in suites.KZGInput) (suites.KZGCall, error) {
			if err := ready(); err != nil {
				return suites.KZGCall{}, err
			}
			return do(in)
		})
	}
	return suites.KZGImpls{
		Lib: lib, Param: kzgkit.PrecomputeParam(l), Isolate: isolate(l), CHeap: true,
		Setting: fmt.Sprintf("c-kzg at precompute %d, in a process of its own", l),
		Cells: func(blob []byte) ([][]byte, error) {
			if err := ready(); err != nil {
				return nil, err
			}
			cells, err := ckzg4844.ComputeCells((*ckzg4844.Blob)(blob))
			out := make([][]byte, len(cells))
			for i := range cells {
				out[i] = cells[i][:]
			}
			return out, err
		},
		Impls: map[vocab.Op]suites.Impl[suites.KZGMaker]{
			vocab.BlobToCommitment: op("ckzg4844.BlobToKZGCommitment (checks the blob's field elements)", func(in suites.KZGInput) (suites.KZGCall, error) {
				blob := (*ckzg4844.Blob)(in.Blobs[0])
				return suites.KZGProduce(func() (ckzg4844.KZGCommitment, error) { return ckzg4844.BlobToKZGCommitment(blob) }, kzgkit.G1Bytes), nil
			}),
			vocab.ComputeBlobProof: op("ckzg4844.ComputeBlobKZGProof (decodes the commitment)", func(in suites.KZGInput) (suites.KZGCall, error) {
				blob, c := (*ckzg4844.Blob)(in.Blobs[0]), ckzg4844.Bytes48(in.Commitments[0])
				return suites.KZGProduce(func() (ckzg4844.KZGProof, error) { return ckzg4844.ComputeBlobKZGProof(blob, c) }, kzgkit.G1Bytes), nil
			}),
			vocab.VerifyBlobProof: op("ckzg4844.VerifyBlobKZGProof (decodes and subgroup-checks the commitment and proof)", func(in suites.KZGInput) (suites.KZGCall, error) {
				blob, c, p := (*ckzg4844.Blob)(in.Blobs[0]), ckzg4844.Bytes48(in.Commitments[0]), ckzg4844.Bytes48(in.Proofs[0])
				return verified(func() (bool, error) { return ckzg4844.VerifyBlobKZGProof(blob, c, p) }), nil
			}),
			vocab.VerifyBlobProofBatch: op("ckzg4844.VerifyBlobKZGProofBatch (blobs contiguous, as c-kzg takes them)", func(in suites.KZGInput) (suites.KZGCall, error) {
				blobs := make([]ckzg4844.Blob, len(in.Blobs))
				for i, b := range in.Blobs {
					blobs[i] = ckzg4844.Blob(b)
				}
				cs, ps := bytes48(in.Commitments), bytes48(in.Proofs)
				return verified(func() (bool, error) { return ckzg4844.VerifyBlobKZGProofBatch(blobs, cs, ps) }), nil
			}),
			vocab.ComputeCellsAndProofs: op("ckzg4844.ComputeCellsAndKZGProofs (FK20; the precompute tables speed up the proofs)", func(in suites.KZGInput) (suites.KZGCall, error) {
				blob := (*ckzg4844.Blob)(in.Blobs[0])
				return suites.KZGProduce(func() (b blobCells, err error) {
					b.Cells, b.Proofs, err = ckzg4844.ComputeCellsAndKZGProofs(blob)
					return b, err
				}, (*blobCells).result), nil
			}),
			vocab.VerifyCellProofBatch: op("ckzg4844.VerifyCellKZGProofBatch (deduplicates the commitments)", func(in suites.KZGInput) (suites.KZGCall, error) {
				cs, ps, cells := bytes48(in.Commitments), bytes48(in.Proofs), cellsOf(in.Cells)
				idx := slices.Clone(in.CellIndices)
				return verified(func() (bool, error) { return ckzg4844.VerifyCellKZGProofBatch(cs, idx, cells, ps) }), nil
			}),
			vocab.RecoverCellsAndProofs: op("ckzg4844.RecoverCellsAndKZGProofs (recovers the cells, then computes every proof again with FK20)", func(in suites.KZGInput) (suites.KZGCall, error) {
				idx, cells := slices.Clone(in.CellIndices), cellsOf(in.Cells)
				return suites.KZGProduce(func() (b blobCells, err error) {
					b.Cells, b.Proofs, err = ckzg4844.RecoverCellsAndKZGProofs(idx, cells)
					return b, err
				}, (*blobCells).result), nil
			}),
		},
	}
}

// result is the Result of the operations that return cells and proofs.
func (b *blobCells) result() []byte {
	return suites.KZGCellsResult(func(i int) []byte { return b.Cells[i][:] }, func(i int) []byte { return b.Proofs[i][:] })
}

func verified(check func() (bool, error)) suites.KZGCall {
	var ok bool
	return suites.KZGCall{
		Run: func() error {
			var err error
			ok, err = check()
			return suites.KZGVerified(ok, err)
		},
		Result: func() ([]byte, error) { return suites.OpBool(ok), nil },
	}
}

func bytes48(in [][]byte) []ckzg4844.Bytes48 { return kzgkit.G1s[ckzg4844.Bytes48](in) }

func cellsOf(in [][]byte) []ckzg4844.Cell { return kzgkit.Cells[ckzg4844.Cell](in) }

// agreeLib returns c-kzg's part of the KZG agreement check, on a setup
// at whatever level is loaded (precompute 0 unless one is).
func agreeLib() suites.KZGAgreeLib {
	return suites.KZGAgreeLib{
		Lib: lib,
		BlobToCommitment: func(blob []byte) ([]byte, error) {
			if err := loadAny(); err != nil {
				return nil, err
			}
			c, err := ckzg4844.BlobToKZGCommitment((*ckzg4844.Blob)(blob))
			return c[:], err
		},
		ComputeBlobProof: func(blob, commitment []byte) ([]byte, error) {
			if err := loadAny(); err != nil {
				return nil, err
			}
			p, err := ckzg4844.ComputeBlobKZGProof((*ckzg4844.Blob)(blob), ckzg4844.Bytes48(commitment))
			return p[:], err
		},
		VerifyBlobProof: func(blob, commitment, proof []byte) (bool, error) {
			if err := loadAny(); err != nil {
				return false, err
			}
			return ckzg4844.VerifyBlobKZGProof((*ckzg4844.Blob)(blob), ckzg4844.Bytes48(commitment), ckzg4844.Bytes48(proof))
		},
		VerifyKZGProof: func(commitment, z, y, proof []byte) (bool, error) {
			if err := loadAny(); err != nil {
				return false, err
			}
			return ckzg4844.VerifyKZGProof(ckzg4844.Bytes48(commitment), ckzg4844.Bytes32(z), ckzg4844.Bytes32(y), ckzg4844.Bytes48(proof))
		},
		ComputeCellsAndProofs: func(blob []byte) ([][]byte, [][]byte, error) {
			if err := loadAny(); err != nil {
				return nil, nil, err
			}
			var b blobCells
			var err error
			b.Cells, b.Proofs, err = ckzg4844.ComputeCellsAndKZGProofs((*ckzg4844.Blob)(blob))
			cells, proofs := b.split()
			return cells, proofs, err
		},
		VerifyCellProofBatch: func(commitments [][]byte, indices []uint64, cells, proofs [][]byte) (bool, error) {
			if err := loadAny(); err != nil {
				return false, err
			}
			return ckzg4844.VerifyCellKZGProofBatch(bytes48(commitments), indices, cellsOf(cells), bytes48(proofs))
		},
		RecoverCells: func(indices []uint64, cells [][]byte) ([][]byte, error) {
			if err := loadAny(); err != nil {
				return nil, err
			}
			var b blobCells
			var err error
			b.Cells, err = ckzg4844.RecoverCells(indices, cellsOf(cells))
			all, _ := b.split()
			return all, err
		},
	}
}

// split returns b's cells and proofs as byte slices sharing b's memory.
func (b *blobCells) split() (cells, proofs [][]byte) {
	for i := range b.Cells {
		cells = append(cells, b.Cells[i][:])
		proofs = append(proofs, b.Proofs[i][:])
	}
	return cells, proofs
}
