package bn256google

import (
	"testing"

	bn256 "github.com/ethereum/go-ethereum/crypto/bn256/google"

	"github.com/memprof/memprof/suites/internal/bn254kit"
	"github.com/memprof/memprof/suites/internal/bn254test"
	"github.com/memprof/memprof/suites/internal/suitetest"
	"github.com/memprof/memprof/vocab"
)

// TestSuite runs the BN254 suites' checks, then checks what a decoded
// point holds by construction: the wrapper and the hidden point, first,
// each in its slot, then the big.Ints and their words (each counted by
// the walker from the values' own capacities).
func TestSuite(t *testing.T) {
	held := bn254test.CheckSuite(t, Suite())
	if held == nil {
		return // -run left the measurements out
	}
	bigSlot, err := suitetest.Slot(int64(bigIntSize), true)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		typ            vocab.Type
		wrapper, point uintptr
		bigInts        int // x, y, z, t; in G2 two per gfP2
	}{
		{vocab.BN254G1, bn254kit.WrapperSize[bn256.G1](), bn254kit.HiddenSize[bn256.G1](), 4},
		{vocab.BN254G2, bn254kit.WrapperSize[bn256.G2](), bn254kit.HiddenSize[bn256.G2](), 8},
	} {
		h, ok := held[bn254test.Pointer(lib, c.typ, vocab.Decoded)]
		if !ok {
			t.Errorf("%s: no decoded pointer entry measured", c.typ)
			continue
		}
		ws, _ := suitetest.Slot(int64(c.wrapper), true)
		ps, _ := suitetest.Slot(int64(c.point), true)
		if len(h.Sizes) < 2 || h.Sizes[0] != ws || h.Sizes[1] != ps {
			t.Errorf("%s: an instance holds %v; want the %d-byte wrapper (slot %d) and the %d-byte point (slot %d) first", c.typ, h.Sizes, c.wrapper, ws, c.point, ps)
		}
		n := 0
		for _, s := range h.Sizes {
			if s == bigSlot {
				n++
			}
		}
		if n < c.bigInts {
			t.Errorf("%s: an instance holds %d objects of a big.Int's slot (%d), want at least %d (%v)", c.typ, n, bigSlot, c.bigInts, h.Sizes)
		}
	}
}
