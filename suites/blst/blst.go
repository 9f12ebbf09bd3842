//go:build cgo

package blst

import (
	"crypto/sha256"
	"fmt"
	"unsafe"

	blst "github.com/supranational/blst/bindings/go"

	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/suites"
)

// dstG2 is the Ethereum (min-pk) signature DST.
var dstG2 = []byte("BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_")

// distinct is how many distinct signatures are made for real; instance i
// is built from input i%distinct, so construction stays cheap at large N.
const distinct = 64

func init() {
	suites.Register(suites.Entry{
		Type: "Signature", Lib: "blst", Repr: "affine", Layout: "pointer", Scheme: "min-pk",
		Constructor: "(*blst.P2Affine).Deserialize of a signature made by Sign", SizeHint: unsafe.Sizeof(blst.P2Affine{}),
		Case: func() memprof.Case {
			var inputs [][]byte
			return memprof.Case{
				Prepare: func(int) error {
					for i := range distinct {
						ikm := sha256.Sum256([]byte(fmt.Sprint("memprof ikm ", i)))
						sk := blst.KeyGen(ikm[:])
						sig := new(blst.P2Affine).Sign(sk, []byte(fmt.Sprint("msg ", i)), dstG2)
						inputs = append(inputs, sig.Serialize())
					}
					return nil
				},
				New: func(i int) any { return new(blst.P2Affine).Deserialize(inputs[i%distinct]) },
			}
		},
	})
}
