package bn256cloudflare

import (
	"testing"

	bn256 "github.com/ethereum/go-ethereum/crypto/bn256/cloudflare"

	"github.com/memprof/memprof/suites/internal/bn254kit"
	"github.com/memprof/memprof/suites/internal/bn254test"
	"github.com/memprof/memprof/vocab"
)

// TestSuite runs the BN254 suites' checks, then checks what a decoded
// point holds by construction: the wrapper (one pointer) and the point it
// points to, whose size the type gives, each in its slot.
func TestSuite(t *testing.T) {
	held := bn254test.CheckSuite(t, Suite())
	if held == nil {
		return // -run left the measurements out
	}
	for _, c := range []struct {
		typ            vocab.Type
		wrapper, point uintptr
	}{
		{vocab.BN254G1, bn254kit.WrapperSize[bn256.G1](), bn254kit.HiddenSize[bn256.G1]()},
		{vocab.BN254G2, bn254kit.WrapperSize[bn256.G2](), bn254kit.HiddenSize[bn256.G2]()},
	} {
		h, ok := held[bn254test.Pointer(lib, c.typ, vocab.Decoded)]
		if !ok {
			t.Errorf("%s: no decoded pointer entry measured", c.typ)
			continue
		}
		bn254test.CheckWrapper(t, c.typ, h, c.wrapper, c.point)
	}
}

// TestSetKeepsWhatUnmarshalKeeps: the G2 instances are made by Set from a
// point decoded beforehand; what one holds is what Unmarshal's holds.
func TestSetKeepsWhatUnmarshalKeeps(t *testing.T) {
	bn254test.CheckCopy(t, g2, unmarshalG2)
}
