package circl

import (
	GG "github.com/cloudflare/circl/ecc/bls12381"

	"github.com/memprof/memprof/suites"
)

// eip2537 is circl's part of the EIP-2537 vectors: the scalar
// multiplication and the pairing check. Its additions are not offered:
// circl decodes points only with the subgroup check (SetBytes), and
// EIP-2537's addition takes any point of the curve; it has no map of a
// field element to the curve (only Hash and Encode of messages).
func eip2537() suites.EIP2537 {
	return suites.EIP2537{
		G1Mul: func(pb, k []byte) ([]byte, error) {
			var p GG.G1
			if err := p.SetBytes(pb); err != nil {
				return nil, err
			}
			var s GG.Scalar
			s.SetBytes(k) // reduced modulo the order: k·p is the same for p in G1
			var out GG.G1
			out.ScalarMult(&s, &p)
			return out.Bytes(), nil
		},
		PairingCheck: func(g1s, g2s [][]byte) (bool, error) {
			var ps []*GG.G1
			var qs []*GG.G2
			var ones []*GG.Scalar
			for i := range g1s {
				p, q := new(GG.G1), new(GG.G2)
				if err := p.SetBytes(g1s[i]); err != nil {
					return false, err
				}
				if err := q.SetBytes(g2s[i]); err != nil {
					return false, err
				}
				if p.IsIdentity() || q.IsIdentity() {
					continue // e(P, Q) is one
				}
				one := new(GG.Scalar)
				one.SetOne()
				ps, qs, ones = append(ps, p), append(qs, q), append(ones, one)
			}
			if len(ps) == 0 {
				return true, nil
			}
			return GG.ProdPair(ps, qs, ones).IsIdentity(), nil
		},
	}
}
