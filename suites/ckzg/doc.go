// Package ckzg registers the KZG cases of
// github.com/ethereum/c-kzg-4844 (its Go binding, cgo, built on blst's C
// sources): blobs, commitments, proofs and cells in c-kzg's byte-array
// types, the PeerDAS scenario, the trusted-setup context at each
// precompute level of Levels, and the KZG operations at each level.
//
// c-kzg keeps one trusted setup per process, in C memory, and panics when
// a second is loaded: this package loads it once per process at the level
// asked for and refuses a different level while one is loaded. The
// instance cases run in child processes of their own; the operations of
// each level carry Op.Isolate, so that the workflows time them in a child
// process per level. Without cgo every entry and operation says why it is
// absent (vocab.NeedsCgo).
package ckzg
