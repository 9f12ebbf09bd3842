// Package kzg is the KZG part of the agreement check: before any KZG
// figure is printed, the KZG libraries must compute the same thing. For
// every blob of fixtures/kzg-vectors.json (deterministic blobs made from
// the file's seed, and what c-kzg computed of them) each available library
// must
//
//  1. compute the file's commitment, blob proof, cells (whose SHA-256 the
//     file keeps) and cell proofs, byte for byte, and the same cells as
//     every other library;
//  2. verify every library's blob proof and cell proofs, and reject the
//     blob proof of the next blob, and the blob's cells given the next
//     blob's cell proofs;
//  3. recover the blob's 128 cells from half of them (the even indices);
//  4. verify the proofs of go-ethereum's point evaluation vectors
//     (fixtures/kzg-precompile) through the precompile's checks, and refuse
//     them for another value (pointevaluation.go).
//
// The libraries come from a suites registry (Registry.KZGAgreeLibs). A
// library this build cannot run (c-kzg without cgo) is reported
// unavailable, and the others are still checked against the file. The
// libraries work at the same time, each on its own goroutine; the checks
// that compare their results run after, in a fixed order, so that a
// disagreement is reported the same way every time.
package kzg

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"slices"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/agree"
	"github.com/memprof/memprof/vocab"
)

// fileName is how disagreements name the reference.
const fileName = fixtures.KZGVectorsFile + " (made by c-kzg)"

// Run checks the KZG libraries of r against the embedded vectors
// (Check), then against go-ethereum's point evaluation vectors
// (CheckPointEvaluation), which the report's cases count too.
func Run(r *suites.Registry) (*agree.Report, error) {
	return agree.Steps[*fixtures.KZGVectors, suites.KZGAgreeLib]{
		Load: fixtures.LoadKZGVectors, Check: Check, Cases: PointEvaluationCases, More: CheckPointEvaluation,
		Available: func(l suites.KZGAgreeLib) bool { return l.Unavailable.IsZero() },
	}.Run(r.KZGAgreeLibs())
}

// made is what one library computed of one blob.
type made struct {
	commitment, proof []byte
	cells, cellProofs [][]byte
	err               error
	step              string // the step err comes from
}

// Check checks libs against v; see the package documentation. The report
// is returned with the error too (it says which libraries took part). The
// error is an *agree.Disagreement when a library computes something else
// (its Case names the blob, its Check the object, and its Got and Want the
// bytes, from which the first differing byte is shown), or another error
// when no library can be checked.
func Check(v *fixtures.KZGVectors, libs []suites.KZGAgreeLib) (*agree.Report, error) {
	rep, avail, err := agree.Available("KZG agreement", len(v.Blobs), libs, func(l suites.KZGAgreeLib) (vocab.Lib, vocab.Why) { return l.Lib, l.Unavailable })
	if err != nil {
		return rep, err
	}
	blobs := make([][]byte, len(v.Blobs))
	for i := range blobs {
		blobs[i] = v.Blob(i)[:]
	}

	// 1. Compute, every library at once; compare in order.
	computed := agree.PerLib(avail, func(l suites.KZGAgreeLib) []made { return compute(l, blobs) })
	for i, want := range v.Blobs {
		if err := compare(v, i, want, avail, computed); err != nil {
			return rep, err
		}
	}

	// 2 and 3. Verify, reject, recover: each library checks what every
	// library computed (the same bytes, after step 1).
	verdicts := agree.PerLib(avail, func(l suites.KZGAgreeLib) []verdict { return check(l, v, blobs, computed[0]) })
	for i := range v.Blobs {
		for j, l := range avail {
			if d := verdicts[j][i].disagreement(v, i, l.Lib, avail, computed[0][i]); d != nil {
				return rep, d
			}
		}
	}
	return rep, nil
}

// compute makes every blob's commitment, proof, cells and cell proofs with
// l; a failure is recorded in the blob's made and ends l's work on that
// blob.
func compute(l suites.KZGAgreeLib, blobs [][]byte) []made {
	out := make([]made, len(blobs))
	eachBlob(len(blobs), func(i int) {
		m, blob := &out[i], blobs[i]
		if m.commitment, m.err = l.BlobToCommitment(blob); m.err != nil {
			m.step = "commitment"
			return
		}
		if m.proof, m.err = l.ComputeBlobProof(blob, m.commitment); m.err != nil {
			m.step = "blob proof"
			return
		}
		if m.cells, m.cellProofs, m.err = l.ComputeCellsAndProofs(blob); m.err != nil {
			m.step = "cells and proofs"
		}
	})
	return out
}

// eachBlob runs f for blobs 0 to n-1, as many at once as there are
// processors (agree.Each): the libraries are safe for concurrent calls on
// one context, and c-kzg's calls use one core each.
func eachBlob(n int, f func(i int)) { agree.Each(n, f) }

// compare checks blob i of every library against the file and the other
// libraries.
func compare(v *fixtures.KZGVectors, i int, want fixtures.KZGBlob, libs []suites.KZGAgreeLib, computed [][]made) error {
	name := want.Name
	for j, l := range libs {
		m := computed[j][i]
		if m.err != nil {
			return &agree.Disagreement{Case: name, Check: m.step, Lib: l.Lib, Against: fileName, Detail: m.err.Error()}
		}
		for _, c := range []struct {
			check     string
			got, want []byte
		}{
			{"commitment", m.commitment, want.Commitment},
			{"blob proof", m.proof, want.Proof},
		} {
			if !bytes.Equal(c.got, c.want) {
				return &agree.Disagreement{Case: name, Check: c.check, Lib: l.Lib, Against: fileName, Got: c.got, Want: c.want, Agreeing: agreeing(libs, computed, i, c.check, c.want)}
			}
		}
		if got := cellsHash(m.cells); !bytes.Equal(got, want.CellsSHA256) {
			return cellsDisagreement(name, l.Lib, libs, computed, i, got, want.CellsSHA256)
		}
		if len(m.cellProofs) != len(want.CellProofs) {
			return &agree.Disagreement{Case: name, Check: "cell proofs", Lib: l.Lib, Against: fileName, Detail: fmt.Sprintf("%d cell proofs, want %d", len(m.cellProofs), len(want.CellProofs))}
		}
		for k, p := range m.cellProofs {
			if !bytes.Equal(p, want.CellProofs[k]) {
				return &agree.Disagreement{Case: name, Check: fmt.Sprintf("proof of cell %d", k), Lib: l.Lib, Against: fileName, Got: p, Want: want.CellProofs[k]}
			}
		}
	}
	return nil
}

// cellsDisagreement is the disagreement of lib, whose cells of blob i
// hash to got instead of the file's want: against the cells of a library
// that computed the file's, so that it names the first differing cell
// and byte, or against the file's hash when no library did.
func cellsDisagreement(name string, lib vocab.Lib, libs []suites.KZGAgreeLib, computed [][]made, i int, got, want []byte) *agree.Disagreement {
	ok := agreeing(libs, computed, i, "cells", want)
	for j, l := range libs {
		if l.Lib == lib || !slices.Contains(ok, l.Lib) {
			continue
		}
		mine, theirs := cellsOf(libs, computed, lib, i), computed[j][i].cells
		if k, d := firstDifferentCell(mine, theirs); k >= 0 {
			return &agree.Disagreement{Case: name, Check: fmt.Sprintf("cell %d", k), Lib: lib, Against: string(l.Lib) + " (whose cells match " + fileName + ")",
				Got: cellAt(mine, k), Want: cellAt(theirs, k), Detail: d, Agreeing: ok}
		}
	}
	return &agree.Disagreement{Case: name, Check: "cells (SHA-256 of the 128 cells)", Lib: lib, Against: fileName, Got: got, Want: want, Agreeing: ok}
}

func cellsOf(libs []suites.KZGAgreeLib, computed [][]made, lib vocab.Lib, i int) [][]byte {
	for j, l := range libs {
		if l.Lib == lib {
			return computed[j][i].cells
		}
	}
	return nil
}

func cellAt(cells [][]byte, k int) []byte {
	if k < len(cells) {
		return cells[k]
	}
	return nil
}

// agreeing lists the libraries whose value for check equals want.
func agreeing(libs []suites.KZGAgreeLib, computed [][]made, i int, check string, want []byte) []vocab.Lib {
	var out []vocab.Lib
	for j, l := range libs {
		m := computed[j][i]
		var got []byte
		switch check {
		case "commitment":
			got = m.commitment
		case "blob proof":
			got = m.proof
		default:
			got = cellsHash(m.cells)
		}
		if m.err == nil && bytes.Equal(got, want) {
			out = append(out, l.Lib)
		}
	}
	return out
}

func cellsHash(cells [][]byte) []byte {
	h := sha256.New()
	for _, c := range cells {
		h.Write(c)
	}
	return h.Sum(nil)
}

// firstDifferentCell returns the index of the first cell of a that differs
// from b's, and what differs when the counts do; -1 when they are equal.
func firstDifferentCell(a, b [][]byte) (int, string) {
	for k := range min(len(a), len(b)) {
		if !bytes.Equal(a[k], b[k]) {
			return k, ""
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b)), fmt.Sprintf("%d cells against %d", len(a), len(b))
	}
	return -1, ""
}

// verdict is what one library found checking one blob: the verification
// of the computed blob proof and cell proofs, the rejections, and the
// recovered cells.
type verdict struct {
	blobProof, cellProofs           outcome
	otherBlobProof, otherCellProofs outcome
	recovered                       [][]byte
	recoverErr                      error
}

// outcome is a verification's answer.
type outcome struct {
	ok  bool
	err error
}

// check has l verify what was computed of every blob (every library
// computed the same bytes, so those of the first stand for all), reject
// the proofs of the next blob, and recover each blob from half its cells.
func check(l suites.KZGAgreeLib, v *fixtures.KZGVectors, blobs [][]byte, computed []made) []verdict {
	out := make([]verdict, len(blobs))
	eachBlob(len(blobs), func(i int) {
		blob := blobs[i]
		m, next := computed[i], computed[(i+1)%len(blobs)]
		vd := &out[i]
		vd.blobProof = verify(l.VerifyBlobProof(blob, m.commitment, m.proof))
		vd.otherBlobProof = verify(l.VerifyBlobProof(blob, m.commitment, next.proof))
		commitments, indices := make([][]byte, len(m.cells)), make([]uint64, len(m.cells))
		for k := range m.cells {
			commitments[k], indices[k] = m.commitment, uint64(k)
		}
		vd.cellProofs = verify(l.VerifyCellProofBatch(commitments, indices, m.cells, m.cellProofs))
		vd.otherCellProofs = verify(l.VerifyCellProofBatch(commitments, indices, m.cells, next.cellProofs))
		var half [][]byte
		var halfIdx []uint64
		for k := 0; k < len(m.cells); k += suites.KZGRecoverFraction {
			half, halfIdx = append(half, m.cells[k]), append(halfIdx, uint64(k))
		}
		vd.recovered, vd.recoverErr = l.RecoverCells(halfIdx, half)
	})
	return out
}

func verify(ok bool, err error) outcome { return outcome{ok, err} }

// disagreement returns what is wrong with vd, lib's verdict on blob i, or
// nil.
func (vd verdict) disagreement(v *fixtures.KZGVectors, i int, lib vocab.Lib, libs []suites.KZGAgreeLib, m made) *agree.Disagreement {
	name := v.Blobs[i].Name
	producers := "every library's (" + vocab.Join(libNames(libs)) + ": the same bytes)"
	next := fixtures.KZGBlobName((i + 1) % len(v.Blobs))
	for _, c := range []struct {
		check   string
		o       outcome
		want    bool
		against string
	}{
		{"verify the blob proof", vd.blobProof, true, producers},
		{"verify the cell proofs", vd.cellProofs, true, producers},
		{"reject the blob proof of " + next, vd.otherBlobProof, false, fileName},
		{"reject the cell proofs of " + next, vd.otherCellProofs, false, fileName},
	} {
		got := c.o.ok && c.o.err == nil
		if got == c.want {
			continue
		}
		detail := "rejects them"
		switch {
		case c.o.err != nil && c.want:
			detail = c.o.err.Error()
		case !c.want:
			detail = "accepts proofs made for another blob"
		}
		return &agree.Disagreement{Case: name, Check: c.check, Lib: lib, Against: c.against, Detail: detail}
	}
	check := "recover the cells from half of them"
	if vd.recoverErr != nil {
		return &agree.Disagreement{Case: name, Check: check, Lib: lib, Against: fileName, Detail: vd.recoverErr.Error()}
	}
	if k, d := firstDifferentCell(vd.recovered, m.cells); k >= 0 {
		var got []byte
		if k < len(vd.recovered) {
			got = vd.recovered[k]
		}
		var want []byte
		if k < len(m.cells) {
			want = m.cells[k]
		}
		return &agree.Disagreement{Case: name, Check: fmt.Sprintf("%s: cell %d", check, k), Lib: lib, Against: "the cells computed (" + fileName + ")", Got: got, Want: want, Detail: d}
	}
	return nil
}

func libNames(libs []suites.KZGAgreeLib) []vocab.Lib {
	out := make([]vocab.Lib, len(libs))
	for i, l := range libs {
		out[i] = l.Lib
	}
	return out
}
