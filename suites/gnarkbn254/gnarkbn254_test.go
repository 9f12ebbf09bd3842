package gnarkbn254

import (
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254"

	"github.com/memprof/memprof/suites/internal/bn254test"
	"github.com/memprof/memprof/suites/internal/suitekit"
	"github.com/memprof/memprof/vocab"
)

// TestSuite runs the BN254 suites' checks, then checks what each pointer
// instance holds by construction: one pointer-free object of the
// representation's size, in its slot (the size class; whole pages above
// 32 KiB), the sizes read from the types and from gnark-crypto's constants.
func TestSuite(t *testing.T) {
	var want []bn254test.Holds
	for _, c := range []struct {
		typ  vocab.Type
		repr vocab.Repr
		size uintptr
	}{
		{vocab.BN254G1, vocab.Affine, suitekit.SizeOf[bn254.G1Affine]()},
		{vocab.BN254G1, vocab.Jacobian, suitekit.SizeOf[bn254.G1Jac]()},
		{vocab.BN254G1, vocab.Compressed, bn254.SizeOfG1AffineCompressed},
		{vocab.BN254G1, vocab.Uncompressed, bn254.SizeOfG1AffineUncompressed},
		{vocab.BN254G2, vocab.Affine, suitekit.SizeOf[bn254.G2Affine]()},
		{vocab.BN254G2, vocab.Jacobian, suitekit.SizeOf[bn254.G2Jac]()},
		{vocab.BN254G2, vocab.Compressed, bn254.SizeOfG2AffineCompressed},
		{vocab.BN254G2, vocab.Uncompressed, bn254.SizeOfG2AffineUncompressed},
		{vocab.BN254G2, vocab.Prepared, suitekit.SizeOf[Lines]()},
	} {
		want = append(want, bn254test.Holds{Type: c.typ, Repr: c.repr, Check: bn254test.OneObject(c.size)})
	}
	bn254test.CheckSuite(t, Suite(), want...)
}

// TestCopyKeepsWhatUnmarshalKeeps: the G2 instances are copies of points
// decoded beforehand; what one holds is what SetBytes's holds.
func TestCopyKeepsWhatUnmarshalKeeps(t *testing.T) { bn254test.CheckCopy(t, g2, unmarshalG2) }

// TestFlagBitsGuard: the inputs whose top bits gnark-crypto reads as its
// flags are refused by the suite's decoding, while SetBytes alone would
// accept them as another point: the vectors that catch it
// (memprof_g1_x_top_bit, memprof_g1_x_infinity_flag) are not idle.
func TestFlagBitsGuard(t *testing.T) {
	_, _, g1Gen, _ := bn254.Generators()
	gen := g1Gen.RawBytes()
	for _, tt := range []struct {
		name string
		top  byte // the first byte of x
	}{{"compressed flag", 0x80}, {"infinity flag", 0x40}} {
		t.Run(tt.name, func(t *testing.T) {
			enc := append([]byte{}, gen[:]...)
			enc[0] = tt.top
			if tt.top == 0x40 {
				clear(enc[1:32]) // x = 2^254: the compressed point at infinity
			}
			var p bn254.G1Affine
			if _, err := p.SetBytes(enc); err != nil {
				t.Fatalf("SetBytes refuses the input (%v): the guard would be untested", err)
			}
			if err := unmarshalG1(&p, enc); err == nil {
				t.Errorf("the suite's decoding accepts x with its top bits %08b", tt.top)
			}
		})
	}
}
