// Package kzgkit is what the two KZG suites (suites/ckzg, suites/gokzg)
// share: the matrix of KZG entries they must cover (the data types in the
// byte and decoded forms, the PeerDAS scenario, the contexts), the inputs
// that make their values identical (the blobs of fixtures/kzg-vectors.json
// and what the vectors say of them), and the builders of their cases.
//
// A suite describes how its library makes each available entry and why
// the others are absent; Entries turns that into one suites.Entry per key
// and panics if the two disagree, so that no combination is dropped
// silently.
package kzgkit

import (
	"fmt"
	"strconv"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// The KZG matrix.
var (
	// DataTypes are the objects a client holds many of; each is an entry
	// in every repr of DataReprs, in the pointer layout.
	DataTypes = []vocab.Type{vocab.Blob, vocab.Commitment, vocab.Proof, vocab.KZGCell, vocab.CellsAndProofs}
	DataReprs = []vocab.Repr{vocab.ByteForm, vocab.Decoded}
	// PeerDASBlobs are the sizes of the PeerDAS scenario: the blobs of one
	// block at a target of 6, at 72, and a custody window of 768.
	PeerDASBlobs = []int{6, 72, 768}
	// PeerDASReprs are its forms: as the library returns the cells and
	// proofs, and packed (pointer-free, one contiguous slice).
	PeerDASReprs = []vocab.Repr{vocab.ByteForm, vocab.Packed}
)

// The numbers of distinct values the data entries copy from: instance i is
// a copy of value i%n, so that construction stays cheap while every value
// is real.
const (
	// DistinctBlobs is how many vector blobs the Blob entries copy.
	DistinctBlobs = 4
	// CellBlobs is how many vector blobs the cell entries and the PeerDAS
	// scenario compute the cells and proofs of (a few: computing them
	// takes a large part of a second each); their instances hold copies.
	CellBlobs = 2
)

// BlobsParam is the parameter of a PeerDAS entry of n blobs.
func BlobsParam(n int) results.Param { return results.NewParam("blobs", n) }

// PrecomputeParam is the parameter of a c-kzg context or operation at
// precompute level l.
func PrecomputeParam(l int) results.Param { return results.NewParam("precompute", l) }

// DataKeys returns the keys of lib's data entries, in matrix order.
func DataKeys(lib vocab.Lib) []results.Key {
	var out []results.Key
	for _, t := range DataTypes {
		for _, r := range DataReprs {
			out = append(out, results.Key{Type: t, Lib: lib, Repr: r, Layout: measure.Pointer})
		}
	}
	return out
}

// PeerDASKeys returns the keys of lib's PeerDAS entries.
func PeerDASKeys(lib vocab.Lib) []results.Key {
	var out []results.Key
	for _, r := range PeerDASReprs {
		for _, n := range PeerDASBlobs {
			out = append(out, results.Key{Type: vocab.PeerDASNode, Lib: lib, Repr: r, Layout: measure.Collection, Param: BlobsParam(n)})
		}
	}
	return out
}

// ContextKey returns the key of lib's context at param ("" for a library
// with one setting).
func ContextKey(lib vocab.Lib, param results.Param) results.Key {
	return results.Key{Type: vocab.KZGContext, Lib: lib, Repr: vocab.Decoded, Layout: measure.Single, Param: param}
}

// fixedN is the N an entry of key k is always measured at: 1 for a
// context, the blobs of a PeerDAS entry, 0 (the user's N) otherwise.
func fixedN(k results.Key) int {
	switch {
	case k.Layout == measure.Single:
		return 1
	case k.Type == vocab.PeerDASNode:
		_, v := k.Param.Split()
		n, err := strconv.Atoi(v)
		if err != nil {
			panic(fmt.Sprintf("kzgkit: PeerDAS key %s has no blobs=N parameter", k))
		}
		return n
	}
	return 0
}

// Impl is how a suite makes one available entry.
type Impl struct {
	// Constructor is a short, honest sentence of how one instance is made.
	Constructor string
	// SizeHint is the bytes of one instance, for refusing an N that
	// cannot fit in memory.
	SizeHint uintptr
	// DefaultN, if not zero, is the N measured when the user gives none,
	// and NWhy why (suites.Entry.NWhy).
	DefaultN int
	NWhy     string
	// Case builds the case; called only when the entry is measured.
	Case func() memprof.Case
}

// Entries returns one entry per key: unavailable for lacks(key) when that
// is not zero (the library has no such form), else for build (this build
// cannot run the library), else made by impls[key]. It panics when an
// available key has no Impl or an Impl has no available key.
func Entries(keys []results.Key, lacks func(results.Key) vocab.Why, build vocab.Why, impls map[results.Key]Impl) []suites.Entry {
	return suites.EntriesOf("kzgkit", keys,
		func(k results.Key) suites.Entry { return suites.Entry{Key: k, FixedN: fixedN(k)} },
		func(k results.Key) vocab.Why {
			if why := lacks(k); !why.IsZero() {
				return why
			}
			return build
		},
		impls, func(e *suites.Entry, im Impl) {
			e.Constructor, e.SizeHint, e.DefaultN, e.NWhy, e.Case = im.Constructor, im.SizeHint, im.DefaultN, im.NWhy, im.Case
			if e.NWhy == "" && e.DefaultN != 0 {
				e.NWhy = nWhy[e.Type]
			}
		})
}

// nWhy is why a KZG type's entries have a DefaultN of their own, where
// their Impl does not say.
var nWhy = map[vocab.Type]string{
	vocab.Blob:           "a blob is 131,072 bytes: a smaller N keeps the case's memory modest",
	vocab.KZGCell:        "cells are 2,048 bytes each, copied from the cells of blobs computed beforehand: a smaller N keeps the case's memory modest",
	vocab.CellsAndProofs: "one blob's 128 cells and 128 proofs are over 256 KiB: a smaller N keeps the case's memory modest",
	vocab.Commitment:     "each instance is a decoding with its subgroup check, slow beside a copy: a smaller N keeps the case short",
	vocab.Proof:          "each instance is a decoding with its subgroup check, slow beside a copy: a smaller N keeps the case short",
}

// Copies is a pointer-layout case whose instance i is a new T holding a
// copy of value i%len of what load returns (computed once, in Prepare).
func Copies[T any](load func() ([]T, error)) memprof.Case {
	var vals []T
	return memprof.Case{
		Prepare: func(int) (err error) {
			vals, err = load()
			return err
		},
		New: func(i int) any {
			p := new(T)
			*p = vals[i%len(vals)]
			return p
		},
	}
}

// Made is a pointer-layout case whose instance i is what make returns for
// value i%len of what load returns (a library call that decodes or copies
// it into a new object).
func Made[V any](load func() ([]V, error), make func(v *V) any) memprof.Case {
	var vals []V
	return memprof.Case{
		Prepare: func(int) (err error) {
			vals, err = load()
			return err
		},
		New: func(i int) any { return make(&vals[i%len(vals)]) },
	}
}

// Blobs returns the first n vector blobs converted to the library's blob
// type.
func Blobs[B any](n int, convert func(*[fixtures.KZGBytesPerBlob]byte) B) ([]B, error) {
	v, err := fixtures.LoadKZGVectors()
	if err != nil {
		return nil, err
	}
	if len(v.Blobs) < n {
		return nil, fmt.Errorf("%s has %d blobs, want at least %d", fixtures.KZGVectorsFile, len(v.Blobs), n)
	}
	out := make([]B, n)
	for i := range out {
		out[i] = convert(v.Blob(i))
	}
	return out, nil
}

// Computed returns what compute makes (cells and proofs) of each of the
// first CellBlobs vector blobs, converted to the library's blob type B;
// library names the library in errors.
func Computed[B, T any](library string, convert func(*[fixtures.KZGBytesPerBlob]byte) B, compute func(b *B) (T, error)) ([]T, error) {
	blobs, err := Blobs(CellBlobs, convert)
	if err != nil {
		return nil, err
	}
	out := make([]T, len(blobs))
	for i := range blobs {
		if out[i], err = compute(&blobs[i]); err != nil {
			return nil, fmt.Errorf("%s: cells of %s: %w", library, fixtures.KZGBlobName(i), err)
		}
	}
	return out, nil
}

// CellsOf returns a loader of the cells of what load computes (cells
// reads one blob's, as values).
func CellsOf[T, C any](load func() ([]T, error), cells func(*T) []C) func() ([]C, error) {
	return func() ([]C, error) {
		bs, err := load()
		var out []C
		for i := range bs {
			out = append(out, cells(&bs[i])...)
		}
		return out, err
	}
}

// Points returns a loader of the vectors' commitments (proofs false) or
// blob proofs (proofs true) as the library's 48-byte type T.
func Points[T ~[fixtures.KZGBytesPerG1]byte](proofs bool) func() ([]T, error) {
	return func() ([]T, error) {
		v, err := fixtures.LoadKZGVectors()
		if err != nil {
			return nil, err
		}
		ps := make([][]byte, len(v.Blobs))
		for i, b := range v.Blobs {
			ps[i] = b.Commitment
			if proofs {
				ps[i] = b.Proof
			}
		}
		return G1s[T](ps), nil
	}
}

// G1s converts commitments or proofs of 48 bytes to the library's type.
func G1s[T ~[fixtures.KZGBytesPerG1]byte](in [][]byte) []T {
	out := make([]T, len(in))
	for i, b := range in {
		out[i] = T(b)
	}
	return out
}

// G1Bytes returns a copy of the bytes of a commitment or proof of the
// library's 48-byte type: the Result of the operations that make one.
func G1Bytes[T ~[fixtures.KZGBytesPerG1]byte](p *T) []byte {
	b := [fixtures.KZGBytesPerG1]byte(*p)
	return b[:]
}

// Cells converts cells to the library's cell type, by value.
func Cells[T ~[fixtures.KZGBytesPerCell]byte](in [][]byte) []T {
	out := make([]T, len(in))
	for i, c := range in {
		out[i] = T(c)
	}
	return out
}

// Context is the case of a library's context: prepare, once, readies the
// inputs (the trusted setup decoded from the embedded file, outside the
// measurement); build makes the context.
func Context(prepare func() error, build func() any) memprof.Case {
	return memprof.Case{
		Prepare: func(int) error { return prepare() },
		NewOne:  build,
	}
}

// Packed is one blob's cells and proofs in the pointer-free packed form
// of the PeerDAS scenario.
type Packed struct {
	Cells  [fixtures.KZGCellsPerBlob][fixtures.KZGBytesPerCell]byte
	Proofs [fixtures.KZGCellsPerBlob][fixtures.KZGBytesPerG1]byte
}

// PackedNode is the PeerDAS node of the packed form: the cells and proofs
// of n blobs in one slice sized for n up front.
func PackedNode(blobs []Packed, n int) any {
	node := make([]Packed, n)
	for j := range node {
		node[j] = blobs[j%len(blobs)]
	}
	return &node
}

// ReturnedNode is the PeerDAS node of the form a library returns: one T
// per blob (what the library's ComputeCellsAndKZGProofs returns, kept
// together), each made by clone from blob j%len, held by pointer in a
// slice grown one blob at a time.
func ReturnedNode[T any](blobs []T, n int, clone func(*T) *T) any {
	var node []*T
	for j := range n {
		node = append(node, clone(&blobs[j%len(blobs)]))
	}
	return &node
}

// PeerDASCase is the case of a PeerDAS entry: load computes the cells and
// proofs of CellBlobs vector blobs (in Prepare, outside the
// measurement), node builds the node of n blobs from them. sizeOf is the
// bytes of one blob's cells and proofs in this form.
func PeerDASCase[T any](load func() ([]T, error), node func(blobs []T, n int) any, sizeOf uintptr) memprof.Case {
	var blobs []T
	return memprof.Case{
		SizeOf: sizeOf,
		Prepare: func(int) (err error) {
			blobs, err = load()
			return err
		},
		NewAll: func(n int) any { return node(blobs, n) },
	}
}

// PeerDASConstructor is the constructor text of a PeerDAS entry: what the
// node holds (form), and that library computed the cells for a few vector
// blobs which the node holds copies of, so that the memory, not the
// computation, is measured.
func PeerDASConstructor(library, form string) string {
	return fmt.Sprintf("a node holding the cells and proofs of N blobs, %s; %s computed the cells and proofs of %d vector blobs and blob j holds a copy of blob j%%%d's (this scenario measures the memory held, not the computation)", form, library, CellBlobs, CellBlobs)
}

// PackedLib is the library under which the packed PeerDAS form is
// measured: the form holds plain byte arrays, the same whichever library
// computed them, so it is measured once, under the library every build
// has.
const PackedLib = vocab.GoKZG

// PackedOnce is why the other KZG libraries have no packed PeerDAS entry.
var PackedOnce = vocab.Because(vocab.DoesNotApply, "does not apply: the packed PeerDAS form holds plain byte arrays whatever library computed them, so it is measured once, under %s", PackedLib)

// NotOffered is the reason of an entry lib has no form for.
func NotOffered(lib vocab.Lib, format string, a ...any) vocab.Why {
	return suites.NotOffered(lib, format, a...)
}
