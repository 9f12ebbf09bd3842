package vocab

import "slices"

// Family is a family of cryptographic objects that share a curve or a
// standard: BLS12-381 keys and signatures, KZG commitments, secp256k1
// ECDSA, BN254 points, and the post-quantum ML-KEM, ML-DSA and SLH-DSA.
// Every type belongs to one family (Type.Family); a library may serve
// several (gnark-crypto is a BLS12-381 and a BN254 library, circl a
// BLS12-381 and a post-quantum one), and its name is the same in each: the
// family of the type tells them apart.
type Family string

// The families, in the order of Families.
const (
	BLS12381  Family = "bls12-381" // BLS signatures on BLS12-381 (Ethereum consensus)
	KZG       Family = "kzg"       // KZG commitments of EIP-4844 blobs and EIP-7594 cells (on BLS12-381)
	Secp256k1 Family = "secp256k1" // ECDSA on secp256k1 (Ethereum execution)
	BN254     Family = "bn254"     // BN254 (alt_bn128) points of provers and the EIP-196/197 precompiles
	MLKEM     Family = "ml-kem"    // ML-KEM, FIPS 203
	MLDSA     Family = "ml-dsa"    // ML-DSA, FIPS 204
	SLHDSA    Family = "slh-dsa"   // SLH-DSA, FIPS 205
)

// String returns the family's name, as --type takes it.
func (f Family) String() string { return string(f) }

// family is one row of the table of families: its types, libraries and
// operations, each in the order tables list them.
type family struct {
	name  Family
	types []Type
	libs  []Lib
	ops   []Op
}

// families is the one table of the families. Types, Libs and Ops are the
// union of its rows in this order, so a name is added to the vocabulary by
// adding it to its family's row (and a constant for it).
var families = []family{
	{BLS12381,
		[]Type{SecretKey, PublicKey, Signature, G1, G2, PubkeyCache, AttestationPool},
		[]Lib{Blst, Gnark, Circl},
		[]Op{Compress, Serialize, Decompress, DecompressChecked, ToAffine, ToAffineBatch, Aggregate, Sign, Verify, FastAggregateVerify, BatchVerify, PairingCtxVerify, PairingCheck, MSM}},
	{KZG,
		[]Type{Blob, Commitment, Proof, KZGCell, CellsAndProofs, KZGContext, PeerDASNode},
		[]Lib{CKZG, GoKZG},
		[]Op{BlobToCommitment, ComputeBlobProof, VerifyBlobProof, VerifyBlobProofBatch, ComputeCellsAndProofs, VerifyCellProofBatch, RecoverCellsAndProofs}},
	{Secp256k1,
		[]Type{Secp256k1SecretKey, Secp256k1PublicKey, Secp256k1Signature, SenderCache},
		[]Lib{Libsecp256k1, GoEthereum, Decred},
		[]Op{Sign, Verify, Recover, RecoverAddress, Compress, Serialize, Decompress, ToAddress, Convert}},
	{BN254,
		[]Type{BN254G1, BN254G2, Groth16VerifyingKey},
		[]Lib{Gnark, BN256Cloudflare, BN256Google, BN256Gnark},
		[]Op{Add, ScalarMul, PairingCheck, MSM, Marshal, Unmarshal}},
	{MLKEM,
		[]Type{MLKEMDecapsulationKey, MLKEMEncapsulationKey, MLKEMCiphertext, TLSHandshakes},
		[]Lib{Stdlib, Circl},
		[]Op{KeyGen, Parse, Pack, ToSeed, Encapsulate, Decapsulate}},
	{MLDSA,
		[]Type{MLDSAPrivateKey, MLDSAPublicKey, MLDSASignature, MLDSAPubkeyCache},
		[]Lib{Circl, FilippoMLDSA},
		[]Op{KeyGen, Parse, Pack, ToSeed, Sign, Verify}},
	{SLHDSA,
		[]Type{SLHDSAPrivateKey, SLHDSAPublicKey, SLHDSASignature},
		[]Lib{Circl},
		[]Op{KeyGen, Parse, Pack, ToSeed, Sign, Verify}},
}

// Families are the families, in the order tables list them.
var Families = familyNames()

func familyNames() []Family {
	out := make([]Family, len(families))
	for i, f := range families {
		out[i] = f.name
	}
	return out
}

// union returns the names of every family's row, in table order, each
// once.
func union[T Name](of func(family) []T) []T {
	var out []T
	for _, f := range families {
		for _, n := range of(f) {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// row returns f's row of the table; ok is false for a name that is not a
// family.
func (f Family) row() (family, bool) {
	i := slices.IndexFunc(families, func(r family) bool { return r.name == f })
	if i < 0 {
		return family{}, false
	}
	return families[i], true
}

// Types returns f's types, in vocabulary order: what --type <family>
// selects. The slice is the caller's.
func (f Family) Types() []Type {
	r, _ := f.row()
	return slices.Clone(r.types)
}

// Libs returns the libraries that make f's objects, in vocabulary order.
// The slice is the caller's.
func (f Family) Libs() []Lib {
	r, _ := f.row()
	return slices.Clone(r.libs)
}

// Ops returns the operations of f's types, in vocabulary order. An
// operation's name may belong to several families (sign, verify): the
// type of its key decides which. The slice is the caller's.
func (f Family) Ops() []Op {
	r, _ := f.row()
	return slices.Clone(r.ops)
}

// HasLib reports whether l makes objects of f.
func (f Family) HasLib(l Lib) bool { r, _ := f.row(); return slices.Contains(r.libs, l) }

// HasOp reports whether o is an operation of f.
func (f Family) HasOp(o Op) bool { r, _ := f.row(); return slices.Contains(r.ops, o) }

// Family returns the family t belongs to, or "" for a name outside the
// vocabulary.
func (t Type) Family() Family {
	for _, f := range families {
		if slices.Contains(f.types, t) {
			return f.name
		}
	}
	return ""
}

// Families returns the families l makes objects of, in vocabulary order
// (none for a name outside the vocabulary).
func (l Lib) Families() []Family {
	var out []Family
	for _, f := range families {
		if slices.Contains(f.libs, l) {
			out = append(out, f.name)
		}
	}
	return out
}
