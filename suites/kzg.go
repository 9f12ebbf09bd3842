package suites

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// The KZG operations are one table too (kzgRows): a row names the
// operation (the type it handles, the op, the batch), the inputs it runs
// on, made from fixtures/kzg-vectors.json, and what it must return. A
// library writes a KZGImpls: for each operation a maker that turns the
// inputs (in byte forms, built outside any timing) into the library's own
// types and returns the call that is timed.

// The batches of the KZG operations that handle many items per call.
const (
	KZGBlobBatchBlock  = 6  // verify-blob-proof-batch: the blobs of one block at a target of 6
	KZGBlobBatchMax    = 72 // verify-blob-proof-batch, and the column of verify-cell-proof-batch: 72 blobs
	KZGColumnIndex     = 5  // the cell index of that column
	KZGRecoverFraction = 2  // recover-cells-and-proofs starts from one cell in two
	kzgVectorBlobs     = 8  // the least number of vector blobs the table uses
	kzgCellsPerBlob    = fixtures.KZGCellsPerBlob
	kzgRecoverCells    = kzgCellsPerBlob / KZGRecoverFraction
)

// ErrVerifyFailed is what a KZG verification's Run returns when the
// library rejects the proofs (as opposed to input it cannot decode).
var ErrVerifyFailed = errors.New("the proofs do not verify")

// KZGInput is what one KZG operation starts from, in byte forms, made from
// the vectors outside any timing. Each list is one item per element of
// the call's batch.
type KZGInput struct {
	Blobs       [][]byte // blobs of fixtures.KZGBytesPerBlob
	Commitments [][]byte // the commitment of Blobs[i], or of the blob of Cells[i]
	Proofs      [][]byte // the blob proof of Blobs[i], or the proof of Cells[i]
	CellIndices []uint64 // the index of Cells[i] in its blob
	Cells       [][]byte // cells of fixtures.KZGBytesPerCell
}

// KZGCall is a prepared KZG operation: Run is timed, Result is not (see
// OpHarness).
type KZGCall struct {
	Run    func() error
	Result func() ([]byte, error)
}

// KZGMaker converts in to the library's types, outside any timing, and
// returns the call that is timed.
type KZGMaker func(in KZGInput) (KZGCall, error)

// KZGImpls is a library's adapter for the KZG operations, at one setting
// of the library (c-kzg's precompute level, told apart by Param).
type KZGImpls struct {
	Lib   vocab.Lib
	Param results.Param
	// Isolate and CHeap are copied to every operation (see Op).
	Isolate string
	CHeap   bool
	// Unavailable, when set, makes every operation unavailable for that
	// reason (c-kzg without cgo).
	Unavailable vocab.Why
	// Setting ends every note: what the library runs with ("precompute
	// 6", "numGoRoutines 0: every core").
	Setting string
	// Cells returns the library's cells of blob, not timed: the inputs of
	// the cell verifications and of recovery. The table checks them
	// against the vectors' hash before using them.
	Cells func(blob []byte) ([][]byte, error)
	// Impls are the operations, by op; an op missing is not offered.
	Impls map[vocab.Op]Impl[KZGMaker]
}

// kzgRow is one KZG operation of the table.
type kzgRow struct {
	typ   vocab.Type
	op    vocab.Op
	batch int
	// what says what one call handles, for the note.
	what string
	// input makes the inputs; invalid asks for inputs the operation must
	// reject (ErrNoInvalidInput when it has none).
	input func(k *kzgInputs, invalid bool) (KZGInput, error)
	want  func(v *fixtures.KZGVectors) []byte
}

var kzgRows = []kzgRow{
	{vocab.Commitment, vocab.BlobToCommitment, 1, "one blob", blobsInput(1, false, false), func(v *fixtures.KZGVectors) []byte { return v.Blobs[0].Commitment }},
	{vocab.Proof, vocab.ComputeBlobProof, 1, "one blob and its commitment", blobsInput(1, true, false), func(v *fixtures.KZGVectors) []byte { return v.Blobs[0].Proof }},
	{vocab.Proof, vocab.VerifyBlobProof, 1, "one blob, its commitment and proof; invalid input: another blob's proof", blobsInput(1, true, true), wantTrue},
	{vocab.Proof, vocab.VerifyBlobProofBatch, KZGBlobBatchBlock, "6 blobs (vector blobs 0-5); invalid input: each blob given the next blob's proof", blobsInput(KZGBlobBatchBlock, true, true), wantTrue},
	{vocab.Proof, vocab.VerifyBlobProofBatch, KZGBlobBatchMax, "72 blobs (the 8 vector blobs, each 9 times); invalid input: each blob given the next blob's proof", blobsInput(KZGBlobBatchMax, true, true), wantTrue},
	{vocab.CellsAndProofs, vocab.ComputeCellsAndProofs, 1, "one blob", blobsInput(1, false, false), wantCells},
	{vocab.KZGCell, vocab.VerifyCellProofBatch, kzgCellsPerBlob, "one blob's 128 cells and proofs; invalid input: each cell given the next cell's proof", blobCellsInput, wantTrue},
	{vocab.KZGCell, vocab.VerifyCellProofBatch, KZGBlobBatchMax, "a column: cell 5 of 72 blobs (the 8 vector blobs, each 9 times: 8 distinct commitments); invalid input: each cell given cell 6's proof", columnInput, wantTrue},
	{vocab.CellsAndProofs, vocab.RecoverCellsAndProofs, 1, "one blob from 64 of its 128 cells (the even indices); invalid input: 63 cells, too few", recoverInput, wantCells},
}

func wantTrue(*fixtures.KZGVectors) []byte { return OpBool(true) }

func wantCells(v *fixtures.KZGVectors) []byte {
	return kzgCellsResult(v.Blobs[0].CellsSHA256, len(v.Blobs[0].CellProofs), func(i int) []byte { return v.Blobs[0].CellProofs[i] })
}

// KZGCellsResult is the Result of compute-cells-and-proofs and
// recover-cells-and-proofs: SHA-256 of the 128 cells concatenated in
// order (the vectors' cells_sha256), then the 128 proofs.
func KZGCellsResult(cell, proof func(i int) []byte) []byte {
	h := sha256.New()
	for i := range kzgCellsPerBlob {
		h.Write(cell(i))
	}
	return kzgCellsResult(h.Sum(nil), kzgCellsPerBlob, proof)
}

func kzgCellsResult(cellsHash []byte, n int, proof func(i int) []byte) []byte {
	out := slices.Clone(cellsHash)
	for i := range n {
		out = append(out, proof(i)...)
	}
	return out
}

// kzgInputs makes the inputs of one library's operations: the vectors,
// and the library's cells of the vector blobs, computed once and checked
// against the vectors.
type kzgInputs struct {
	v     *fixtures.KZGVectors
	cells func() ([][][]byte, error)
}

func newKZGInputs(impl KZGImpls) *kzgInputs {
	k := &kzgInputs{}
	k.cells = sync.OnceValues(func() ([][][]byte, error) {
		v, err := k.vectors()
		if err != nil {
			return nil, err
		}
		var out [][][]byte
		for i := range kzgVectorBlobs {
			cells, err := impl.Cells(v.Blob(i)[:])
			if err != nil {
				return nil, fmt.Errorf("%s: cells of %s: %w", impl.Lib, fixtures.KZGBlobName(i), err)
			}
			h := sha256.New()
			for _, c := range cells {
				h.Write(c)
			}
			if got := h.Sum(nil); len(cells) != kzgCellsPerBlob || !slices.Equal(got, v.Blobs[i].CellsSHA256) {
				return nil, fmt.Errorf("%s: cells of %s: %d cells with SHA-256 %x, want %d with %x (%s)", impl.Lib, fixtures.KZGBlobName(i), len(cells), got, kzgCellsPerBlob, []byte(v.Blobs[i].CellsSHA256), fixtures.KZGVectorsFile)
			}
			out = append(out, cells)
		}
		return out, nil
	})
	return k
}

func (k *kzgInputs) vectors() (*fixtures.KZGVectors, error) {
	if k.v != nil {
		return k.v, nil
	}
	v, err := fixtures.LoadKZGVectors()
	if err != nil {
		return nil, err
	}
	if len(v.Blobs) < kzgVectorBlobs {
		return nil, fmt.Errorf("%s has %d blobs, the operations need %d", fixtures.KZGVectorsFile, len(v.Blobs), kzgVectorBlobs)
	}
	k.v = v
	return v, nil
}

// load returns the vectors and, when cells is set, the library's cells of
// the vector blobs.
func (k *kzgInputs) load(cells bool) (*fixtures.KZGVectors, [][][]byte, error) {
	v, err := k.vectors()
	if err != nil || !cells {
		return v, nil, err
	}
	c, err := k.cells()
	return v, c, err
}

// blobsInput makes the input of a blob operation on n blobs (vector blob
// i%8 for blob i), with their commitments when commitments is set and
// their proofs when proofs is set. Its invalid input, when the operation
// has one (proofs), gives blob i the next vector blob's proof.
func blobsInput(n int, commitments, proofs bool) func(*kzgInputs, bool) (KZGInput, error) {
	return func(k *kzgInputs, invalid bool) (KZGInput, error) {
		if invalid && !proofs {
			return KZGInput{}, ErrNoInvalidInput
		}
		v, _, err := k.load(false)
		if err != nil {
			return KZGInput{}, err
		}
		var in KZGInput
		for i := range n {
			b := i % kzgVectorBlobs
			in.Blobs = append(in.Blobs, v.Blob(b)[:])
			if commitments {
				in.Commitments = append(in.Commitments, v.Blobs[b].Commitment)
			}
			if proofs {
				p := b
				if invalid {
					p = (b + 1) % kzgVectorBlobs
				}
				in.Proofs = append(in.Proofs, v.Blobs[p].Proof)
			}
		}
		return in, nil
	}
}

// cellsInput is the input of a cell verification of n cells: cell j is
// cell index(j) of vector blob blob(j), with that cell's proof, or with
// the proof of the next cell for the invalid input.
func cellsInput(n int, blob, index func(j int) int) func(*kzgInputs, bool) (KZGInput, error) {
	return func(k *kzgInputs, invalid bool) (KZGInput, error) {
		v, cells, err := k.load(true)
		if err != nil {
			return KZGInput{}, err
		}
		var in KZGInput
		for j := range n {
			b, c := blob(j), index(j)
			p := c
			if invalid {
				p = (c + 1) % kzgCellsPerBlob
			}
			in.Commitments = append(in.Commitments, v.Blobs[b].Commitment)
			in.CellIndices = append(in.CellIndices, uint64(c))
			in.Cells = append(in.Cells, cells[b][c])
			in.Proofs = append(in.Proofs, v.Blobs[b].CellProofs[p])
		}
		return in, nil
	}
}

// blobCellsInput is one blob's 128 cells; columnInput is cell
// KZGColumnIndex of 72 blobs (vector blob j%8 for blob j).
var (
	blobCellsInput = cellsInput(kzgCellsPerBlob, func(int) int { return 0 }, func(j int) int { return j })
	columnInput    = cellsInput(KZGBlobBatchMax, func(j int) int { return j % kzgVectorBlobs }, func(int) int { return KZGColumnIndex })
)

// recoverInput is half the cells of blob 0 (the even indices); the
// invalid input is one cell fewer, which no library can recover from.
func recoverInput(k *kzgInputs, invalid bool) (KZGInput, error) {
	_, cells, err := k.load(true)
	if err != nil {
		return KZGInput{}, err
	}
	var in KZGInput
	for i := 0; i < kzgCellsPerBlob; i += KZGRecoverFraction {
		in.CellIndices = append(in.CellIndices, uint64(i))
		in.Cells = append(in.Cells, cells[0][i])
	}
	if invalid {
		in.CellIndices, in.Cells = in.CellIndices[:kzgRecoverCells-1], in.Cells[:kzgRecoverCells-1]
	}
	return in, nil
}

// KZGOps returns the operations of the table as impl does them: one per
// row, each unavailable (not offered) where impl has no maker, or for
// impl.Unavailable. Their keys are the row's type, op and batch, impl's
// library and parameter, and the byte form (every KZG operation starts
// from bytes).
func KZGOps(impl KZGImpls) []Op {
	inputs := newKZGInputs(impl)
	var out []Op
	for _, row := range kzgRows {
		o := Op{Key: results.Key{Type: row.typ, Lib: impl.Lib, Repr: vocab.ByteForm, Op: row.op, Batch: row.batch, Param: impl.Param},
			Isolate: impl.Isolate, CHeap: impl.CHeap}
		m, ok := impl.Impls[row.op]
		switch {
		case !impl.Unavailable.IsZero():
			o.Unavailable = impl.Unavailable
		case !ok || !m.info().offered:
			o.Unavailable = m.Lacks
			if o.Unavailable.IsZero() {
				o.Unavailable = NotOffered(impl.Lib, "no %s", row.op)
			}
		default:
			o.Note = m.Note + ": " + row.what
			if impl.Setting != "" {
				o.Note += "; " + impl.Setting
			}
			o.Prepare = func(in OpInput) (OpHarness, error) {
				input, err := row.input(inputs, in.Invalid)
				if err != nil {
					return OpHarness{}, err
				}
				call, err := m.Do(input)
				if err != nil {
					return OpHarness{}, err
				}
				return OpHarness{Run: call.Run, Result: call.Result}, nil
			}
			o.Want = func() ([]byte, error) {
				v, err := inputs.vectors()
				if err != nil {
					return nil, err
				}
				return row.want(v), nil
			}
		}
		out = append(out, o)
	}
	return out
}

// KZGProduce is the call of an operation that makes a value: Run keeps
// what run returns, Result encodes it with result.
func KZGProduce[T any](run func() (T, error), result func(*T) []byte) KZGCall {
	var out T
	return KZGCall{
		Run: func() (err error) {
			out, err = run()
			return err
		},
		Result: func() ([]byte, error) { return result(&out), nil },
	}
}

// KZGVerified is the Run of a verification: ErrVerifyFailed when the
// library says the proofs do not verify, err when it could not check
// them.
func KZGVerified(ok bool, err error) error {
	switch {
	case err != nil:
		return err
	case !ok:
		return ErrVerifyFailed
	}
	return nil
}

// KZGAgreeLib is what the KZG agreement check (suites/agree/kzg) needs
// from one library, in byte forms: blobs of fixtures.KZGBytesPerBlob,
// commitments and proofs of 48 bytes, cells of fixtures.KZGBytesPerCell.
// A verification returns ok false for proofs that do not verify, and err
// for input the library could not decode.
type KZGAgreeLib struct {
	Lib vocab.Lib
	// Unavailable, when not zero, says why the library cannot take part
	// (c-kzg without cgo); the functions are nil then.
	Unavailable vocab.Why

	BlobToCommitment      func(blob []byte) ([]byte, error)
	ComputeBlobProof      func(blob, commitment []byte) ([]byte, error)
	VerifyBlobProof       func(blob, commitment, proof []byte) (bool, error)
	ComputeCellsAndProofs func(blob []byte) (cells, proofs [][]byte, err error)
	VerifyCellProofBatch  func(commitments [][]byte, indices []uint64, cells, proofs [][]byte) (bool, error)
	// RecoverCells returns all the cells of a blob from the cells given
	// (at least half), in order.
	RecoverCells func(indices []uint64, cells [][]byte) ([][]byte, error)
	// VerifyKZGProof verifies the proof that the polynomial of commitment
	// takes the value y at z (32-byte big-endian scalars), as EIP-4844's
	// point evaluation precompile does; optional (nil: not offered). ok is
	// false for a proof that does not verify; err is for input the library
	// cannot decode.
	VerifyKZGProof func(commitment, z, y, proof []byte) (ok bool, err error)
}

// checkKZGAgreeLib fails on a library that is neither complete nor
// unavailable with a reason.
func checkKZGAgreeLib(l KZGAgreeLib) error {
	if !vocab.KZG.HasLib(l.Lib) {
		return fmt.Errorf("KZG agreement lib %q is not one of %s", l.Lib, vocab.Join(vocab.KZG.Libs()))
	}
	complete := l.BlobToCommitment != nil && l.ComputeBlobProof != nil && l.VerifyBlobProof != nil &&
		l.ComputeCellsAndProofs != nil && l.VerifyCellProofBatch != nil && l.RecoverCells != nil
	if complete == !l.Unavailable.IsZero() {
		return fmt.Errorf("KZG agreement lib %s: set either all functions or Unavailable", l.Lib)
	}
	return nil
}
