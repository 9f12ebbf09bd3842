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
	bn254test.CheckSuite(t, Suite(),
		bn254test.Holds{Type: vocab.BN254G1, Repr: vocab.Decoded, Check: bn254test.Wrapper(bn254kit.WrapperSize[bn256.G1](), bn254kit.HiddenSize[bn256.G1]())},
		bn254test.Holds{Type: vocab.BN254G2, Repr: vocab.Decoded, Check: bn254test.Wrapper(bn254kit.WrapperSize[bn256.G2](), bn254kit.HiddenSize[bn256.G2]())})
}

// TestSetKeepsWhatUnmarshalKeeps: the G2 instances are made by Set from a
// point decoded beforehand; what one holds is what Unmarshal's holds.
func TestSetKeepsWhatUnmarshalKeeps(t *testing.T) {
	bn254test.CheckCopy(t, g2, unmarshalG2)
}
