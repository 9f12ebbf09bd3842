//go:build cgo

package ckzg

import (
	"context"
	"os"
	"slices"
	"testing"
	"unsafe"

	ckzg4844 "github.com/ethereum/c-kzg-4844/v2/bindings/go"
	blst "github.com/supranational/blst/bindings/go"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/kzgkit"
	"github.com/memprof/memprof/suites/internal/kzgtest"
	"github.com/memprof/memprof/suites/internal/suitetest"
	"github.com/memprof/memprof/vocab"
)

// TestConstants: the binding's sizes are the EIP ones the fixtures use.
func TestConstants(t *testing.T) {
	kzgtest.CheckSizes(t, "c-kzg", kzgtest.Sizes{Blob: ckzg4844.BytesPerBlob, Cell: ckzg4844.BytesPerCell,
		CellsPerBlob: ckzg4844.CellsPerExtBlob, Commitment: ckzg4844.BytesPerCommitment, FieldElements: ckzg4844.FieldElementsPerBlob})
}

// TestSuite checks the exact bytes of every data entry and of the PeerDAS
// node from the binding's types: a blob is one object of its
// unsafe.Sizeof in whole pages, a cell its 2,048 B size class, a blob's
// cells and proofs one struct of arrays (in whole pages).
func TestSuite(t *testing.T) {
	s := Suite()
	slot := func(n uintptr, pointers bool) float64 { return kzgtest.Slot(t, n, pointers) }
	key := func(t vocab.Type) results.Key {
		return results.Key{Type: t, Lib: lib, Repr: vocab.ByteForm, Layout: measure.Pointer}
	}
	const nodeBlobs = 6
	var header []byte // the slice header boxed for the *[]*blobCells
	node := slot(unsafe.Sizeof(header), true) + slot(uintptr(kzgtest.AppendedCap(nodeBlobs))*unsafe.Sizeof(&blobCells{}), true)
	kzgtest.CheckMeasurements(t, s, []kzgtest.Want{
		{Key: key(vocab.Blob), N: 20, Bytes: slot(unsafe.Sizeof(ckzg4844.Blob{}), false), Objects: 1},
		{Key: key(vocab.Commitment), N: 1000, Bytes: slot(unsafe.Sizeof(ckzg4844.KZGCommitment{}), false), Objects: 1},
		{Key: key(vocab.Proof), N: 1000, Bytes: slot(unsafe.Sizeof(ckzg4844.KZGProof{}), false), Objects: 1},
		{Key: key(vocab.KZGCell), N: 200, Bytes: slot(unsafe.Sizeof(ckzg4844.Cell{}), false), Objects: 1},
		{Key: key(vocab.CellsAndProofs), N: 10, Bytes: slot(unsafe.Sizeof(blobCells{}), false), Objects: 1},
		{Key: results.Key{Type: vocab.PeerDASNode, Lib: lib, Repr: vocab.ByteForm, Layout: measure.Collection, Param: kzgkit.BlobsParam(nodeBlobs)},
			N: nodeBlobs, Bytes: slot(unsafe.Sizeof(blobCells{}), false) + node/nodeBlobs, Objects: 1 + 2.0/nodeBlobs},
	})
}

// TestOps runs every operation at precompute 0 once on valid inputs and
// once on inputs it must reject. The other levels run the same calls on
// another setup, which this process cannot load beside the first: memprof
// throughput times them in their own processes.
func TestOps(t *testing.T) {
	s := Suite()
	s.Ops = slices.DeleteFunc(s.Ops, func(o suites.Op) bool { return o.Param != kzgkit.PrecomputeParam(0) })
	suitetest.CheckOps(t, s)
}

// setupBlocks returns the sizes of the blocks c-kzg's load_trusted_setup
// keeps allocated for a setup of g2Points G2 points at precompute l, as
// src/setup/setup.c (v2.1.8) allocates them; its headers cannot be
// included from here, so the counts come from the binding's constants and
// the sizes from blst's Go types, which are its C types:
//
//   - roots of unity: FIELD_ELEMENTS_PER_EXT_BLOB (2 × 4096) fr_t for the
//     bit-reversed ones, one more for the roots and for the reversed
//     roots (an fr_t is blst_fr, 256 bits: the size of blst.Scalar);
//   - the setup's points as blst Jacobian points (g1_t = blst_p1, g2_t =
//     blst_p2): 4096 G1 in monomial form, 4096 in Lagrange form, g2Points
//     G2;
//   - FK20: 2 × CELLS_PER_BLOB (CELLS_PER_BLOB = 4096 / 64) columns of
//     FIELD_ELEMENTS_PER_CELL (64) G1 points, and the array of their
//     pointers;
//   - for l > 0, one fixed-base MSM table per column, of
//     blst_p1s_mult_wbits_precompute_sizeof(l, 64) = sizeof(blst_p1_affine)
//     × 64 << (l-1) bytes, and the array of their pointers.
func setupBlocks(l, g2Points int) []int {
	fr, g1, g2 := int(unsafe.Sizeof(blst.Scalar{})), int(unsafe.Sizeof(blst.P1{})), int(unsafe.Sizeof(blst.P2{}))
	affine, pointer := int(unsafe.Sizeof(blst.P1Affine{})), int(unsafe.Sizeof(uintptr(0)))
	ext := 2 * ckzg4844.FieldElementsPerBlob
	columns := 2 * (ckzg4844.FieldElementsPerBlob / ckzg4844.FieldElementsPerCell)
	blocks := []int{ext * fr, (ext + 1) * fr, (ext + 1) * fr,
		ckzg4844.FieldElementsPerBlob * g1, ckzg4844.FieldElementsPerBlob * g1, g2Points * g2,
		columns * pointer}
	for range columns {
		blocks = append(blocks, ckzg4844.FieldElementsPerCell*g1)
	}
	if l > 0 {
		blocks = append(blocks, columns*pointer)
		for range columns {
			blocks = append(blocks, affine*ckzg4844.FieldElementsPerCell<<(l-1))
		}
	}
	return blocks
}

// glibc's chunk overhead: a chunk from an arena is the request plus an
// 8-byte size field, rounded up to 16 bytes; one of at least the mmap
// threshold (128 KiB unless glibc has raised it) is mapped on its own,
// its request plus 16 bytes of header rounded up to whole pages.
const (
	arenaOverhead = 8 + 15
	mmapThreshold = 128 << 10
)

// overhead is the most glibc adds to a block of n bytes.
func overhead(n int) int {
	if n >= mmapThreshold {
		return os.Getpagesize() + 16
	}
	return arenaOverhead
}

// TestSetupCHeap measures c-kzg's context at precompute levels in child
// processes and checks the C-heap figure against what the settings hold
// (setupBlocks): at least the blocks' bytes, at most their bytes plus
// glibc's overhead on each. The Go heap holds only the handle.
func TestSetupCHeap(t *testing.T) {
	if _, err := memprof.CHeapInUse(); err != nil {
		t.Skip(err)
	}
	// Level 6's blocks are level 0's and the precompute tables: go test
	// measures it alone (each context takes seconds to build).
	levels := []int{6}
	if *kzgtest.AllContexts {
		levels = Levels
	}
	ts, err := fixtures.LoadKZGTrustedSetup()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range levels {
		t.Run(string(kzgkit.PrecomputeParam(l)), func(t *testing.T) {
			t.Parallel()
			k := kzgkit.ContextKey(lib, kzgkit.PrecomputeParam(l))
			r, err := memprof.MeasureInChild(context.Background(), memprof.Child{Args: []string{"-test.run=^$"}}, k.BenchName(), "", memprof.N(1))
			if err != nil {
				t.Fatal(err)
			}
			blocks := setupBlocks(l, ts.G2Points)
			var want, slack int
			for _, b := range blocks {
				want += b
				slack += overhead(b)
			}
			if r.CHeapBytesPerInstance == nil {
				t.Fatalf("no C heap figure: %s", r.CHeapUnavailable)
			}
			got := int(*r.CHeapBytesPerInstance)
			if got < want || got > want+slack {
				t.Errorf("C heap: got %d B, want %d B in %d blocks plus at most %d B of glibc's overhead", got, want, len(blocks), slack)
			}
			t.Logf("precompute %d: C heap %d B = %d B in %d blocks + %d B overhead; built in %.2fs", l, got, want, len(blocks), got-want, r.BuildNs/1e9)
			// The handle is a pointer-free object under 16 bytes: the
			// tiny allocator serves it from a 16-byte block
			// (runtime._TinySize).
			const tinyBlock = 16
			if r.N != 1 || r.BuildNs <= 0 || r.BytesPerInstance > max(tinyBlock, kzgtest.Slot(t, unsafe.Sizeof(setup{}), false)) {
				t.Errorf("got N %d, build %v ns, %v B of Go heap; want N 1, a build time, and no more Go heap than the handle's block", r.N, r.BuildNs, r.BytesPerInstance)
			}
		})
	}
}
