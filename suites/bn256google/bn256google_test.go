package bn256google

import (
	"testing"

	bn256 "github.com/ethereum/go-ethereum/crypto/bn256/google"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites/internal/bn254kit"
	"github.com/memprof/memprof/suites/internal/bn254test"
	"github.com/memprof/memprof/suites/internal/suitetest"
	"github.com/memprof/memprof/vocab"
)

// TestSuite runs the BN254 suites' checks, then checks what a decoded
// point holds by construction: the wrapper and the hidden point, first,
// each in its slot, then the big.Ints and their words (each counted by
// the walker from the values' own capacities). A G1 point holds x, y, z
// and t; a G2 point two big.Ints for each of them.
func TestSuite(t *testing.T) {
	bn254test.CheckSuite(t, Suite(),
		bn254test.Holds{Type: vocab.BN254G1, Repr: vocab.Decoded, Check: decodedHolds(bn254kit.WrapperSize[bn256.G1](), bn254kit.HiddenSize[bn256.G1](), 4)},
		bn254test.Holds{Type: vocab.BN254G2, Repr: vocab.Decoded, Check: decodedHolds(bn254kit.WrapperSize[bn256.G2](), bn254kit.HiddenSize[bn256.G2](), 8)})
}

// decodedHolds is the check of a decoded point: the wrapper and the
// hidden point first, then at least bigInts objects of a big.Int's slot.
func decodedHolds(wrapper, point uintptr, bigInts int) func(*testing.T, results.Key, suitetest.Held) {
	return func(t *testing.T, k results.Key, h suitetest.Held) {
		t.Helper()
		bigSlot, err := suitetest.Slot(int64(bigIntSize), true)
		if err != nil {
			t.Fatal(err)
		}
		ws, _ := suitetest.Slot(int64(wrapper), true)
		ps, _ := suitetest.Slot(int64(point), true)
		if len(h.Sizes) < 2 || h.Sizes[0] != ws || h.Sizes[1] != ps {
			t.Errorf("%s: an instance holds %v; want the %d-byte wrapper (slot %d) and the %d-byte point (slot %d) first", k.Type, h.Sizes, wrapper, ws, point, ps)
		}
		n := 0
		for _, s := range h.Sizes {
			if s == bigSlot {
				n++
			}
		}
		if n < bigInts {
			t.Errorf("%s: an instance holds %d objects of a big.Int's slot (%d), want at least %d (%v)", k.Type, n, bigSlot, bigInts, h.Sizes)
		}
	}
}
