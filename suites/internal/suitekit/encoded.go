package suitekit

import _ "embed"

// The public keys and signatures of the suites' keys and messages
// (IKM(i), Message(i), DSTMinPk and DSTMinSig), in ZCash's encoding, as
// blst computes them: kept in encoded.bin, so that a process decodes
// them in microseconds where computing them (hashing to the curve, a
// scalar multiplication each) took a large share of a measuring child's
// fixed cost (notes/2026-12-06-session-3.md).
// suites/blst's TestEncodedValues computes them again and checks the
// file (-update writes it); TestSameValuesAsGnarkAndCircl checks them
// against what gnark-crypto and circl compute.
//
//go:generate go test ../../blst -run ^TestEncodedValues$ -update
//go:embed encoded.bin
var encoded []byte

// EncodedKind is a kind of value encoded.bin holds, Distinct of each.
type EncodedKind int

// The kinds, in the file's order.
const (
	// PublicKeyG1 are the min-pk public keys sk·g1.
	PublicKeyG1 EncodedKind = iota
	// PublicKeyG2 are the min-sig public keys sk·g2.
	PublicKeyG2
	// SignatureG2 are the min-pk signatures of Message(i) by key i.
	SignatureG2
	// SignatureG1 are the min-sig signatures of Message(i) by key i.
	SignatureG1
	// SignatureG2Compressed and SignatureG1Compressed are the same
	// signatures compressed, as a signature is sent.
	SignatureG2Compressed
	SignatureG1Compressed
	encodedKinds
)

// Size is the length of an encoded point of kind k: uncompressed 96
// bytes in G1 and 192 in G2, compressed half that.
func (k EncodedKind) Size() int {
	switch k {
	case PublicKeyG1, SignatureG1, SignatureG2Compressed:
		return 96
	case SignatureG1Compressed:
		return 48
	}
	return 192
}

// Encoded returns value i of kind k; it shares encoded.bin's memory
// (callers decode or copy it, never write it).
func Encoded(k EncodedKind, i int) []byte {
	off := 0
	for j := range k {
		off += Distinct * j.Size()
	}
	off += i * k.Size()
	return encoded[off : off+k.Size() : off+k.Size()]
}

// EncodeValues is the content of encoded.bin for value(k, i), the
// encoding of value i of kind k.
func EncodeValues(value func(k EncodedKind, i int) []byte) []byte {
	var out []byte
	for k := range encodedKinds {
		for i := range Distinct {
			out = append(out, value(k, i)...)
		}
	}
	return out
}
