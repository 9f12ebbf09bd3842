// Package bn256cloudflare is the suite of go-ethereum's
// crypto/bn256/cloudflare (the lib bn256-cloudflare): Cloudflare's BN256
// code with assembly field arithmetic, whose G1 and G2 are a
// struct{ p *curvePoint } and a struct{ p *twistPoint }, so that a point
// is the wrapper and the hidden point it allocates. It has addition and
// scalar multiplication in both groups, the EIP-196/197 encodings and the
// pairing check.
package bn256cloudflare

import (
	"fmt"

	bn256 "github.com/ethereum/go-ethereum/crypto/bn256/cloudflare"

	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/bn254kit"
	"github.com/memprof/memprof/vocab"
)

// lib is the library name in the registry.
const lib = vocab.BN256Cloudflare

// Module is go-ethereum's module path, whose version results record.
const Module = "github.com/ethereum/go-ethereum"

// Suite returns the entries, operations and agreement library of
// go-ethereum's crypto/bn256/cloudflare.
func Suite() suites.Suite {
	c := Curve()
	return c.Suite(string(lib), []string{Module}, c.AgreeLib())
}

// unmarshalG2 is the G2 Unmarshal, for the test of the copies.
func unmarshalG2(p *bn256.G2, enc []byte) error { _, err := p.Unmarshal(enc); return err }

var (
	g1 = bn254kit.WrapperGroup[bn256.G1](bn254kit.Wrapper{Type: vocab.BN254G1, Name: "bn256.G1",
		Holds: fmt.Sprintf("the %d-byte wrapper and the %d-byte curvePoint it points to (x, y, z, t in Montgomery form), which Unmarshal allocates",
			bn254kit.WrapperSize[bn256.G1](), bn254kit.HiddenSize[bn256.G1]()),
		Checks:  "coordinates below the modulus and on the curve",
		AddNote: "(its curvePoint allocated on first use)"})
	g2 = func() *bn254kit.Group[bn256.G2] {
		g := bn254kit.WrapperGroup[bn256.G2](bn254kit.Wrapper{Type: vocab.BN254G2, Name: "bn256.G2",
			Holds: fmt.Sprintf("the %d-byte wrapper and the %d-byte twistPoint it points to (x, y, z, t in Fp², Montgomery form)",
				bn254kit.WrapperSize[bn256.G2](), bn254kit.HiddenSize[bn256.G2]()),
			Checks:  "coordinates below the modulus, on the twist, in the subgroup (a scalar multiplication by the group order)",
			AddNote: "(its twistPoint allocated on first use)"})
		g.Copy = &bn254kit.Copying[bn256.G2]{Call: "(*G2).Set",
			Why: "Unmarshal's subgroup check, a multiplication by the group order, is too slow to make 100,000 instances; Set allocates the same twistPoint and copies the coordinates",
			Set: func(dst, src *bn256.G2) { dst.Set(src) }}
		return g
	}()
)

// Curve is go-ethereum's crypto/bn256/cloudflare described for the kit.
func Curve() bn254kit.Curve[bn256.G1, bn256.G2] {
	return bn254kit.WrapperCurve(lib, g1, g2, "bn256.PairingCheck([]*G1, []*G2): a Miller loop per pair (each G2 point's lines computed as it goes), one final exponentiation",
		bn256.PairingCheck)
}
