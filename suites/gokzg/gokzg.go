// Package gokzg registers the KZG cases of
// github.com/crate-crypto/go-eth-kzg, pure Go on gnark-crypto: blobs,
// commitments, proofs and cells in its byte-array types and, where it
// exposes them, decoded (a commitment or proof as a gnark-crypto G1 point,
// a blob as its field elements); the PeerDAS scenario; its context; and
// the KZG operations. Every context is built from the embedded mainnet
// setup (fixtures/kzg-trusted-setup.json), not from the library's own
// embedded copy, so that both KZG libraries load the same file.
package gokzg

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"unsafe"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	goethkzg "github.com/crate-crypto/go-eth-kzg"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/kzgkit"
	"github.com/memprof/memprof/vocab"
)

// lib is the library name in the registry.
const lib = vocab.GoKZG

// Module is go-eth-kzg's module path, whose version results record.
const Module = "github.com/crate-crypto/go-eth-kzg"

// numGoRoutines is what every call that takes it gets: 0, which
// go-eth-kzg reads as "as many as there are CPUs".
const numGoRoutines = 0

// Suite returns go-eth-kzg's entries, operations and KZG agreement
// library.
func Suite() suites.Suite {
	return suites.Suite{
		Name:     string(lib),
		Modules:  []string{Module},
		Entries:  kzgkit.Entries(keys(), lacks, vocab.Why{}, entryImpls()),
		Ops:      suites.KZGOps(impls()),
		KZGAgree: []suites.KZGAgreeLib{agreeLib()},
	}
}

func keys() []results.Key {
	return append(append(kzgkit.DataKeys(lib), kzgkit.PeerDASKeys(lib)...), kzgkit.ContextKey(lib, ""))
}

// lacks says why go-eth-kzg has no such form, or nothing.
func lacks(k results.Key) vocab.Why {
	if k.Repr == vocab.Decoded && (k.Type == vocab.KZGCell || k.Type == vocab.CellsAndProofs) {
		return kzgkit.NotOffered(lib, "go-eth-kzg decodes cells only inside its verification and recovery (deserializeCell is unexported)")
	}
	return vocab.Why{}
}

// parsedSetup is the embedded setup in the form NewContext4096 takes.
var parsedSetup = sync.OnceValues(func() (*goethkzg.JSONTrustedSetup, error) {
	b, err := fixtures.KZGTrustedSetupJSON()
	if err != nil {
		return nil, fmt.Errorf("go-eth-kzg: %w", err)
	}
	var s goethkzg.JSONTrustedSetup
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("go-eth-kzg: reading %s: %w", fixtures.KZGTrustedSetupFile, err)
	}
	return &s, nil
})

// newContext builds a context from the embedded setup.
func newContext() (*goethkzg.Context, error) {
	s, err := parsedSetup()
	if err != nil {
		return nil, err
	}
	return goethkzg.NewContext4096(s)
}

// context is the process's shared context, for the data entries, the
// operations and the agreement check.
var context = sync.OnceValues(newContext)

// blobCells is one blob's cells and proofs as ComputeCellsAndKZGProofs
// returns them: 128 cells by pointer, 128 proofs by value.
type blobCells struct {
	Cells  [goethkzg.CellsPerExtBlob]*goethkzg.Cell
	Proofs [goethkzg.CellsPerExtBlob]goethkzg.KZGProof
}

// clone returns a copy of b with cells of its own, as a node keeps the
// cells it received.
func (b *blobCells) clone() *blobCells {
	c := &blobCells{Proofs: b.Proofs}
	for i, cell := range b.Cells {
		c.Cells[i] = new(goethkzg.Cell)
		*c.Cells[i] = *cell
	}
	return c
}

func toBlob(b *[fixtures.KZGBytesPerBlob]byte) goethkzg.Blob { return goethkzg.Blob(*b) }

// computed returns go-eth-kzg's cells and proofs of the first
// kzgkit.CellBlobs vector blobs, computed once per process like the
// context (the cell entries and the PeerDAS scenario copy them, outside
// the measurement, and never change them).
var computed = sync.OnceValues(computeCells)

func computeCells() ([]blobCells, error) {
	ctx, err := context()
	if err != nil {
		return nil, err
	}
	return kzgkit.Computed("go-eth-kzg", toBlob, func(b *goethkzg.Blob) (c blobCells, err error) {
		c.Cells, c.Proofs, err = ctx.ComputeCellsAndKZGProofs(b, numGoRoutines)
		return c, err
	})
}

// entryImpls returns the constructor of every entry go-eth-kzg offers.
func entryImpls() map[results.Key]kzgkit.Impl {
	key := func(t vocab.Type, r vocab.Repr) results.Key {
		return results.Key{Type: t, Lib: lib, Repr: r, Layout: measure.Pointer}
	}
	blobs := func() ([]goethkzg.Blob, error) { return kzgkit.Blobs(kzgkit.DistinctBlobs, toBlob) }
	var poly []fr.Element // the type DeserializeBlob returns a value of, for its size
	m := map[results.Key]kzgkit.Impl{
		key(vocab.Blob, vocab.ByteForm): {
			Constructor: fmt.Sprintf("a new goethkzg.Blob (a %d-byte array) holding a copy of one of %d vector blobs", unsafe.Sizeof(goethkzg.Blob{}), kzgkit.DistinctBlobs),
			SizeHint:    unsafe.Sizeof(goethkzg.Blob{}), DefaultN: 1_000,
			Case: func() memprof.Case { return kzgkit.Copies(blobs) },
		},
		key(vocab.Blob, vocab.Decoded): {
			Constructor: fmt.Sprintf("goethkzg.DeserializeBlob of one of %d vector blobs: its %d field elements (fr.Element, Montgomery form) in a new slice, held by pointer", kzgkit.DistinctBlobs, fixtures.KZGFieldElementsPerBlob),
			SizeHint:    unsafe.Sizeof(poly), DefaultN: 1_000,
			Case: func() memprof.Case {
				return kzgkit.Made(blobs, func(b *goethkzg.Blob) any {
					p, err := goethkzg.DeserializeBlob(b)
					if err != nil {
						panic(err)
					}
					return &p
				})
			},
		},
		key(vocab.KZGCell, vocab.ByteForm): {
			Constructor: fmt.Sprintf("a new goethkzg.Cell (%d bytes) holding a copy of one of the cells go-eth-kzg computed of %d vector blobs", unsafe.Sizeof(goethkzg.Cell{}), kzgkit.CellBlobs),
			SizeHint:    unsafe.Sizeof(goethkzg.Cell{}), DefaultN: 10_000,
			Case: func() memprof.Case {
				return kzgkit.Copies(kzgkit.CellsOf(computed, func(b *blobCells) []goethkzg.Cell {
					var cells []goethkzg.Cell
					for _, c := range b.Cells {
						cells = append(cells, *c)
					}
					return cells
				}))
			},
		},
		key(vocab.CellsAndProofs, vocab.ByteForm): {
			Constructor: fmt.Sprintf("one blob's cells and proofs as goethkzg.ComputeCellsAndKZGProofs returns them ([128]*Cell and [128]KZGProof), kept in one new struct with 128 new cells: a copy of what go-eth-kzg computed of one of %d vector blobs", kzgkit.CellBlobs),
			SizeHint:    unsafe.Sizeof(blobCells{}), DefaultN: 100,
			Case: func() memprof.Case { return kzgkit.Made(computed, func(b *blobCells) any { return b.clone() }) },
		},
	}
	addG1(m, vocab.Commitment, "KZGCommitment", "commitments", false, goethkzg.DeserializeKZGCommitment)
	addG1(m, vocab.Proof, "KZGProof", "blob proofs", true, goethkzg.DeserializeKZGProof)
	for _, k := range kzgkit.PeerDASKeys(lib) {
		im := kzgkit.Impl{SizeHint: cellsSize}
		switch k.Repr {
		case vocab.ByteForm:
			im.Constructor = kzgkit.PeerDASConstructor("go-eth-kzg", "as go-eth-kzg returns them: per blob one struct of [128]*goethkzg.Cell and [128]goethkzg.KZGProof, each cell its own object, held by pointer in a []*struct grown one blob at a time")
			im.Case = func() memprof.Case {
				return kzgkit.PeerDASCase(computed, func(bs []blobCells, n int) any {
					return kzgkit.ReturnedNode(bs, n, (*blobCells).clone)
				}, cellsSize)
			}
		case vocab.Packed:
			im.Constructor = kzgkit.PeerDASConstructor("go-eth-kzg", "packed: one []struct{cells [128][2048]byte; proofs [128][48]byte} sized for N up front (no pointers)")
			im.Case = func() memprof.Case {
				return kzgkit.PeerDASCase(packed, kzgkit.PackedNode, unsafe.Sizeof(kzgkit.Packed{}))
			}
		}
		m[k] = im
	}
	m[kzgkit.ContextKey(lib, "")] = kzgkit.Impl{
		Constructor: fmt.Sprintf("goethkzg.NewContext4096 of the embedded mainnet setup (%s, parsed from JSON beforehand; the context decodes the hex points itself): gnark-crypto points, domains, FK20 tables, all Go heap", fixtures.KZGTrustedSetupFile),
		SizeHint:    unsafe.Sizeof(goethkzg.Context{}),
		Case: func() memprof.Case {
			return kzgkit.Context(func() error { _, err := parsedSetup(); return err }, func() any {
				ctx, err := newContext()
				if err != nil {
					panic(err)
				}
				return ctx
			})
		},
	}
	return m
}

// addG1 adds the entries of the vectors' commitments or blob proofs
// (proofs), typ, in go-eth-kzg's 48-byte type T (named name) and decoded
// by decode into a G1 point.
func addG1[T ~[fixtures.KZGBytesPerG1]byte](m map[results.Key]kzgkit.Impl, typ vocab.Type, name, what string, proofs bool, decode func(T) (bls12381.G1Affine, error)) {
	m[results.Key{Type: typ, Lib: lib, Repr: vocab.ByteForm, Layout: measure.Pointer}] = kzgkit.Impl{
		Constructor: fmt.Sprintf("a new goethkzg.%s (48 bytes) holding a copy of one of the vectors' %s", name, what),
		SizeHint:    unsafe.Sizeof(*new(T)),
		Case:        func() memprof.Case { return kzgkit.Copies(kzgkit.Points[T](proofs)) },
	}
	m[results.Key{Type: typ, Lib: lib, Repr: vocab.Decoded, Layout: measure.Pointer}] = kzgkit.Impl{
		Constructor: fmt.Sprintf("goethkzg.Deserialize%s of one of the vectors' %s (subgroup-checked), into a new bls12381.G1Affine", name, what),
		SizeHint:    unsafe.Sizeof(bls12381.G1Affine{}), DefaultN: 10_000,
		Case: func() memprof.Case {
			return kzgkit.Made(kzgkit.Points[T](proofs), func(v *T) any {
				p, err := decode(*v)
				if err != nil {
					panic(err)
				}
				return &p
			})
		},
	}
}

// cellsSize is the bytes of one blob's cells and proofs in go-eth-kzg's
// form: the struct and its 128 cells.
const cellsSize = unsafe.Sizeof(blobCells{}) + goethkzg.CellsPerExtBlob*unsafe.Sizeof(goethkzg.Cell{})

// packed returns computed's cells and proofs in the packed form.
func packed() ([]kzgkit.Packed, error) {
	bs, err := computed()
	if err != nil {
		return nil, err
	}
	out := make([]kzgkit.Packed, len(bs))
	for i, b := range bs {
		for j := range b.Cells {
			out[i].Cells[j] = *b.Cells[j]
			out[i].Proofs[j] = b.Proofs[j]
		}
	}
	return out, nil
}

// impls returns go-eth-kzg's operations, on the shared context.
func impls() suites.KZGImpls {
	op := func(note string, do func(ctx *goethkzg.Context, in suites.KZGInput) (suites.KZGCall, error)) suites.Impl[suites.KZGMaker] {
		return suites.Offer[suites.KZGMaker](note, func(in suites.KZGInput) (suites.KZGCall, error) {
			ctx, err := context()
			if err != nil {
				return suites.KZGCall{}, err
			}
			return do(ctx, in)
		})
	}
	return suites.KZGImpls{
		Lib:     lib,
		Setting: "go-eth-kzg with numGoRoutines 0 (as many goroutines as CPUs)",
		Cells: func(blob []byte) ([][]byte, error) {
			ctx, err := context()
			if err != nil {
				return nil, err
			}
			cells, err := ctx.ComputeCells((*goethkzg.Blob)(blob), numGoRoutines)
			return cellBytes(cells[:]), err
		},
		Impls: map[vocab.Op]suites.Impl[suites.KZGMaker]{
			vocab.BlobToCommitment: op("goethkzg.(*Context).BlobToKZGCommitment (checks the blob's field elements)", func(ctx *goethkzg.Context, in suites.KZGInput) (suites.KZGCall, error) {
				blob := (*goethkzg.Blob)(in.Blobs[0])
				return suites.KZGProduce(func() (goethkzg.KZGCommitment, error) { return ctx.BlobToKZGCommitment(blob, numGoRoutines) }, kzgkit.G1Bytes), nil
			}),
			vocab.ComputeBlobProof: op("goethkzg.(*Context).ComputeBlobKZGProof (subgroup-checks the commitment)", func(ctx *goethkzg.Context, in suites.KZGInput) (suites.KZGCall, error) {
				blob, c := (*goethkzg.Blob)(in.Blobs[0]), goethkzg.KZGCommitment(in.Commitments[0])
				return suites.KZGProduce(func() (goethkzg.KZGProof, error) { return ctx.ComputeBlobKZGProof(blob, c, numGoRoutines) }, kzgkit.G1Bytes), nil
			}),
			vocab.VerifyBlobProof: op("goethkzg.(*Context).VerifyBlobKZGProof (decodes and subgroup-checks the commitment and proof)", func(ctx *goethkzg.Context, in suites.KZGInput) (suites.KZGCall, error) {
				blob, c, p := (*goethkzg.Blob)(in.Blobs[0]), goethkzg.KZGCommitment(in.Commitments[0]), goethkzg.KZGProof(in.Proofs[0])
				return verified(func() error { return ctx.VerifyBlobKZGProof(blob, c, p) }), nil
			}),
			vocab.VerifyBlobProofBatch: op("goethkzg.(*Context).VerifyBlobKZGProofBatch (blobs by pointer, as go-eth-kzg takes them)", func(ctx *goethkzg.Context, in suites.KZGInput) (suites.KZGCall, error) {
				blobs := make([]*goethkzg.Blob, len(in.Blobs))
				for i, b := range in.Blobs {
					blobs[i] = (*goethkzg.Blob)(slices.Clone(b))
				}
				cs, ps := commitments(in.Commitments), proofs(in.Proofs)
				return verified(func() error { return ctx.VerifyBlobKZGProofBatch(blobs, cs, ps) }), nil
			}),
			vocab.ComputeCellsAndProofs: op("goethkzg.(*Context).ComputeCellsAndKZGProofs (FK20)", func(ctx *goethkzg.Context, in suites.KZGInput) (suites.KZGCall, error) {
				blob := (*goethkzg.Blob)(in.Blobs[0])
				return suites.KZGProduce(func() (b blobCells, err error) {
					b.Cells, b.Proofs, err = ctx.ComputeCellsAndKZGProofs(blob, numGoRoutines)
					return b, err
				}, (*blobCells).result), nil
			}),
			vocab.VerifyCellProofBatch: op("goethkzg.(*Context).VerifyCellKZGProofBatch (deduplicates the commitments)", func(ctx *goethkzg.Context, in suites.KZGInput) (suites.KZGCall, error) {
				cs, ps, cells := commitments(in.Commitments), proofs(in.Proofs), cellPointers(in.Cells)
				idx := slices.Clone(in.CellIndices)
				return verified(func() error { return ctx.VerifyCellKZGProofBatch(cs, idx, cells, ps) }), nil
			}),
			vocab.RecoverCellsAndProofs: op("goethkzg.(*Context).RecoverCellsAndComputeKZGProofs (recovers the cells, then computes every proof again with FK20)", func(ctx *goethkzg.Context, in suites.KZGInput) (suites.KZGCall, error) {
				idx, cells := slices.Clone(in.CellIndices), cellPointers(in.Cells)
				return suites.KZGProduce(func() (b blobCells, err error) {
					b.Cells, b.Proofs, err = ctx.RecoverCellsAndComputeKZGProofs(idx, cells, numGoRoutines)
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

// verified is the call of a verification: go-eth-kzg returns an error
// both for proofs that do not verify and for input it cannot decode, so
// every error is a rejection.
func verified(check func() error) suites.KZGCall {
	var err error
	return suites.KZGCall{
		Run: func() error {
			err = check()
			return err
		},
		Result: func() ([]byte, error) { return suites.OpBool(err == nil), nil },
	}
}

func commitments(in [][]byte) []goethkzg.KZGCommitment { return kzgkit.G1s[goethkzg.KZGCommitment](in) }

func proofs(in [][]byte) []goethkzg.KZGProof { return kzgkit.G1s[goethkzg.KZGProof](in) }

// cellPointers copies cells into new goethkzg.Cells, as go-eth-kzg takes
// them.
func cellPointers(in [][]byte) []*goethkzg.Cell {
	out := make([]*goethkzg.Cell, len(in))
	for i, c := range in {
		out[i] = (*goethkzg.Cell)(slices.Clone(c))
	}
	return out
}

// cellBytes returns the cells as byte slices sharing their memory.
func cellBytes(cells []*goethkzg.Cell) [][]byte {
	out := make([][]byte, len(cells))
	for i, c := range cells {
		out[i] = c[:]
	}
	return out
}

func proofBytes(ps []goethkzg.KZGProof) [][]byte {
	out := make([][]byte, len(ps))
	for i := range ps {
		out[i] = ps[i][:]
	}
	return out
}

// agreeLib returns go-eth-kzg's part of the KZG agreement check, on the
// shared context. A verification's error is a rejection (ok false): the
// library does not tell proofs that do not verify from undecodable input.
func agreeLib() suites.KZGAgreeLib {
	verify := func(check func(*goethkzg.Context) error) (bool, error) {
		ctx, err := context()
		if err != nil {
			return false, err
		}
		return check(ctx) == nil, nil
	}
	return suites.KZGAgreeLib{
		Lib: lib,
		BlobToCommitment: func(blob []byte) ([]byte, error) {
			ctx, err := context()
			if err != nil {
				return nil, err
			}
			c, err := ctx.BlobToKZGCommitment((*goethkzg.Blob)(blob), numGoRoutines)
			return c[:], err
		},
		ComputeBlobProof: func(blob, commitment []byte) ([]byte, error) {
			ctx, err := context()
			if err != nil {
				return nil, err
			}
			p, err := ctx.ComputeBlobKZGProof((*goethkzg.Blob)(blob), goethkzg.KZGCommitment(commitment), numGoRoutines)
			return p[:], err
		},
		VerifyBlobProof: func(blob, commitment, proof []byte) (bool, error) {
			return verify(func(ctx *goethkzg.Context) error {
				return ctx.VerifyBlobKZGProof((*goethkzg.Blob)(blob), goethkzg.KZGCommitment(commitment), goethkzg.KZGProof(proof))
			})
		},
		VerifyKZGProof: func(commitment, z, y, proof []byte) (bool, error) {
			return verify(func(ctx *goethkzg.Context) error {
				return ctx.VerifyKZGProof(goethkzg.KZGCommitment(commitment), goethkzg.Scalar(z), goethkzg.Scalar(y), goethkzg.KZGProof(proof))
			})
		},
		ComputeCellsAndProofs: func(blob []byte) ([][]byte, [][]byte, error) {
			ctx, err := context()
			if err != nil {
				return nil, nil, err
			}
			cells, ps, err := ctx.ComputeCellsAndKZGProofs((*goethkzg.Blob)(blob), numGoRoutines)
			if err != nil {
				return nil, nil, err
			}
			return cellBytes(cells[:]), proofBytes(ps[:]), nil
		},
		VerifyCellProofBatch: func(cs [][]byte, indices []uint64, cells, ps [][]byte) (bool, error) {
			return verify(func(ctx *goethkzg.Context) error {
				return ctx.VerifyCellKZGProofBatch(commitments(cs), indices, cellPointers(cells), proofs(ps))
			})
		},
		RecoverCells: func(indices []uint64, cells [][]byte) ([][]byte, error) {
			ctx, err := context()
			if err != nil {
				return nil, err
			}
			all, err := ctx.RecoverCells(indices, cellPointers(cells), numGoRoutines)
			if err != nil {
				return nil, err
			}
			return cellBytes(all[:]), nil
		},
	}
}
