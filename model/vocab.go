package model

import (
	"fmt"
	"slices"
	"strings"
)

// Type is the kind of object a case measures or an operation handles: a
// secret key, a public key, a signature, a raw curve point, or a whole
// structure of a real client (a scenario).
type Type string

// Lib names the crypto library that makes the objects.
type Lib string

// Repr names the form an object is kept in (affine, compressed, ...), or
// for a scenario the form of the whole structure (map-pointer, ...).
type Repr string

// Layout says how a case holds its instances: each its own heap object
// (pointer), all in one contiguous slice (slice), or in a structure built
// as a whole (collection).
type Layout string

// Scheme is the BLS signature scheme, which decides the group of a public
// key and of a signature: min-pk (keys in G1, signatures in G2, as
// Ethereum) or min-sig.
type Scheme string

// Op names an operation timed by throughput.
type Op string

// The types.
const (
	SecretKey       Type = "SecretKey"
	PublicKey       Type = "PublicKey"
	Signature       Type = "Signature"
	G1              Type = "G1"
	G2              Type = "G2"
	PubkeyCache     Type = "PubkeyCache"
	AttestationPool Type = "AttestationPool"
)

// The KZG types (EIP-4844 blobs and EIP-7594 cells; see KZGTypes).
const (
	Blob           Type = "Blob"           // a 131,072-byte blob
	Commitment     Type = "Commitment"     // a KZG commitment to a blob (a G1 point)
	Proof          Type = "Proof"          // a KZG proof (a G1 point)
	KZGCell        Type = "Cell"           // one of a blob's 128 cells of 2,048 bytes
	CellsAndProofs Type = "CellsAndProofs" // one blob's 128 cells and their 128 proofs
	KZGContext     Type = "KZGContext"     // a library's trusted setup and precomputed tables
	PeerDASNode    Type = "PeerDASNode"    // a node holding the cells and proofs of N blobs
)

// The libraries.
const (
	Blst  Lib = "blst"
	Gnark Lib = "gnark"
	Circl Lib = "circl"
	CKZG  Lib = "ckzg"  // github.com/ethereum/c-kzg-4844 (cgo, on blst)
	GoKZG Lib = "gokzg" // github.com/crate-crypto/go-eth-kzg (pure Go, on gnark-crypto)
)

// The representations of single objects.
const (
	Scalar       Repr = "scalar"
	Affine       Repr = "affine"
	Jacobian     Repr = "jacobian"
	Projective   Repr = "projective"
	Compressed   Repr = "compressed"
	Uncompressed Repr = "uncompressed"
)

// The forms of the scenario structures.
const (
	IndexSlice      Repr = "index-slice"
	MapPointer      Repr = "map-pointer"
	WrapperPointer  Repr = "wrapper-pointer"
	WrapperValue    Repr = "wrapper-value"
	SliceValue      Repr = "slice-value"
	SlicePointer    Repr = "slice-pointer"
	SliceCompressed Repr = "slice-compressed"
	MapRoot         Repr = "map-root"
)

// The representations of the KZG objects.
const (
	// ByteForm is the library's own byte-array type (a blob, a cell, a
	// commitment or proof as 48 bytes; for CellsAndProofs and
	// PeerDASNode, the form the library returns them in).
	ByteForm Repr = "bytes"
	// Decoded is the form a library decodes the bytes into, where it
	// exposes one: a commitment or proof as a G1 point, a blob as its
	// field elements; for KZGContext, the trusted setup decoded into the
	// library's points and tables.
	Decoded Repr = "decoded"
	// Packed is a pointer-free form of many cells and proofs: fixed-size
	// arrays in one contiguous slice.
	Packed Repr = "packed"
)

// The forms of the PubkeyCache shaped like clients' caches: a map to an
// interface value wrapping a pointer to the key (interface-map, the shape
// of Prysm's crypto/bls wrapper), and the same in an LRU cache (lru).
const (
	InterfaceMap Repr = "interface-map"
	LRU          Repr = "lru"
)

// The layouts.
const (
	Pointer    Layout = "pointer"
	Slice      Layout = "slice"
	Collection Layout = "collection"
	// Single is one object per process (a library's KZG context): built
	// once per pass, never warmed up, N is 1.
	Single Layout = "single"
)

// The schemes.
const (
	MinPk  Scheme = "min-pk"
	MinSig Scheme = "min-sig"
)

// The operations.
const (
	Compress            Op = "compress"              // encode a point to its compressed bytes
	Serialize           Op = "serialize"             // encode a point to its uncompressed bytes
	Decompress          Op = "decompress"            // decode compressed bytes, checking only that the point is on the curve
	DecompressChecked   Op = "decompress-checked"    // decode compressed bytes and check the subgroup
	ToAffine            Op = "to-affine"             // convert one Jacobian/projective point to affine
	ToAffineBatch       Op = "to-affine-batch"       // convert many points in one call
	Aggregate           Op = "aggregate"             // add many signatures or public keys
	Sign                Op = "sign"                  // sign a message
	Verify              Op = "verify"                // verify a signature
	FastAggregateVerify Op = "fast-aggregate-verify" // verify an aggregate signature of one message under many keys

	BlobToCommitment      Op = "blob-to-commitment"       // commit to a blob
	ComputeBlobProof      Op = "compute-blob-proof"       // compute a blob's KZG proof for its commitment
	VerifyBlobProof       Op = "verify-blob-proof"        // verify one blob's proof
	VerifyBlobProofBatch  Op = "verify-blob-proof-batch"  // verify the proofs of many blobs in one call
	ComputeCellsAndProofs Op = "compute-cells-and-proofs" // extend a blob to its 128 cells and their proofs
	VerifyCellProofBatch  Op = "verify-cell-proof-batch"  // verify many cells' proofs in one call
	RecoverCellsAndProofs Op = "recover-cells-and-proofs" // recover a blob's cells and proofs from half its cells
)

// The operations of the representations that trade memory for speed
// (issue 13): prepared G2 points, pairing contexts, multi-scalar
// multiplication scratch.
const (
	PairingCheck     Op = "pairing-check"      // check that a product of two pairings is one (a min-sig verification, message hashed beforehand)
	BatchVerify      Op = "batch-verify"       // verify many signatures of distinct messages at once, with random scalars
	PairingCtxVerify Op = "pairing-ctx-verify" // the same in one pairing context, on the calling goroutine
	MSM              Op = "msm"                // multi-scalar multiplication: the sum of scalar·point over many points
)

// Prepared is the representation of a G2 point kept with its Miller-loop
// lines precomputed (gnark-crypto's PrecomputeLines): memory bought for
// the speed of pairings with a fixed point.
const Prepared Repr = "prepared"

// The vocabulary, in the order tables list it. Names outside these lists
// sort after those in them.
var (
	Types   = []Type{SecretKey, PublicKey, Signature, G1, G2, PubkeyCache, AttestationPool, Blob, Commitment, Proof, KZGCell, CellsAndProofs, KZGContext, PeerDASNode}
	Libs    = []Lib{Blst, Gnark, Circl, CKZG, GoKZG}
	Reprs   = []Repr{Scalar, Affine, Jacobian, Projective, Compressed, Uncompressed, Prepared, IndexSlice, MapPointer, WrapperPointer, WrapperValue, SliceValue, SlicePointer, SliceCompressed, MapRoot, InterfaceMap, LRU, ByteForm, Decoded, Packed}
	Layouts = []Layout{Pointer, Slice, Collection, Single}
	Schemes = []Scheme{MinPk, MinSig}
	Ops     = []Op{Compress, Serialize, Decompress, DecompressChecked, ToAffine, ToAffineBatch, Aggregate, Sign, Verify, FastAggregateVerify, BatchVerify, PairingCtxVerify, PairingCheck, MSM,
		BlobToCommitment, ComputeBlobProof, VerifyBlobProof, VerifyBlobProofBatch, ComputeCellsAndProofs, VerifyCellProofBatch, RecoverCellsAndProofs}
)

// KZGTypes are the KZG types, the PeerDAS scenario included: what --type
// kzg selects. They are not among the ObjectTypes (--type all stays the
// BLS object matrix).
var KZGTypes = []Type{Blob, Commitment, Proof, KZGCell, CellsAndProofs, KZGContext, PeerDASNode}

// KZGOps are the KZG operations (every other operation is a BLS one).
var KZGOps = []Op{BlobToCommitment, ComputeBlobProof, VerifyBlobProof, VerifyBlobProofBatch, ComputeCellsAndProofs, VerifyCellProofBatch, RecoverCellsAndProofs}

// KZGLibs are the KZG libraries (the others are BLS ones).
var KZGLibs = []Lib{CKZG, GoKZG}

// IsKZG reports whether l is a KZG library.
func (l Lib) IsKZG() bool { return slices.Contains(KZGLibs, l) }

// IsKZG reports whether o is a KZG operation.
func (o Op) IsKZG() bool { return slices.Contains(KZGOps, o) }

// IsKZG reports whether t is a KZG type.
func (t Type) IsKZG() bool { return slices.Contains(KZGTypes, t) }

// Scenarios are the types that model a whole structure of a real client (a
// validator public-key cache, an attestation pool) rather than one object;
// their cases use the collection layout and their Repr names the form of
// the structure.
var Scenarios = []Type{PubkeyCache, AttestationPool}

// ObjectTypes are the single-object types: every type but the scenarios.
// They are what --type all selects.
var ObjectTypes = []Type{SecretKey, PublicKey, Signature, G1, G2}

// IsScenario reports whether t is a scenario type.
func (t Type) IsScenario() bool { return slices.Contains(Scenarios, t) }

// HasScheme reports whether the scheme decides t's group: true for public
// keys and signatures.
func (t Type) HasScheme() bool { return t == PublicKey || t == Signature }

// DefaultScheme is the scheme a key of type t has when its file or
// selection names none: MinPk for the types the scheme applies to, "" for
// the others.
func (t Type) DefaultScheme() Scheme {
	if t.HasScheme() {
		return MinPk
	}
	return ""
}

// Name is implemented by every vocabulary type.
type Name interface {
	~string
}

// Strings returns the names as plain strings, for messages and flag help.
func Strings[T Name](names []T) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = string(n)
	}
	return out
}

// Join joins names with ", ", for messages and flag help.
func Join[T Name](names []T) string { return strings.Join(Strings(names), ", ") }

// Known reports whether v is one of valid.
func Known[T Name](v T, valid []T) bool { return slices.Contains(valid, v) }

// Canonical returns the name in valid that equals v ignoring case, or an
// error naming what (type, lib, ...) and listing the valid names.
func Canonical[T Name](what, v string, valid []T) (T, error) {
	for _, s := range valid {
		if strings.EqualFold(string(s), v) {
			return s, nil
		}
	}
	return "", fmt.Errorf("unknown %s %q: valid %ss are %s", what, v, what, Join(valid))
}

// rank is v's position in list, or len(list) for a name not in it.
func rank[T Name](list []T, v T) int {
	if i := slices.Index(list, v); i >= 0 {
		return i
	}
	return len(list)
}

// cmpName orders two names: the empty name first, then by list, then
// names not in it alphabetically.
func cmpName[T Name](list []T, a, b T) int {
	switch {
	case a == b:
		return 0
	case a == "":
		return -1
	case b == "":
		return 1
	}
	if ra, rb := rank(list, a), rank(list, b); ra != rb {
		return ra - rb
	}
	return strings.Compare(string(a), string(b))
}
