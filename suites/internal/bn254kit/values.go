package bn254kit

import (
	"crypto/sha256"
	"math/big"
	"strconv"
	"sync"

	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fp"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"

	"github.com/memprof/memprof/suites/internal/suitekit"
	"github.com/memprof/memprof/vocab"
)

// The sizes EIP-196 and EIP-197 fix.
const (
	CoordinateSize = 32                          // a field element, big-endian
	G1Size         = 2 * CoordinateSize          // x‖y
	G2Size         = 4 * CoordinateSize          // x.a1‖x.a0‖y.a1‖y.a0
	ScalarSize     = 32                          // a scalar of the scalar multiplication, big-endian
	PairSize       = G1Size + G2Size             // one pair of the pairing check
	AddInputSize   = 2 * G1Size                  // the addition's input
	MulInputSize   = G1Size + ScalarSize         // the scalar multiplication's input
	BoolSize       = 32                          // the pairing check's output: 1 or 0, big-endian
	msmSeed        = "memprof bn254 msm scalar " // MSMScalar's prefix
)

// Modulus is p, the modulus of BN254's base field, and Order r, the order
// of G1 and G2 (gnark-crypto's fp and fr moduli).
var (
	Modulus = fp.Modulus()
	Order   = fr.Modulus()
)

// Distinct is how many distinct points each suite makes instances of:
// instance i is point i % Distinct, as in the BLS12-381 suites.
const Distinct = suitekit.Distinct

// PointScalar returns k_i, the scalar of point i of the instances:
// SHA-256 of "memprof bn254 point <i>" modulo the group order. Point i of
// G1 is k_i·g1, of G2 k_i·g2.
func PointScalar(i int) *big.Int {
	h := sha256.Sum256([]byte("memprof bn254 point " + strconv.Itoa(i)))
	return new(big.Int).Mod(new(big.Int).SetBytes(h[:]), Order)
}

// MSMScalar returns s_i, scalar i of the multi-scalar multiplications:
// SHA-256 of "memprof bn254 msm scalar <i>" modulo the group order. Their
// points are P_i = (i+2)·generator, and fixtures.BN254MSMFile holds the
// results.
func MSMScalar(i int) *big.Int {
	h := sha256.Sum256([]byte(msmSeed + strconv.Itoa(i)))
	return new(big.Int).Mod(new(big.Int).SetBytes(h[:]), Order)
}

// MSMPointScalar returns i+2, the multiple of the generator that point i
// of the multi-scalar multiplications is.
func MSMPointScalar(i int) int64 { return int64(i) + 2 }

// Points returns the EIP-196/197 encodings of the Distinct points of typ
// (BN254G1 or BN254G2), computed once by gnark-crypto (the agreement
// check shows every library encodes them alike). The caller must not
// modify them.
func Points(typ vocab.Type) [][]byte {
	if typ == vocab.BN254G2 {
		return g2Points()
	}
	return g1Points()
}

var (
	g1Points = sync.OnceValue(encodedPoints[bn254.G1Affine](EncodeG1))
	g2Points = sync.OnceValue(encodedPoints[bn254.G2Affine](EncodeG2))
)

// encodedPoints returns the encodings of the Distinct points
// PointScalar(i) times the group's generator.
func encodedPoints[P any, PP interface {
	*P
	ScalarMultiplicationBase(*big.Int) *P
}](encode func(*P) []byte) func() [][]byte {
	return func() [][]byte {
		out := make([][]byte, Distinct)
		for i := range out {
			var p P
			PP(&p).ScalarMultiplicationBase(PointScalar(i))
			out[i] = encode(&p)
		}
		return out
	}
}

// EncodeG1 returns the EIP-196 encoding of a gnark-crypto point: x‖y,
// all zeros for the point at infinity.
func EncodeG1(p *bn254.G1Affine) []byte {
	out := make([]byte, G1Size)
	if p.IsInfinity() {
		return out
	}
	fp.BigEndian.PutElement((*[fp.Bytes]byte)(out[:32]), p.X)
	fp.BigEndian.PutElement((*[fp.Bytes]byte)(out[32:]), p.Y)
	return out
}

// EncodeG2 returns the EIP-197 encoding of a gnark-crypto point:
// x.a1‖x.a0‖y.a1‖y.a0, all zeros for the point at infinity.
func EncodeG2(p *bn254.G2Affine) []byte {
	out := make([]byte, G2Size)
	if p.IsInfinity() {
		return out
	}
	for i, e := range []*fp.Element{&p.X.A1, &p.X.A0, &p.Y.A1, &p.Y.A0} {
		fp.BigEndian.PutElement((*[fp.Bytes]byte)(out[32*i:32*i+32]), *e)
	}
	return out
}

// MSMPoints returns the EIP-196/197 encodings of the first n points of the
// multi-scalar multiplications of typ, P_i = (i+2)·generator, computed by
// gnark-crypto with additions.
func MSMPoints(typ vocab.Type, n int) [][]byte {
	_, _, g1, g2 := bn254.Generators()
	if typ == vocab.BN254G2 {
		return multiples[bn254.G2Affine, bn254.G2Jac](&g2, n, EncodeG2)
	}
	return multiples[bn254.G1Affine, bn254.G1Jac](&g1, n, EncodeG1)
}

// multiples returns the encodings of (i+2)·g for i below n, computed with
// additions in Jacobian coordinates.
func multiples[A, J any, PA interface {
	*A
	FromJacobian(*J) *A
}, PJ interface {
	*J
	FromAffine(*A) *J
	AddMixed(*A) *J
}](g *A, n int, encode func(*A) []byte) [][]byte {
	out := make([][]byte, n)
	var j J
	PJ(&j).FromAffine(g)
	for i := range out {
		PJ(&j).AddMixed(g)
		var a A
		PA(&a).FromJacobian(&j)
		out[i] = encode(&a)
	}
	return out
}

// TwistCoefficient returns b' = 3/(9+u), the coefficient of BN254's twist
// y² = x³ + b', on which G2 lies.
func TwistCoefficient() bn254.E2 {
	var b, nine bn254.E2
	b.A0.SetUint64(3)
	nine.A0.SetUint64(9)
	nine.A1.SetUint64(1)
	nine.Inverse(&nine)
	b.Mul(&b, &nine)
	return b
}
