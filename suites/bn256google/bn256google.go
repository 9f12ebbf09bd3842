// Package bn256google is the suite of go-ethereum's crypto/bn256/google
// (the lib bn256-google): the original math/big BN256 code, whose G1 and
// G2 are a struct{ p *curvePoint } and a struct{ p *twistPoint }, the
// hidden points made of *big.Int coordinates (four in G1; in G2 four
// *gfP2 of two each), so that a point is many small objects. It has
// addition and scalar multiplication in both groups (its G2 addition of
// a point to itself is wrong: the package's BUG note), the EIP-196/197
// encodings and the pairing check.
package bn256google

import (
	"fmt"
	"math/big"
	"unsafe"

	bn256 "github.com/ethereum/go-ethereum/crypto/bn256/google"

	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/bn254kit"
)

// lib is the library name in the registry.
const lib = model.BN256Google

// Module is go-ethereum's module path, whose version results record.
const Module = "github.com/ethereum/go-ethereum"

// G2DefaultN is the N of the G2 entries when the user gives none: each
// instance is a real Unmarshal (the package has no way to copy a G2
// point), whose subgroup check takes a few milliseconds.
const G2DefaultN = 256

// Suite returns the entries, operations and agreement library of
// go-ethereum's crypto/bn256/google.
func Suite() suites.Suite {
	c := Curve()
	return suites.Suite{
		Name:        string(lib),
		Modules:     []string{Module},
		Entries:     c.Entries(),
		Ops:         c.Ops(),
		FamilyAgree: []suites.FamilyAgreeLib{{Family: model.BN254, Lib: lib, Impl: c.AgreeLib()}},
	}
}

func unmarshalG1(p *bn256.G1, enc []byte) error { _, err := p.Unmarshal(enc); return err }
func unmarshalG2(p *bn256.G2, enc []byte) error { _, err := p.Unmarshal(enc); return err }

var bigIntSize = unsafe.Sizeof(big.Int{})

var (
	g1 = &bn254kit.Group[bn256.G1]{
		Type: model.BN254G1, Repr: model.Decoded, Name: "bn256.G1",
		Holds: fmt.Sprintf("the %d-byte wrapper, the %d-byte curvePoint it points to (four *big.Int: x, y, z, t) and each %d-byte big.Int with its words, all allocated by Unmarshal",
			bn254kit.WrapperSize[bn256.G1](), bn254kit.HiddenSize[bn256.G1](), bigIntSize),
		Unmarshal: suites.Offer("coordinates below the modulus and on the curve; 64 zero bytes the point at infinity",
			unmarshalG1).Via("Unmarshal"),
		Marshal:     suites.Offer("(*G1).Marshal: converts the point to affine in place, allocates the 64 bytes", (*bn256.G1).Marshal).Via("Marshal"),
		MarshalKept: "the library allocates the slice",
		Add:         suites.Offer("(*G1).Add (math/big arithmetic)", func(dst, a, b *bn256.G1) { dst.Add(a, b) }).Via("Add"),
		ScalarMul:   suites.Offer("(*G1).ScalarMult (math/big arithmetic)", func(dst, a *bn256.G1, k *big.Int) { dst.ScalarMult(a, k) }).Via("ScalarMult"),
		Values:      bn254kit.DecodedPoints(model.BN254G1, "bn256.G1", unmarshalG1),
	}
	g2 = &bn254kit.Group[bn256.G2]{
		Type: model.BN254G2, Repr: model.Decoded, Name: "bn256.G2",
		Holds: fmt.Sprintf("the %d-byte wrapper, the %d-byte twistPoint it points to (four *gfP2), each gfP2 (two *big.Int) and each big.Int with its words, all allocated by Unmarshal",
			bn254kit.WrapperSize[bn256.G2](), bn254kit.HiddenSize[bn256.G2]()),
		Unmarshal: suites.Offer("coordinates below the modulus, on the twist, in the subgroup (a scalar multiplication by the group order); 128 zero bytes the point at infinity",
			unmarshalG2).Via("Unmarshal"),
		Marshal:     suites.Offer("(*G2).Marshal: converts the point to affine in place, allocates the 128 bytes", (*bn256.G2).Marshal).Via("Marshal"),
		MarshalKept: "the library allocates the slice",
		Add: suites.Offer("(*G2).Add (math/big arithmetic; wrong for a point added to itself, the package's BUG note: the vectors add distinct points)",
			func(dst, a, b *bn256.G2) { dst.Add(a, b) }).Via("Add"),
		ScalarMul: suites.Offer("(*G2).ScalarMult (math/big arithmetic)", func(dst, a *bn256.G2, k *big.Int) { dst.ScalarMult(a, k) }).Via("ScalarMult"),
		DefaultN:  G2DefaultN,
		Values:    bn254kit.DecodedPoints(model.BN254G2, "bn256.G2", unmarshalG2),
	}
)

// Curve is go-ethereum's crypto/bn256/google described for the kit.
func Curve() bn254kit.Curve[bn256.G1, bn256.G2] {
	return bn254kit.Curve[bn256.G1, bn256.G2]{
		Lib: lib, G1: g1, G2: g2,
		Pairing: suites.Offer("bn256.PairingCheck([]*G1, []*G2): a Miller loop per pair in math/big arithmetic, one final exponentiation",
			func(g1s []bn256.G1, g2s []bn256.G2) func() (bool, error) {
				a, b := bn254kit.Pointers(g1s), bn254kit.Pointers(g2s)
				return func() (bool, error) { return bn256.PairingCheck(a, b), nil }
			}).Via("PairingCheck"),
		Lacks:    bn254kit.WrapperLacks(lib),
		MSMLacks: suites.NotOffered(lib, "no multi-scalar multiplication"),
	}
}
