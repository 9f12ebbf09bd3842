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

// The libraries.
const (
	Blst  Lib = "blst"
	Gnark Lib = "gnark"
	Circl Lib = "circl"
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
)

// The vocabulary, in the order tables list it. Names outside these lists
// sort after those in them.
var (
	Types   = []Type{SecretKey, PublicKey, Signature, G1, G2, PubkeyCache, AttestationPool}
	Libs    = []Lib{Blst, Gnark, Circl}
	Reprs   = []Repr{Scalar, Affine, Jacobian, Projective, Compressed, Uncompressed, IndexSlice, MapPointer, WrapperPointer, WrapperValue, SliceValue, SlicePointer, SliceCompressed, MapRoot, InterfaceMap, LRU}
	Layouts = []Layout{Pointer, Slice, Collection}
	Schemes = []Scheme{MinPk, MinSig}
	Ops     = []Op{Compress, Serialize, Decompress, DecompressChecked, ToAffine, ToAffineBatch, Aggregate, Sign, Verify, FastAggregateVerify}
)

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
