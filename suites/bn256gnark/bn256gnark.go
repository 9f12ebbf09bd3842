// Package bn256gnark is the suite of go-ethereum's crypto/bn256/gnark
// (the lib bn256-gnark), the BN254 package its precompiles use on amd64
// and arm64: a thin wrapper whose G1 and G2 hold gnark-crypto's affine
// points by value. It has G1 addition and scalar multiplication, the
// EIP-196/197 encodings and the pairing check; its G2 has no arithmetic.
package bn256gnark

import (
	"math/big"
	"strconv"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc/bn254"
	bn256 "github.com/ethereum/go-ethereum/crypto/bn256/gnark"

	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/bn254kit"
	"github.com/memprof/memprof/vocab"
)

// lib is the library name in the registry.
const lib = vocab.BN256Gnark

// Module is go-ethereum's module path, whose version results record.
const Module = "github.com/ethereum/go-ethereum"

// Suite returns the entries, operations and agreement library of
// go-ethereum's crypto/bn256/gnark.
func Suite() suites.Suite {
	c := Curve()
	return c.Suite(string(lib), []string{Module}, c.AgreeLib())
}

func unmarshalG1(p *bn256.G1, enc []byte) error { _, err := p.Unmarshal(enc); return err }
func unmarshalG2(p *bn256.G2, enc []byte) error { _, err := p.Unmarshal(enc); return err }

// noG2Arithmetic says why the G2 rows are missing.
var noG2Arithmetic = suites.NotOffered(lib, "go-ethereum's crypto/bn256/gnark G2 has no addition, scalar multiplication or negation: the precompiles only decode G2 points for the pairing check")

var (
	g1 = &bn254kit.Group[bn256.G1]{
		Type: vocab.BN254G1, Repr: vocab.Affine, Name: "bn256.G1",
		Holds: "a gnark-crypto G1Affine by value (" + sizeOf[bn254.G1Affine]() + " bytes), no pointer",
		Unmarshal: suites.Offer("coordinates below the modulus (SetBytesCanonical), on the curve and in the subgroup; 64 zero bytes the point at infinity",
			unmarshalG1).Via("Unmarshal"),
		Marshal:     suites.Offer("(*G1).Marshal: allocates the 64 bytes", (*bn256.G1).Marshal).Via("Marshal"),
		MarshalKept: "the library allocates the slice",
		Add:         suites.Offer("(*G1).Add: gnark-crypto's G1Affine.Add", func(dst, a, b *bn256.G1) { dst.Add(a, b) }).Via("Add"),
		ScalarMul: suites.Offer("(*G1).ScalarMult: gnark-crypto's G1Affine.ScalarMultiplication",
			func(dst, a *bn256.G1, k *big.Int) { dst.ScalarMult(a, k) }).Via("ScalarMult"),
		Values: bn254kit.DecodedPoints(vocab.BN254G1, "bn256.G1", unmarshalG1),
	}
	g2 = &bn254kit.Group[bn256.G2]{
		Type: vocab.BN254G2, Repr: vocab.Affine, Name: "bn256.G2",
		Holds: "a gnark-crypto G2Affine by value (" + sizeOf[bn254.G2Affine]() + " bytes), no pointer",
		Unmarshal: suites.Offer("coordinates below the modulus, on the twist and in the subgroup; 128 zero bytes the point at infinity",
			unmarshalG2).Via("Unmarshal"),
		Marshal:     suites.Offer("(*G2).Marshal: allocates the 128 bytes", (*bn256.G2).Marshal).Via("Marshal"),
		MarshalKept: "the library allocates the slice",
		Add:         suites.Impl[func(dst, a, b *bn256.G2)]{Lacks: noG2Arithmetic},
		ScalarMul:   suites.Impl[func(dst, a *bn256.G2, k *big.Int)]{Lacks: noG2Arithmetic},
		Copy: &bn254kit.Copying[bn256.G2]{Call: "a copy of the value",
			Why: "Unmarshal's subgroup check, a multiplication by the group order, is too slow to make 100,000 instances; a bn256.G2 holds no pointer, so the copy is the object Unmarshal sets",
			Set: func(dst, src *bn256.G2) { *dst = *src }},
		Values: bn254kit.DecodedPoints(vocab.BN254G2, "bn256.G2", unmarshalG2),
	}
)

// Curve is go-ethereum's crypto/bn256/gnark described for the kit.
func Curve() bn254kit.Curve[bn256.G1, bn256.G2] {
	return bn254kit.Curve[bn256.G1, bn256.G2]{
		Lib: lib, G1: g1, G2: g2,
		Pairing: suites.Offer("bn256.PairingCheck([]*G1, []*G2): copies the points into value slices, then gnark-crypto's PairingCheck (none: true)",
			func(g1s []bn256.G1, g2s []bn256.G2) func() (bool, error) {
				a, b := bn254kit.Pointers(g1s), bn254kit.Pointers(g2s)
				return func() (bool, error) { return bn256.PairingCheck(a, b), nil }
			}).Via("PairingCheck"),
		Lacks: func(typ vocab.Type, repr vocab.Repr) vocab.Why {
			switch repr {
			case vocab.Jacobian:
				return suites.NotOffered(lib, "go-ethereum's crypto/bn256/gnark keeps affine points only (its G1 and G2 hold gnark-crypto's G1Affine and G2Affine)")
			case vocab.Decoded:
				return vocab.Because(vocab.DoesNotApply, "does not apply: there is no decoded form apart from affine: the point holds a gnark-crypto affine point by value, listed as affine")
			case vocab.Compressed:
				return suites.NotOffered(lib, "Marshal writes the %s EIP-196/197 form only", map[vocab.Type]string{vocab.BN254G1: "64-byte", vocab.BN254G2: "128-byte"}[typ])
			case vocab.Prepared:
				return suites.NotOffered(lib, "PairingCheck takes the points; no prepared G2 form is exported")
			}
			return vocab.Why{}
		},
		MSMLacks: suites.NotOffered(lib, "no multi-scalar multiplication (the precompiles have none for BN254)"),
	}
}

func sizeOf[T any]() string {
	var zero T
	return strconv.Itoa(int(unsafe.Sizeof(zero)))
}
