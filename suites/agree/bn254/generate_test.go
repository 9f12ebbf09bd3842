package bn254

import (
	"flag"
	"math/big"
	"path/filepath"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/internal/goldenfile"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/bn254kit"
)

var update = flag.Bool("update", false, "rewrite this project's BN254 vectors (fixtures/bn254/memprof-*.json)")

// TestMemprofVectorsFiles makes this project's BN254 vectors by the rules
// of EIP-196 and EIP-197, and the known results of the G2 arithmetic and
// the multi-scalar multiplications with gnark-crypto, and compares them
// with the committed files (-update rewrites them). The agreement check
// then requires every library to compute them.
func TestMemprofVectorsFiles(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "fixtures", "bn254")
	for _, f := range []struct {
		name    string
		vectors []fixtures.PrecompileVector
	}{
		{fixtures.BN254FailAddFile, failingAdd(t)},
		{fixtures.BN254FailScalarMulFile, failingScalarMul(t)},
		{fixtures.BN254FailPairingFile, failingPairing(t)},
		{fixtures.BN254G2File, g2Vectors()},
	} {
		b, err := fixtures.MarshalPrecompileFile(f.vectors)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fixtures.ParsePrecompileFile(f.name, b); err != nil {
			t.Fatalf("the generator makes a file the reader refuses: %v", err)
		}
		goldenfile.Check(t, filepath.Join(dir, f.name), b, *update)
	}
	b, err := fixtures.MarshalBN254MSM(msmFile())
	if err != nil {
		t.Fatal(err)
	}
	goldenfile.Check(t, filepath.Join(dir, fixtures.BN254MSMFile), b, *update)
}

// The errors the failing vectors expect, by the rule they break.
const (
	notOnCurve     = "invalid point: not on the curve"
	notBelowP      = "invalid point: a coordinate not below the field modulus"
	notInSubgroup  = "invalid point: G2 point not in the subgroup"
	pairingLength  = "bad elliptic curve pairing size"
	truncatedPoint = "invalid point: the input, padded with zeros as EIP-196 reads it, is not on the curve"
)

var (
	p      = bn254kit.Modulus
	one    = big.NewInt(1)
	two    = big.NewInt(2)
	topBit = new(big.Int).Lsh(one, 255) // gnark-crypto's "compressed" flag when set in x
	bit254 = new(big.Int).Lsh(one, 254) // gnark-crypto's "compressed infinity" flag
)

// coord is x as 32 bytes big-endian (x < 2^256).
func coord(x *big.Int) []byte { return x.FillBytes(make([]byte, 32)) }

// g1 is the encoding of (x, y), whatever they are.
func g1(x, y *big.Int) []byte { return append(coord(x), coord(y)...) }

func plus(a, b *big.Int) *big.Int { return new(big.Int).Add(a, b) }

// generators returns g1 = (1, 2) and g2 as encodings, and g2's
// coordinates as integers in the encoding's order (x.a1, x.a0, y.a1,
// y.a0).
func generators() (g1Enc, g2Enc []byte, g2Coords []*big.Int) {
	_, _, a1, a2 := bn254.Generators()
	g1Enc, g2Enc = bn254kit.EncodeG1(&a1), bn254kit.EncodeG2(&a2)
	for i := range 4 {
		g2Coords = append(g2Coords, new(big.Int).SetBytes(g2Enc[32*i:32*i+32]))
	}
	return g1Enc, g2Enc, g2Coords
}

func g2Of(c []*big.Int) []byte {
	var out []byte
	for _, x := range c {
		out = append(out, coord(x)...)
	}
	return out
}

// withCoord returns c with coordinate i replaced by x.
func withCoord(c []*big.Int, i int, x *big.Int) []*big.Int {
	out := append([]*big.Int(nil), c...)
	out[i] = x
	return out
}

func onCurveG1(t *testing.T, enc []byte) bool {
	t.Helper()
	var a bn254.G1Affine
	a.X.SetBytes(enc[:32])
	a.Y.SetBytes(enc[32:64])
	return a.IsOnCurve()
}

// failingAdd are inputs the addition precompile must reject.
func failingAdd(t *testing.T) []fixtures.PrecompileVector {
	gen, _, _ := generators()
	var twoG bn254.G1Affine
	twoG.ScalarMultiplicationBase(two)
	truncated := append(append([]byte{}, gen...), bn254kit.EncodeG1(&twoG)[:32]...)
	padded := make([]byte, bn254kit.AddInputSize)
	copy(padded, truncated)
	if onCurveG1(t, padded[64:]) {
		t.Fatal("the truncated addition input pads to a point on the curve")
	}
	if onCurveG1(t, g1(one, big.NewInt(3))) {
		t.Fatal("(1, 3) is on the curve")
	}
	return []fixtures.PrecompileVector{
		{Name: bn254kit.OpRejectG1, Input: append(g1(one, big.NewInt(3)), gen...), ExpectedError: notOnCurve},
		{Name: "memprof_g1_second_not_on_curve", Input: append(append([]byte{}, gen...), g1(one, big.NewInt(3))...), ExpectedError: notOnCurve},
		// (p+1, 2) is the generator if x is reduced modulo p.
		{Name: "memprof_g1_x_not_below_modulus", Input: append(g1(plus(p, one), two), gen...), ExpectedError: notBelowP},
		{Name: "memprof_g1_y_not_below_modulus", Input: append(g1(one, plus(p, two)), gen...), ExpectedError: notBelowP},
		{Name: "memprof_g1_x_equals_modulus", Input: append(g1(p, two), gen...), ExpectedError: notBelowP},
		// x with its top bit set: gnark-crypto's SetBytes would read the
		// first 32 bytes as a compressed point, the generator.
		{Name: "memprof_g1_x_top_bit", Input: append(g1(plus(topBit, one), two), gen...), ExpectedError: notBelowP},
		// x = 2^254: gnark-crypto's compressed point at infinity.
		{Name: "memprof_g1_x_infinity_flag", Input: append(g1(bit254, new(big.Int)), gen...), ExpectedError: notBelowP},
		{Name: "memprof_g1_truncated", Input: truncated, ExpectedError: truncatedPoint},
	}
}

// failingScalarMul are inputs the scalar multiplication precompile must
// reject.
func failingScalarMul(t *testing.T) []fixtures.PrecompileVector {
	gen, _, _ := generators()
	k := coord(big.NewInt(7))
	truncated := gen[:63] // y = 2 loses its last byte: (1, 0)
	if onCurveG1(t, append(append([]byte{}, truncated...), 0)) {
		t.Fatal("the truncated scalar multiplication input pads to a point on the curve")
	}
	return []fixtures.PrecompileVector{
		{Name: "memprof_g1mul_not_on_curve", Input: append(g1(one, big.NewInt(3)), k...), ExpectedError: notOnCurve},
		{Name: "memprof_g1mul_x_not_below_modulus", Input: append(g1(plus(p, one), two), k...), ExpectedError: notBelowP},
		{Name: "memprof_g1mul_y_not_below_modulus", Input: append(g1(one, plus(p, two)), k...), ExpectedError: notBelowP},
		{Name: "memprof_g1mul_x_top_bit", Input: append(g1(plus(topBit, one), two), k...), ExpectedError: notBelowP},
		{Name: "memprof_g1mul_truncated", Input: truncated, ExpectedError: truncatedPoint},
	}
}

// notInSubgroupG2 returns a point on the twist outside G2: the least
// x = v (a0 = v, a1 = 0) with x³ + b' a square in Fp², and one of its
// roots.
func notInSubgroupG2(t *testing.T) []byte {
	b := bn254kit.TwistCoefficient()
	for v := uint64(1); v < 1000; v++ {
		var q bn254.G2Affine
		q.X.A0.SetUint64(v)
		var rhs bn254.E2
		rhs.Square(&q.X).Mul(&rhs, &q.X).Add(&rhs, &b)
		if rhs.Legendre() != 1 {
			continue
		}
		q.Y.Sqrt(&rhs)
		if !q.IsOnCurve() {
			t.Fatalf("x = %d: the root does not give a point on the twist", v)
		}
		if !q.IsInSubGroup() {
			return bn254kit.EncodeG2(&q)
		}
	}
	t.Fatal("no point outside the subgroup among the first x")
	return nil
}

// failingPairing are inputs the pairing check precompile must reject.
func failingPairing(t *testing.T) []fixtures.PrecompileVector {
	gen1, gen2, c := generators()
	jeff1 := vector(t, fixtures.BN254PairingFile, bn254kit.OpPairingVector).Input
	pair := func(a, b []byte) []byte { return append(append([]byte{}, a...), b...) }
	offTwist := g2Of(withCoord(c, 3, plus(c[3], one)))
	return []fixtures.PrecompileVector{
		{Name: "memprof_pairing_truncated", Input: jeff1[:len(jeff1)-1], ExpectedError: pairingLength},
		{Name: "memprof_pairing_one_byte_short_of_a_pair", Input: pair(gen1, gen2)[:bn254kit.PairSize-1], ExpectedError: pairingLength},
		{Name: "memprof_pairing_extra_byte", Input: append(append([]byte{}, jeff1...), 0), ExpectedError: pairingLength},
		{Name: "memprof_pairing_g1_not_on_curve", Input: pair(g1(one, big.NewInt(3)), gen2), ExpectedError: notOnCurve},
		{Name: "memprof_pairing_g1_x_top_bit", Input: pair(g1(plus(topBit, one), two), gen2), ExpectedError: notBelowP},
		{Name: "memprof_g2_not_on_curve", Input: pair(gen1, offTwist), ExpectedError: notOnCurve},
		{Name: bn254kit.OpRejectG2, Input: pair(gen1, notInSubgroupG2(t)), ExpectedError: notInSubgroup},
		// The same point after a valid pair: every pair is checked.
		{Name: "memprof_g2_not_in_subgroup_second_pair", Input: pair(jeff1[:bn254kit.PairSize], pair(gen1, notInSubgroupG2(t))), ExpectedError: notInSubgroup},
		// x.a1 + p is g2's x.a1 if reduced modulo p.
		{Name: "memprof_g2_x_a1_not_below_modulus", Input: pair(gen1, g2Of(withCoord(c, 0, plus(c[0], p)))), ExpectedError: notBelowP},
		{Name: "memprof_g2_y_a0_not_below_modulus", Input: pair(gen1, g2Of(withCoord(c, 3, plus(c[3], p)))), ExpectedError: notBelowP},
		// x.a1 with its top bit set: gnark-crypto's SetBytes would read
		// the first 64 bytes as a compressed point.
		{Name: "memprof_g2_x_top_bit", Input: pair(gen1, g2Of(withCoord(c, 0, plus(c[0], topBit)))), ExpectedError: notBelowP},
	}
}

func vector(t *testing.T, file, name string) fixtures.PrecompileVector {
	t.Helper()
	f, err := fixtures.LoadPrecompileFile(fixtures.BN254Dir, file)
	if err != nil {
		t.Fatal(err)
	}
	v, err := f.MustVector(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// g2Vectors are G2 additions and scalar multiplications with gnark-crypto:
// a = k_0·g2 and b = k_1·g2 (bn254kit.PointScalar), k = k_2.
func g2Vectors() []fixtures.PrecompileVector {
	mul := func(q *bn254.G2Affine, k *big.Int) []byte {
		var r bn254.G2Affine
		r.ScalarMultiplication(q, k)
		return bn254kit.EncodeG2(&r)
	}
	var a, b, sum, negA bn254.G2Affine
	a.ScalarMultiplicationBase(bn254kit.PointScalar(0))
	b.ScalarMultiplicationBase(bn254kit.PointScalar(1))
	sum.Add(&a, &b)
	negA.Neg(&a)
	k := bn254kit.PointScalar(2)
	ea, eb, inf := bn254kit.EncodeG2(&a), bn254kit.EncodeG2(&b), make([]byte, bn254kit.G2Size)
	cat := func(x, y []byte) []byte { return append(append([]byte{}, x...), y...) }
	max256 := new(big.Int).Sub(new(big.Int).Lsh(one, 256), one)
	return []fixtures.PrecompileVector{
		{Name: bn254kit.OpG2AddVector, Input: cat(ea, eb), Expected: bn254kit.EncodeG2(&sum)},
		{Name: "memprof_g2add_p_inf", Input: cat(ea, inf), Expected: ea},
		{Name: "memprof_g2add_inf_q", Input: cat(inf, eb), Expected: eb},
		{Name: "memprof_g2add_p_neg_p", Input: cat(ea, bn254kit.EncodeG2(&negA)), Expected: inf},
		{Name: bn254kit.OpG2ScalarMulVector, Input: cat(ea, coord(k)), Expected: mul(&a, k)},
		{Name: "memprof_g2mul_p_0", Input: cat(ea, coord(new(big.Int))), Expected: inf},
		{Name: "memprof_g2mul_p_1", Input: cat(ea, coord(one)), Expected: ea},
		{Name: "memprof_g2mul_p_order", Input: cat(ea, coord(bn254kit.Order)), Expected: inf},
		{Name: "memprof_g2mul_p_k_plus_order", Input: cat(ea, coord(plus(k, bn254kit.Order))), Expected: mul(&a, k)},
		{Name: "memprof_g2mul_p_max", Input: cat(ea, coord(max256)), Expected: mul(&a, max256)},
		{Name: "memprof_g2mul_inf_k", Input: cat(inf, coord(k)), Expected: inf},
	}
}

// msmFile computes the known results of the multi-scalar multiplications
// as one scalar multiplication of each generator by Σ s_i·(i+2) mod r.
func msmFile() *fixtures.BN254MSM {
	m := &fixtures.BN254MSM{
		Comment:   "Known results of the BN254 multi-scalar multiplications: the sum of s_i·P_i over the first `points` points P_i = (i+2)·generator of G1 (g1) and G2 (g2), as EIP-196/197 encodings. Made by one scalar multiplication of the generator by the sum of s_i·(i+2) modulo the group order, not by a multi-scalar multiplication.",
		Generator: "go test ./suites/agree/bn254 -run TestMemprofVectorsFiles -update (gnark-crypto)",
		Scalars:   "s_i = SHA-256(\"memprof bn254 msm scalar <i>\") mod r, r the order of G1 and G2",
	}
	for _, n := range append([]int{naiveMSMSize}, suites.OpMSMSizes...) {
		k := new(big.Int)
		for i := range n {
			k.Add(k, new(big.Int).Mul(bn254kit.MSMScalar(i), big.NewInt(bn254kit.MSMPointScalar(i))))
		}
		k.Mod(k, bn254kit.Order)
		var a1 bn254.G1Affine
		var a2 bn254.G2Affine
		a1.ScalarMultiplicationBase(k)
		a2.ScalarMultiplicationBase(k)
		m.G1 = append(m.G1, fixtures.MSM{Points: n, Result: bn254kit.EncodeG1(&a1)})
		m.G2 = append(m.G2, fixtures.MSM{Points: n, Result: bn254kit.EncodeG2(&a2)})
	}
	return m
}
