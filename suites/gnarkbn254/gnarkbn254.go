// Package gnarkbn254 is gnark-crypto's BN254 suite (ecc/bn254, the lib
// gnark in the family bn254): affine and Jacobian points of G1 and G2,
// their compressed encodings (x and a flag for y: 32 and 64 bytes), the
// EIP-196/197 encodings, and G2 points prepared for pairings (the
// Miller-loop lines bn254.PrecomputeLines returns), with the operations
// on each and the multi-scalar multiplications. gnark-crypto's
// BLS12-381 suite is suites/gnark.
package gnarkbn254

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fp"

	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/bn254kit"
	"github.com/memprof/memprof/vocab"
)

// lib is the library name in the registry.
const lib = vocab.Gnark

// Module is gnark-crypto's module path, whose version results record.
const Module = "github.com/consensys/gnark-crypto"

// Lines is a prepared G2 point: what bn254.PrecomputeLines returns and
// bn254.PairingCheckFixedQ takes.
type Lines = [2][len(bn254.LoopCounter)]bn254.LineEvaluationAff

// Suite returns gnark-crypto's BN254 entries, operations and part of the
// BN254 agreement check.
func Suite() suites.Suite {
	c := Curve()
	agree := c.AgreeLib()
	agree.MSM = agreeMSM
	return c.Suite("gnark (bn254)", []string{Module}, agree, msmOps()...)
}

// flagBits are the two top bits of the first byte, where gnark-crypto's
// encodings keep their flags (compressed, infinity): EIP-196/197 has none,
// and a coordinate below the modulus never sets them.
const flagBits = 0b1100_0000

// errFlags refuses an EIP encoding whose first coordinate has
// gnark-crypto's flag bits set: SetBytes would read it as a compressed
// point (or the point at infinity) and ignore the rest.
var errFlags = errors.New("gnark: coordinate not below the field modulus (top bits set: SetBytes would read a compressed encoding)")

// unmarshal is SetBytes of an EIP encoding of size bytes, refusing the
// flag bits first.
func unmarshal[P interface{ SetBytes([]byte) (int, error) }](p P, enc []byte, size int) error {
	if len(enc) != size {
		return fmt.Errorf("gnark: %d bytes, want %d", len(enc), size)
	}
	if enc[0]&flagBits != 0 {
		return errFlags
	}
	_, err := p.SetBytes(enc)
	return err
}

// The groups: G1Affine and G2Affine.
var (
	g1 = &bn254kit.Group[bn254.G1Affine]{
		Type: vocab.BN254G1, Repr: vocab.Affine, Name: "bn254.G1Affine",
		Holds: "x and y, 32 bytes each in Montgomery form, no pointer",
		Unmarshal: suites.Offer("coordinates below the modulus and on the curve (G1 is the whole curve); encodings with gnark-crypto's flag bits refused first",
			unmarshalG1).Via("SetBytes"),
		Marshal: suites.Offer("(*G1Affine).RawBytes: gnark-crypto's uncompressed form, which is the EIP-196 encoding for every point",
			marshalG1).Via("RawBytes"),
		MarshalKept: "RawBytes returns an array by value, moved to the heap",
		Add: suites.Offer("(*G1Affine).Add: a Jacobian addition, then one inversion to affine",
			func(dst, a, b *bn254.G1Affine) { dst.Add(a, b) }).Via("Add"),
		ScalarMul: suites.Offer("(*G1Affine).ScalarMultiplication (GLV)",
			func(dst, a *bn254.G1Affine, k *big.Int) { dst.ScalarMultiplication(a, k) }).Via("ScalarMultiplication"),
		Values: bn254kit.DecodedPoints(vocab.BN254G1, "bn254.G1Affine", unmarshalG1),
	}
	g2 = &bn254kit.Group[bn254.G2Affine]{
		Type: vocab.BN254G2, Repr: vocab.Affine, Name: "bn254.G2Affine",
		Holds: "x and y in Fp², 64 bytes each in Montgomery form, no pointer",
		Unmarshal: suites.Offer("coordinates below the modulus, on the twist, in the subgroup; encodings with gnark-crypto's flag bits refused first",
			unmarshalG2).Via("SetBytes"),
		Marshal: suites.Offer("(*G2Affine).RawBytes: gnark-crypto's uncompressed form, which is the EIP-197 encoding for every point",
			marshalG2).Via("RawBytes"),
		MarshalKept: "RawBytes returns an array by value, moved to the heap",
		Add: suites.Offer("(*G2Affine).Add: a Jacobian addition, then one inversion to affine",
			func(dst, a, b *bn254.G2Affine) { dst.Add(a, b) }).Via("Add"),
		ScalarMul: suites.Offer("(*G2Affine).ScalarMultiplication (GLS)",
			func(dst, a *bn254.G2Affine, k *big.Int) { dst.ScalarMultiplication(a, k) }).Via("ScalarMultiplication"),
		Copy: &bn254kit.Copying[bn254.G2Affine]{Call: "a copy of the value",
			Why: "SetBytes's subgroup check, a multiplication by the group order, is too slow to make 100,000 instances; a G2Affine holds no pointer, so the copy is the object SetBytes sets",
			Set: func(dst, src *bn254.G2Affine) { *dst = *src }},
		Values: bn254kit.DecodedPoints(vocab.BN254G2, "bn254.G2Affine", unmarshalG2),
	}
)

func unmarshalG1(p *bn254.G1Affine, enc []byte) error { return unmarshal(p, enc, bn254kit.G1Size) }
func marshalG1(p *bn254.G1Affine) []byte              { b := p.RawBytes(); return b[:] }
func marshalG2(p *bn254.G2Affine) []byte              { b := p.RawBytes(); return b[:] }
func unmarshalG2(p *bn254.G2Affine, enc []byte) error { return unmarshal(p, enc, bn254kit.G2Size) }

// Curve is gnark-crypto's BN254 description.
func Curve() bn254kit.Curve[bn254.G1Affine, bn254.G2Affine] {
	return bn254kit.Curve[bn254.G1Affine, bn254.G2Affine]{
		Lib: lib, G1: g1, G2: g2,
		Pairing: suites.Offer("bn254.PairingCheck: the Miller loop computes each G2 point's lines as it goes, then one final exponentiation",
			func(g1s []bn254.G1Affine, g2s []bn254.G2Affine) func() (bool, error) {
				return func() (bool, error) {
					if len(g1s) == 0 {
						return true, nil // the product of no pairing is one; PairingCheck refuses empty input
					}
					return bn254.PairingCheck(g1s, g2s)
				}
			}).Via("PairingCheck"),
		Forms: []bn254kit.Form{
			&bn254kit.PointForm[bn254.G1Affine, bn254.G1Jac]{Group: g1, Repr: vocab.Jacobian, Name: "bn254.G1Jac",
				FromCall: "(*G1Jac).FromAffine (then scaled to Z = 2, as a computed point is)", From: jacobianG1,
				Marshal: suites.Offer("(*G1Affine).FromJacobian then RawBytes: gnark-crypto encodes only affine points",
					func(p *bn254.G1Jac) []byte { var a bn254.G1Affine; a.FromJacobian(p); b := a.RawBytes(); return b[:] }).Via("FromJacobian", "RawBytes"),
				Add: suites.Offer("(*G1Jac).Set then AddAssign: the sum stays Jacobian",
					func(dst, a, b *bn254.G1Jac) { dst.Set(a).AddAssign(b) }).Via("AddAssign"),
				ScalarMul: suites.Offer("(*G1Jac).ScalarMultiplication (GLV)",
					func(dst, a *bn254.G1Jac, k *big.Int) { dst.ScalarMultiplication(a, k) }).Via("ScalarMultiplication"),
			},
			&bn254kit.PointForm[bn254.G2Affine, bn254.G2Jac]{Group: g2, Repr: vocab.Jacobian, Name: "bn254.G2Jac",
				FromCall: "(*G2Jac).FromAffine (then scaled to Z = 2, as a computed point is)", From: jacobianG2,
				Marshal: suites.Offer("(*G2Affine).FromJacobian then RawBytes: gnark-crypto encodes only affine points",
					func(p *bn254.G2Jac) []byte { var a bn254.G2Affine; a.FromJacobian(p); b := a.RawBytes(); return b[:] }).Via("FromJacobian", "RawBytes"),
				Add: suites.Offer("(*G2Jac).Set then AddAssign: the sum stays Jacobian",
					func(dst, a, b *bn254.G2Jac) { dst.Set(a).AddAssign(b) }).Via("AddAssign"),
				ScalarMul: suites.Offer("(*G2Jac).ScalarMultiplication (GLS)",
					func(dst, a *bn254.G2Jac, k *big.Int) { dst.ScalarMultiplication(a, k) }).Via("ScalarMultiplication"),
			},
			&bn254kit.EncodingForm[bn254.G1Affine, [bn254.SizeOfG1AffineCompressed]byte]{Group: g1, Repr: vocab.Compressed,
				EncodeCall: "(*bn254.G1Affine).Bytes", Kept: "returned by value, moved to the heap",
				Encode: func(p *bn254.G1Affine) [bn254.SizeOfG1AffineCompressed]byte { return p.Bytes() },
				Unmarshal: suites.Offer("a square root for y, on the curve",
					func(p *bn254.G1Affine, enc []byte) error { _, err := p.SetBytes(enc); return err }).Via("SetBytes (compressed)"),
				Reject: rejectCompressedG1,
			},
			&bn254kit.EncodingForm[bn254.G2Affine, [bn254.SizeOfG2AffineCompressed]byte]{Group: g2, Repr: vocab.Compressed,
				EncodeCall: "(*bn254.G2Affine).Bytes", Kept: "returned by value, moved to the heap",
				Encode: func(p *bn254.G2Affine) [bn254.SizeOfG2AffineCompressed]byte { return p.Bytes() },
				Unmarshal: suites.Offer("a square root for y in Fp², on the twist, in the subgroup",
					func(p *bn254.G2Affine, enc []byte) error { _, err := p.SetBytes(enc); return err }).Via("SetBytes (compressed)"),
				Reject: rejectCompressedG2,
			},
			&bn254kit.PreparedForm[bn254.G1Affine, bn254.G2Affine, Lines]{G1: g1, G2: g2,
				Name: "Lines ([2][66]bn254.LineEvaluationAff)", PrepareCall: "bn254.PrecomputeLines",
				Prepare: func(q *bn254.G2Affine) Lines { return bn254.PrecomputeLines(*q) },
				Pairing: suites.Offer("bn254.PairingCheckFixedQ on a copy of the lines into reused scratch: MillerLoopFixedQ scales the lines it is given in place (gnark-crypto v0.22.0 pairing.go), so lines used twice are copied first",
					func(g1s []bn254.G1Affine, lines []Lines) func() (bool, error) {
						scratch := make([]Lines, len(lines))
						return func() (bool, error) {
							copy(scratch, lines)
							return bn254.PairingCheckFixedQ(g1s, scratch)
						}
					}).Via("copy of the lines", "PairingCheckFixedQ"),
				// PrecomputeLines takes tens of microseconds: N = 10,000
				// keeps a case to a second or two.
				DefaultN: 10_000,
				NWhy:     "each instance is a PrecomputeLines of its own, slow beside a copy: a smaller N keeps the case short",
			},
		},
		Lacks: func(typ vocab.Type, repr vocab.Repr) vocab.Why {
			if repr == vocab.Decoded {
				return vocab.Because(vocab.DoesNotApply, "does not apply: gnark-crypto's points are its affine and Jacobian types (decoded is a library's opaque point)")
			}
			return vocab.Why{}
		},
	}
}

// jacobianG1 sets dst to p in Jacobian coordinates with Z = 2 (X·4,
// Y·8): the same point, in the form a computation leaves it.
func jacobianG1(dst *bn254.G1Jac, p *bn254.G1Affine) {
	dst.FromAffine(p)
	if p.IsInfinity() {
		return
	}
	var two, four, eight fp.Element
	two.SetUint64(2)
	four.SetUint64(4)
	eight.SetUint64(8)
	dst.X.Mul(&dst.X, &four)
	dst.Y.Mul(&dst.Y, &eight)
	dst.Z.Mul(&dst.Z, &two)
}

// jacobianG2 is jacobianG1 in G2.
func jacobianG2(dst *bn254.G2Jac, p *bn254.G2Affine) {
	dst.FromAffine(p)
	if p.IsInfinity() {
		return
	}
	var two, four, eight fp.Element
	two.SetUint64(2)
	four.SetUint64(4)
	eight.SetUint64(8)
	dst.X.MulByElement(&dst.X, &four)
	dst.Y.MulByElement(&dst.Y, &eight)
	dst.Z.MulByElement(&dst.Z, &two)
}

// mCompressedSmallest is gnark-crypto's flag of a compressed encoding
// whose y is the lexicographically smaller root (its marshal.go).
const mCompressedSmallest = 0b10 << 6

// rejectCompressedG1 is a compressed G1 encoding SetBytes must reject: the
// least x ≥ 1 for which x³ + 3 has no square root, with the flag of a
// compressed point.
func rejectCompressedG1() []byte {
	var x, rhs, three fp.Element
	three.SetUint64(3)
	for v := uint64(1); ; v++ {
		x.SetUint64(v)
		rhs.Square(&x).Mul(&rhs, &x).Add(&rhs, &three)
		if rhs.Legendre() == -1 {
			b := x.Bytes()
			b[0] |= mCompressedSmallest
			return b[:]
		}
	}
}

// rejectCompressedG2 is a compressed G2 encoding SetBytes must reject: the
// least x = v (in Fp, a0 = v, a1 = 0) for which x³ + b' has no square root
// in Fp², b' = 3/(9+u) the twist's coefficient, with the flag of a
// compressed point.
func rejectCompressedG2() []byte {
	b := bn254kit.TwistCoefficient()
	var x, rhs bn254.E2
	for v := uint64(1); ; v++ {
		x.A0.SetUint64(v)
		rhs.Square(&x).Mul(&rhs, &x).Add(&rhs, &b)
		if rhs.Legendre() == -1 {
			out := make([]byte, bn254.SizeOfG2AffineCompressed)
			a1, a0 := x.A1.Bytes(), x.A0.Bytes()
			copy(out[:32], a1[:])
			copy(out[32:], a0[:])
			out[0] |= mCompressedSmallest
			return out
		}
	}
}
