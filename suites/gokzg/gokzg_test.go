package gokzg

import (
	"testing"
	"unsafe"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	goethkzg "github.com/crate-crypto/go-eth-kzg"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites/internal/kzgkit"
	"github.com/memprof/memprof/suites/internal/kzgtest"
	"github.com/memprof/memprof/suites/internal/suitetest"
	"github.com/memprof/memprof/vocab"
)

// TestConstants: the library's sizes are the EIP ones the fixtures use.
func TestConstants(t *testing.T) {
	kzgtest.CheckSizes(t, "go-eth-kzg", kzgtest.Sizes{Blob: int(unsafe.Sizeof(goethkzg.Blob{})), Cell: goethkzg.BytesPerCell,
		CellsPerBlob: goethkzg.CellsPerExtBlob, Commitment: int(unsafe.Sizeof(goethkzg.KZGCommitment{})), FieldElements: goethkzg.ScalarsPerBlob})
}

func key(t vocab.Type, r vocab.Repr) results.Key {
	return results.Key{Type: t, Lib: lib, Repr: r, Layout: measure.Pointer}
}

// TestSuite checks the matrix and the exact bytes of every data entry and
// of the PeerDAS node, from the library's types: a blob is one object of
// its unsafe.Sizeof in whole pages, a cell its 2,048 B size class, a
// decoded commitment a G1Affine, a blob's cells and proofs the returned
// struct (with its malloc header) and 128 cells.
func TestSuite(t *testing.T) {
	s := Suite()
	suitetest.CheckCoverage(t, s.Entries, keys(), kzgtest.CheckFixedN)
	slot := func(n uintptr, pointers bool) float64 { return kzgtest.Slot(t, n, pointers) }
	cells := slot(unsafe.Sizeof(blobCells{}), true) + goethkzg.CellsPerExtBlob*slot(unsafe.Sizeof(goethkzg.Cell{}), false)
	// A decoded blob is the slice DeserializeBlob returns: its header and
	// its elements, sized from the value itself.
	poly, err := goethkzg.DeserializeBlob(new(goethkzg.Blob))
	if err != nil {
		t.Fatal(err)
	}
	const nodeBlobs = 6
	// The node is a *[]*blobCells: the slice header's box and the
	// pointers' backing array, shared by the blobs.
	node := slot(unsafe.Sizeof(poly), true) + slot(uintptr(kzgtest.AppendedCap(nodeBlobs))*unsafe.Sizeof(&blobCells{}), true)
	packed := slot(nodeBlobs*unsafe.Sizeof(kzgkit.Packed{}), false) + slot(unsafe.Sizeof(poly), true)
	peerDAS := func(r vocab.Repr) results.Key {
		return results.Key{Type: vocab.PeerDASNode, Lib: lib, Repr: r, Layout: measure.Collection, Param: kzgkit.BlobsParam(nodeBlobs)}
	}
	kzgtest.CheckMeasurements(t, s, []kzgtest.Want{
		{Key: key(vocab.Blob, vocab.ByteForm), N: 20, Bytes: slot(unsafe.Sizeof(goethkzg.Blob{}), false), Objects: 1},
		{Key: key(vocab.Blob, vocab.Decoded), N: 20, Bytes: slot(unsafe.Sizeof(poly), true) + slot(uintptr(len(poly))*unsafe.Sizeof(poly[0]), false), Objects: 2},
		{Key: key(vocab.Commitment, vocab.ByteForm), N: 1000, Bytes: slot(unsafe.Sizeof(goethkzg.KZGCommitment{}), false), Objects: 1},
		{Key: key(vocab.Commitment, vocab.Decoded), N: 200, Bytes: slot(unsafe.Sizeof(bls12381.G1Affine{}), false), Objects: 1},
		{Key: key(vocab.Proof, vocab.ByteForm), N: 1000, Bytes: slot(unsafe.Sizeof(goethkzg.KZGProof{}), false), Objects: 1},
		{Key: key(vocab.Proof, vocab.Decoded), N: 200, Bytes: slot(unsafe.Sizeof(bls12381.G1Affine{}), false), Objects: 1},
		{Key: key(vocab.KZGCell, vocab.ByteForm), N: 200, Bytes: slot(unsafe.Sizeof(goethkzg.Cell{}), false), Objects: 1},
		{Key: key(vocab.CellsAndProofs, vocab.ByteForm), N: 10, Bytes: cells, Objects: 1 + goethkzg.CellsPerExtBlob},
		{Key: peerDAS(vocab.ByteForm), N: nodeBlobs, Bytes: cells + node/nodeBlobs, Objects: 1 + goethkzg.CellsPerExtBlob + 2.0/nodeBlobs},
		{Key: peerDAS(vocab.Packed), N: nodeBlobs, Bytes: packed / nodeBlobs, Objects: 2.0 / nodeBlobs},
	})
}

// TestContext measures the context in this process: one object built
// once per pass, holding at least the setup's points (4,096 G1 points in
// monomial and in Lagrange form, 65 G2 points) on the Go heap.
func TestContext(t *testing.T) {
	if !*kzgtest.AllContexts {
		t.Skip("builds two contexts, for seconds: run with -kzg.contexts (.ci/run does)")
	}
	r, _ := kzgtest.Measure(t, Suite(), kzgkit.ContextKey(lib, ""))
	setup, err := parsedSetup()
	if err != nil {
		t.Fatal(err)
	}
	least := float64(len(setup.SetupG1Monomial)+len(setup.SetupG1Lagrange))*float64(unsafe.Sizeof(bls12381.G1Affine{})) + float64(len(setup.SetupG2))*float64(unsafe.Sizeof(bls12381.G2Affine{}))
	if r.N != 1 || r.BuildNs <= 0 || r.BytesPerInstance < least {
		t.Errorf("got N %d, build %v ns, %v B; want N 1, a build time, and at least the setup's points, %v B", r.N, r.BuildNs, r.BytesPerInstance, least)
	}
	if r.SizeofBytes != int64(unsafe.Sizeof(goethkzg.Context{})) {
		t.Errorf("sizeof: got %d, want unsafe.Sizeof(goethkzg.Context{}) %d", r.SizeofBytes, unsafe.Sizeof(goethkzg.Context{}))
	}
}

// TestOps runs every operation once on valid inputs and once on inputs it
// must reject.
func TestOps(t *testing.T) { suitetest.CheckOps(t, Suite()) }
