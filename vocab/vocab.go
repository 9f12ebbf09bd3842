// Package vocab is memprof's vocabulary: the typed names (Type, Lib,
// Repr, Scheme, Op) with the lists that give them their order (Types,
// Libs, ...); Family, from one table (family.go) that gives each type its
// family (Type.Family) and each family its libraries and operations; and
// Why with its Kind: why a combination was not measured, decided by kind,
// never by the text of the reason.
package vocab

import (
	"fmt"
	"slices"
	"strings"
)

// Type is the kind of object a case measures or an operation handles: a
// secret key, a public key, a signature, a raw curve point, or a whole
// structure of a real client (a scenario). Every type belongs to one
// family (Type.Family).
type Type string

// Lib names the crypto library that makes the objects.
type Lib string

// Repr names the form an object is kept in (affine, compressed, ...), or
// for a scenario the form of the whole structure (map-pointer, ...).
type Repr string

// Scheme is the BLS signature scheme, which decides the group of a
// BLS12-381 public key and signature (and of no other family's type): min-pk (keys in G1, signatures in G2, as
// Ethereum) or min-sig.
type Scheme string

// Op names an operation timed by throughput.
type Op string

// The types of BLS12-381 (the family BLS12381): keys and signatures of
// the BLS signature scheme, raw curve points, and the scenarios of a
// consensus client. These names predate the families and keep meaning
// BLS12-381's objects (--type Signature, budgets, bench names).
const (
	SecretKey       Type = "SecretKey"
	PublicKey       Type = "PublicKey"
	Signature       Type = "Signature"
	G1              Type = "G1"
	G2              Type = "G2"
	PubkeyCache     Type = "PubkeyCache"
	AttestationPool Type = "AttestationPool"
)

// The KZG types (the family KZG: EIP-4844 blobs and EIP-7594 cells; see
// KZGTypes).
const (
	Blob           Type = "Blob"           // a 131,072-byte blob
	Commitment     Type = "Commitment"     // a KZG commitment to a blob (a G1 point)
	Proof          Type = "Proof"          // a KZG proof (a G1 point)
	KZGCell        Type = "Cell"           // one of a blob's 128 cells of 2,048 bytes
	CellsAndProofs Type = "CellsAndProofs" // one blob's 128 cells and their 128 proofs
	KZGContext     Type = "KZGContext"     // a library's trusted setup and precomputed tables
	PeerDASNode    Type = "PeerDASNode"    // a node holding the cells and proofs of N blobs
)

// The libraries. A library that serves several families has one name in
// all of them (gnark is gnark-crypto's ecc/bls12-381 and its ecc/bn254;
// circl its ecc/bls12381 and its post-quantum packages): the family of
// the key's type tells them apart, so --lib gnark selects gnark-crypto in
// whatever family is selected.
const (
	Blst  Lib = "blst"  // github.com/supranational/blst (cgo)
	Gnark Lib = "gnark" // github.com/consensys/gnark-crypto (pure Go): ecc/bls12-381, ecc/bn254
	Circl Lib = "circl" // github.com/cloudflare/circl (pure Go): ecc/bls12381, sign/bls, kem/mlkem, sign/mldsa, sign/slhdsa
	CKZG  Lib = "ckzg"  // github.com/ethereum/c-kzg-4844 (cgo, on blst)
	GoKZG Lib = "gokzg" // github.com/crate-crypto/go-eth-kzg (pure Go, on gnark-crypto)

	// Libsecp256k1 is go-ethereum's crypto/secp256k1 (cgo, on the
	// libsecp256k1 source it vendors): the byte forms it computes and
	// takes (signatures, compressed and uncompressed keys, the secret
	// key's bytes) and their operations. Without cgo go-ethereum silently
	// falls back to decred, so its cases say they need cgo rather than
	// measure decred.
	Libsecp256k1 Lib = "libsecp256k1"
	// GoEthereum is go-ethereum's own pure-Go objects of secp256k1, which
	// libsecp256k1's C code never holds: the *ecdsa.PrivateKey and
	// *ecdsa.PublicKey of its crypto package, with math/big coordinates,
	// and the structures that keep them. Results written before it was
	// named label them libsecp256k1, a name that stays readable.
	GoEthereum Lib = "go-ethereum"
	Decred     Lib = "decred" // github.com/decred/dcrd/dcrec/secp256k1/v4 and its ecdsa package (pure Go)

	BN256Cloudflare Lib = "bn256-cloudflare" // go-ethereum's crypto/bn256/cloudflare (pure Go; points are struct{ p *curvePoint })
	BN256Google     Lib = "bn256-google"     // go-ethereum's crypto/bn256/google (pure Go; points are struct{ p *curvePoint })
	// BN256Gnark is go-ethereum's crypto/bn256/gnark, its wrapper over
	// gnark-crypto's ecc/bn254 that the precompiles use on amd64 and
	// arm64 (points held by value). gnark-crypto itself is Gnark.
	BN256Gnark Lib = "bn256-gnark"

	Stdlib       Lib = "stdlib"        // the Go standard library: crypto/mlkem (ML-KEM-768 and ML-KEM-1024)
	FilippoMLDSA Lib = "filippo-mldsa" // filippo.io/mldsa (pure Go)
)

// The types of secp256k1 (the family Secp256k1): ECDSA keys and
// signatures as execution clients hold them.
const (
	// Secp256k1SecretKey is a secp256k1 private key: 32 bytes, or a
	// library's object (*ecdsa.PrivateKey, decred's *PrivateKey).
	Secp256k1SecretKey Type = "Secp256k1SecretKey"
	// Secp256k1PublicKey is a secp256k1 public key: compressed (33 B),
	// uncompressed (65 B), a library's decoded point, or the 20-byte
	// Ethereum address derived from it.
	Secp256k1PublicKey Type = "Secp256k1PublicKey"
	// Secp256k1Signature is an ECDSA signature: R‖S‖V (65 B, V in {0, 1}),
	// R‖S (64 B), DER, or a library's decoded signature.
	Secp256k1Signature Type = "Secp256k1Signature"
	// SenderCache is the scenario of a cache of recovered senders keyed by
	// transaction hash (an indexer's, a builder's, a transaction pool's).
	SenderCache Type = "SenderCache"
)

// The types of BN254 (the family BN254), of provers and of the EIP-196/197
// precompiles.
const (
	BN254G1 Type = "BN254G1" // a point of BN254's G1
	BN254G2 Type = "BN254G2" // a point of BN254's G2
	// Groth16VerifyingKey is the scenario of a Groth16 verifying key's
	// fixed points (plain against prepared G2 points).
	Groth16VerifyingKey Type = "Groth16VerifyingKey"
)

// The post-quantum types (the families MLKEM, MLDSA and SLHDSA), named as
// FIPS 203, 204 and 205 name them. The parameter set is the key's Param,
// spelled as the standards spell it: set=ML-KEM-768, set=ML-DSA-65,
// set=SLH-DSA-SHA2-128s.
const (
	MLKEMDecapsulationKey Type = "MLKEMDecapsulationKey" // an ML-KEM decapsulation (private) key
	MLKEMEncapsulationKey Type = "MLKEMEncapsulationKey" // an ML-KEM encapsulation (public) key
	MLKEMCiphertext       Type = "MLKEMCiphertext"       // an ML-KEM ciphertext
	// TLSHandshakes is the scenario of a TLS client's handshakes in flight
	// under X25519MLKEM768: per handshake an ML-KEM-768 decapsulation key,
	// an X25519 private key and the hybrid key share it sent.
	TLSHandshakes Type = "TLSHandshakes"

	MLDSAPrivateKey Type = "MLDSAPrivateKey" // an ML-DSA private key
	MLDSAPublicKey  Type = "MLDSAPublicKey"  // an ML-DSA public key
	MLDSASignature  Type = "MLDSASignature"  // an ML-DSA signature
	// MLDSAPubkeyCache is the scenario of a cache of ML-DSA public keys (a
	// validator set, a certificate cache), packed against parsed.
	MLDSAPubkeyCache Type = "MLDSAPubkeyCache"

	SLHDSAPrivateKey Type = "SLHDSAPrivateKey" // an SLH-DSA private key
	SLHDSAPublicKey  Type = "SLHDSAPublicKey"  // an SLH-DSA public key
	SLHDSASignature  Type = "SLHDSASignature"  // an SLH-DSA signature
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

// The operations of the representations that trade memory for speed:
// prepared G2 points, pairing contexts, multi-scalar multiplication
// scratch.
const (
	PairingCheck     Op = "pairing-check"      // check that a product of two pairings is one (a min-sig verification, message hashed beforehand)
	BatchVerify      Op = "batch-verify"       // verify many signatures of distinct messages at once, with random scalars
	PairingCtxVerify Op = "pairing-ctx-verify" // the same in one pairing context, on the calling goroutine
	MSM              Op = "msm"                // multi-scalar multiplication: the sum of scalar·point over many points
)

// The operations of the BN254 points (EIP-196/197), which a family's row
// lists where they apply: the precompiles' addition and scalar
// multiplication, and the conversions between a library's point and the
// 64- and 128-byte encodings with their checks.
const (
	Add       Op = "add"        // add two points
	ScalarMul Op = "scalar-mul" // multiply a point by a scalar
	Marshal   Op = "marshal"    // encode a point to the EIP-196/197 encoding (x‖y, big-endian)
	Unmarshal Op = "unmarshal"  // decode an encoding with the library's checks (coordinates below the modulus, on the curve, in the subgroup)
)

// The operations of the post-quantum keys (ML-KEM, ML-DSA, SLH-DSA). An
// operation's Repr is the form its input is in: keygen starts from the
// seed, parse from the packed encoding, pack and to-seed from the parsed
// object; encapsulate, decapsulate, sign and verify from every form the
// library keeps, the conversions to the parsed object included in the
// timed call.
const (
	KeyGen      Op = "keygen"      // expand a seed into the library's key (FIPS 203, 204, 205 key generation)
	Parse       Op = "parse"       // decode the packed encoding of the standard into the library's object, with its checks
	Pack        Op = "pack"        // encode the library's object into the packed encoding of the standard
	ToSeed      Op = "to-seed"     // return the seed a parsed key was expanded from
	Encapsulate Op = "encapsulate" // make a shared key and its ciphertext for an encapsulation key (deterministic randomness)
	Decapsulate Op = "decapsulate" // recover the shared key of a ciphertext
)

// Prepared is the representation of a G2 point kept with its Miller-loop
// lines precomputed (gnark-crypto's PrecomputeLines): memory bought for
// the speed of pairings with a fixed point.
const Prepared Repr = "prepared"

// The representations of the secp256k1, BN254 and post-quantum objects
// that the names above do not already give (compressed, uncompressed,
// bytes, decoded, packed and prepared keep their meaning there).
const (
	Address Repr = "address" // the 20-byte Ethereum address of a secp256k1 public key
	RSV     Repr = "rsv"     // a 65-byte secp256k1 signature R‖S‖V, V in {0, 1} (Ethereum's)
	RS      Repr = "rs"      // a 64-byte secp256k1 signature R‖S
	DER     Repr = "der"     // an ASN.1 DER-encoded ECDSA signature
	// Seed is the seed a post-quantum key is expanded from (ML-KEM's
	// 64-byte d‖z, ML-DSA's 32-byte ξ).
	Seed Repr = "seed"
	// Parsed is a library's parsed object in the form it keeps, with what
	// it precomputes (a matrix, NTT-domain vectors, a hash of the key).
	Parsed Repr = "parsed"
)

// The forms of the SenderCache scenario that the names above do not give
// (map-pointer keeps its meaning: a map to a pointer to the library's
// public key).
const (
	MapAddress Repr = "map-address" // map[[32]byte][20]byte: the sender's address by transaction hash, pointer-free
	SigCache   Repr = "sigcache"    // go-ethereum's per-transaction form: each sender in a sigCache behind an atomic.Pointer
)

// The operations of the secp256k1 family beyond sign, verify, compress,
// serialize and decompress (which keep their meaning for its public keys).
const (
	Recover        Op = "recover"         // recover the public key from a hash and an R‖S‖V signature (ecrecover)
	RecoverAddress Op = "recover-address" // recover the signer's address, as the ecRecover precompile does
	ToAddress      Op = "to-address"      // derive a public key's 20-byte Ethereum address
	// Convert makes the representation its key's parameter names (to=der)
	// from the row's: a signature from DER to R‖S, a secret key from its
	// bytes to the library's object.
	Convert Op = "convert"
)

// The vocabulary, in the order tables list it. Names outside these lists
// sort after those in them. Types, Libs and Ops are the families' (the
// table in family.go), family by family, so that the rows of a family are
// adjacent.
var (
	Types   = union(func(f family) []Type { return f.types })
	Libs    = union(func(f family) []Lib { return f.libs })
	Reprs   = []Repr{Scalar, Affine, Jacobian, Projective, Compressed, Uncompressed, Prepared, IndexSlice, MapPointer, WrapperPointer, WrapperValue, SliceValue, SlicePointer, SliceCompressed, MapRoot, InterfaceMap, LRU, ByteForm, Decoded, Packed, Address, RSV, RS, DER, Seed, Parsed, MapAddress, SigCache}
	Schemes = []Scheme{MinPk, MinSig}
	Ops     = union(func(f family) []Op { return f.ops })
)

// KZGTypes are the KZG family's types, the PeerDAS scenario included:
// what --type kzg selects. They are not among the ObjectTypes (--type all
// stays the BLS object matrix).
var KZGTypes = KZG.Types()

// KZGOps are the KZG family's operations.
var KZGOps = KZG.Ops()

// Scenarios are BLS12-381's types that model a whole structure of a
// consensus client (a validator public-key cache, an attestation pool)
// rather than one object, measured at 1,000,000 validators: what --type
// scenarios selects. Their cases use the collection layout and their Repr
// names the form of the structure. Other families' scenarios (PeerDASNode,
// SenderCache, ...) are selected by their family or their name.
var Scenarios = []Type{PubkeyCache, AttestationPool}

// ObjectTypes are BLS12-381's single-object types: every type of the
// family but its scenarios. They are what --type all selects.
var ObjectTypes = []Type{SecretKey, PublicKey, Signature, G1, G2}

// IsScenario reports whether t is a scenario type.
func (t Type) IsScenario() bool { return slices.Contains(Scenarios, t) }

// HasScheme reports whether the scheme decides t's group: true for
// BLS12-381's public keys and signatures, and for no type of another
// family (a Secp256k1Signature has no min-pk).
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
func CompareName[T Name](list []T, a, b T) int {
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

// SchemeTypes are the types whose group the scheme decides (PublicKey and
// Signature).
func SchemeTypes() []Type {
	var out []Type
	for _, t := range Types {
		if t.HasScheme() {
			out = append(out, t)
		}
	}
	return out
}
