package zzprobe
import (
 "testing"
 "encoding/json"
 "encoding/hex"
 "os"
 bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
 "github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
)
type V struct{ Name, Input, Expected string }
func g1(b []byte) (bls.G1Affine, bool) {
	var p bls.G1Affine
	p.X.SetBytes(b[16:64]); p.Y.SetBytes(b[80:128])
	return p, p.IsOnCurve()
}
func TestX(t *testing.T) {
	for _, f := range []string{"blsG1Add", "blsG1Mul", "blsPairing"} {
		var vs []V
		b, _ := os.ReadFile("../../fixtures/eip2537/" + f + ".json")
		json.Unmarshal(b, &vs)
		notSub, inf := 0, 0
		for _, v := range vs {
			in, _ := hex.DecodeString(v.Input)
			step := 256
			if f == "blsG1Mul" { step = 160 } else if f == "blsPairing" { step = 384 }
			for i := 0; i+128 <= len(in); i += step {
				p, _ := g1(in[i:i+128])
				if p.IsInfinity() { inf++ } else if !p.IsInSubGroup() { notSub++ }
				if f == "blsG1Add" { q, _ := g1(in[i+128:i+256]); if !q.IsInfinity() && !q.IsInSubGroup() { notSub++ } }
			}
		}
		t.Log(f, len(vs), "not in subgroup", notSub, "inf", inf)
	}
	_ = fp.Bytes
}
