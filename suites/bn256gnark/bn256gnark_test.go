package bn256gnark

import (
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254"
	bn256 "github.com/ethereum/go-ethereum/crypto/bn256/gnark"

	bn254agree "github.com/memprof/memprof/suites/agree/bn254"
	"github.com/memprof/memprof/suites/internal/bn254test"
	"github.com/memprof/memprof/suites/internal/suitekit"
	"github.com/memprof/memprof/suites/internal/suitetest"
	"github.com/memprof/memprof/vocab"
)

// TestSuite runs the BN254 suites' checks, then checks what a point holds
// by construction: one object, the wrapper holding gnark-crypto's affine
// point by value (its size that point's), in its slot.
func TestSuite(t *testing.T) {
	if g1, g2 := sizeof[bn256.G1](), sizeof[bn256.G2](); g1 != sizeof[bn254.G1Affine]() || g2 != sizeof[bn254.G2Affine]() {
		t.Errorf("sizeof G1 %d, G2 %d; want gnark-crypto's affine points' %d and %d", g1, g2, sizeof[bn254.G1Affine](), sizeof[bn254.G2Affine]())
	}
	bn254test.CheckSuite(t, Suite(),
		bn254test.Holds{Type: vocab.BN254G1, Repr: vocab.Affine, Check: bn254test.OneObject(sizeof[bn254.G1Affine]())},
		bn254test.Holds{Type: vocab.BN254G2, Repr: vocab.Affine, Check: bn254test.OneObject(sizeof[bn254.G2Affine]())})
}

// TestPrecompileVectors: go-ethereum's precompile vectors, and this
// project's, pass against bn256-gnark, go-ethereum's own BN254 package,
// built with this module's gnark-crypto rather than the version
// go-ethereum asks for.
func TestPrecompileVectors(t *testing.T) {
	suitetest.CheckAgree(t, bn254agree.CheckLibs, Curve().AgreeLib())
}

// TestCopyKeepsWhatUnmarshalKeeps: the G2 instances are copies of points
// decoded beforehand; what one holds is what Unmarshal's holds.
func TestCopyKeepsWhatUnmarshalKeeps(t *testing.T) { bn254test.CheckCopy(t, g2, unmarshalG2) }

func sizeof[T any]() uintptr { return suitekit.SizeOf[T]() }
