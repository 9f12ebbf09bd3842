package ckzg

import (
	"fmt"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/kzgkit"
	"github.com/memprof/memprof/vocab"
)

// lib is the library name in the registry.
const lib = vocab.CKZG

// Module is c-kzg's module path, whose version results record.
const Module = "github.com/ethereum/c-kzg-4844/v2"

// Levels are the precompute levels measured: c-kzg's
// load_trusted_setup(..., precompute) builds, for a level L > 0,
// fixed-base MSM tables of 2^(L-1) affine points per point of the FK20
// columns, which speed up computing cell proofs. 0 is no tables; 8 is
// where c-kzg's own documentation sees diminishing returns.
var Levels = []int{0, 6, 8}

// cgoReason is what every otherwise available c-kzg entry and operation
// says in a build without cgo.
var cgoReason = vocab.Because(vocab.NeedsCgo, "c-kzg needs cgo; this build has CGO_ENABLED=0")

// isolate is the isolation group of the operations at level l: one
// process per level (c-kzg holds one setup per process).
func isolate(l int) string { return fmt.Sprintf("%s/%s", lib, kzgkit.PrecomputeParam(l)) }

// keys are every c-kzg entry's key: the data matrix, the PeerDAS
// scenario and a context per level.
func keys() []results.Key {
	ks := append(kzgkit.DataKeys(lib), kzgkit.PeerDASKeys(lib)...)
	for _, l := range Levels {
		ks = append(ks, kzgkit.ContextKey(lib, kzgkit.PrecomputeParam(l)))
	}
	return ks
}

// lacks says why c-kzg has no such form, or nothing.
func lacks(k results.Key) vocab.Why {
	switch {
	case k.Repr == vocab.Decoded && k.Type != vocab.KZGContext:
		return kzgkit.NotOffered(lib, "c-kzg decodes blobs, commitments, proofs and cells inside each call and exposes no decoded type: its Go binding holds them as byte arrays (Blob, KZGCommitment, KZGProof, Cell)")
	case k.Type == vocab.PeerDASNode && k.Repr == vocab.Packed:
		return kzgkit.PackedOnce
	}
	return vocab.Why{}
}

// Suite returns c-kzg's entries, operations (at every level of Levels) and
// KZG agreement library. In a build without cgo every one says so.
func Suite() suites.Suite {
	var ops []suites.Op
	for _, l := range Levels {
		ops = append(ops, suites.KZGOps(impls(l))...)
	}
	return suites.Suite{
		Name:     string(lib),
		Modules:  []string{Module},
		Entries:  kzgkit.Entries(keys(), lacks, buildReason, entryImpls()),
		Ops:      ops,
		KZGAgree: []suites.KZGAgreeLib{agreeLib()},
	}
}
