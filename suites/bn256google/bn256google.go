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

	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/bn254kit"
	"github.com/memprof/memprof/vocab"
)

// lib is the library name in the registry.
const lib = vocab.BN256Google

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
	return c.Suite(string(lib), []string{Module}, c.AgreeLib())
}

var bigIntSize = unsafe.Sizeof(big.Int{})

var (
	g1 = bn254kit.WrapperGroup[bn256.G1](bn254kit.Wrapper{Type: vocab.BN254G1, Name: "bn256.G1",
		Holds: fmt.Sprintf("the %d-byte wrapper, the %d-byte curvePoint it points to (four *big.Int: x, y, z, t) and each %d-byte big.Int with its words, all allocated by Unmarshal",
			bn254kit.WrapperSize[bn256.G1](), bn254kit.HiddenSize[bn256.G1](), bigIntSize),
		Checks:  "coordinates below the modulus and on the curve",
		AddNote: "(math/big arithmetic)", ScalarMulNote: "(math/big arithmetic)"})
	g2 = func() *bn254kit.Group[bn256.G2] {
		g := bn254kit.WrapperGroup[bn256.G2](bn254kit.Wrapper{Type: vocab.BN254G2, Name: "bn256.G2",
			Holds: fmt.Sprintf("the %d-byte wrapper, the %d-byte twistPoint it points to (four *gfP2), each gfP2 (two *big.Int) and each big.Int with its words, all allocated by Unmarshal",
				bn254kit.WrapperSize[bn256.G2](), bn254kit.HiddenSize[bn256.G2]()),
			Checks:        "coordinates below the modulus, on the twist, in the subgroup (a scalar multiplication by the group order)",
			AddNote:       "(math/big arithmetic; wrong for a point added to itself, the package's BUG note: the vectors add distinct points)",
			ScalarMulNote: "(math/big arithmetic)"})
		g.DefaultN = G2DefaultN
		g.NWhy = "each instance is a real Unmarshal with its subgroup check (the package cannot copy a G2 point), a scalar multiplication by the group order in math/big: a smaller N keeps the case short"
		return g
	}()
)

// Curve is go-ethereum's crypto/bn256/google described for the kit.
func Curve() bn254kit.Curve[bn256.G1, bn256.G2] {
	return bn254kit.WrapperCurve(lib, g1, g2, "bn256.PairingCheck([]*G1, []*G2): a Miller loop per pair in math/big arithmetic, one final exponentiation",
		bn256.PairingCheck)
}
