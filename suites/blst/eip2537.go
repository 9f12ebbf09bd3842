//go:build cgo

package blst

import (
	"errors"
	"slices"

	blst "github.com/supranational/blst/bindings/go"

	"github.com/memprof/memprof/suites"
)

var (
	errDecode     = errors.New("blst: point does not deserialize (not on the curve, or a coordinate not below the modulus)")
	errNotInGroup = errors.New("blst: point not in the subgroup")
)

// eip2537 is blst's part of the EIP-2537 vectors: the additions, the G1
// scalar multiplication and the pairing check. The Go binding exports no
// map of a field element to the curve (only HashToG1 and EncodeToG1 of
// messages), so the maps are not offered.
func eip2537() suites.EIP2537 {
	return suites.EIP2537{
		G1Add: func(a, b []byte) ([]byte, error) {
			pa, pb := new(blst.P1Affine).Deserialize(a), new(blst.P1Affine).Deserialize(b)
			if pa == nil || pb == nil {
				return nil, errDecode
			}
			var s blst.P1
			s.FromAffine(pa)
			return s.AddAssign(pb).ToAffine().Serialize(), nil
		},
		G2Add: func(a, b []byte) ([]byte, error) {
			pa, pb := new(blst.P2Affine).Deserialize(a), new(blst.P2Affine).Deserialize(b)
			if pa == nil || pb == nil {
				return nil, errDecode
			}
			var s blst.P2
			s.FromAffine(pa)
			return s.AddAssign(pb).ToAffine().Serialize(), nil
		},
		G1Mul: func(pb, k []byte) ([]byte, error) {
			p := new(blst.P1Affine).Deserialize(pb)
			if p == nil {
				return nil, errDecode
			}
			if !p.InG1() {
				return nil, errNotInGroup
			}
			var j blst.P1
			j.FromAffine(p)
			le := slices.Clone(k) // blst takes the scalar little-endian
			slices.Reverse(le)
			return j.MultAssign(le, 8*len(le)).ToAffine().Serialize(), nil
		},
		PairingCheck: func(g1s, g2s [][]byte) (bool, error) {
			var ps []blst.P1Affine
			var qs []blst.P2Affine
			for i := range g1s {
				p, q := new(blst.P1Affine).Deserialize(g1s[i]), new(blst.P2Affine).Deserialize(g2s[i])
				if p == nil || q == nil {
					return false, errDecode
				}
				if !p.InG1() || !q.InG2() {
					return false, errNotInGroup
				}
				if isInfinity(g1s[i]) || isInfinity(g2s[i]) {
					continue // e(P, Q) is one
				}
				ps, qs = append(ps, *p), append(qs, *q)
			}
			if len(ps) == 0 {
				return true, nil
			}
			f := blst.Fp12MillerLoopN(qs, ps)
			f.FinalExp()
			one := blst.Fp12One()
			return f.Equals(&one), nil
		},
	}
}

// isInfinity reports whether enc is the ZCash encoding of the point at
// infinity.
func isInfinity(enc []byte) bool { return enc[0]&0x40 != 0 }
