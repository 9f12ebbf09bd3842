package gnark

import (
	"errors"
	"math/big"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"

	"github.com/memprof/memprof/suites"
)

// eip2537 is gnark-crypto's part of the EIP-2537 vectors: every operation
// of the precompiles, on the ZCash uncompressed encodings.
func eip2537() suites.EIP2537 {
	return suites.EIP2537{
		G1Add: func(a, b []byte) ([]byte, error) {
			return addOnCurve[bls12381.G1Affine, bls12381.G1Jac](a, b, (*bls12381.G1Affine).IsOnCurve,
				func(j *bls12381.G1Jac, p *bls12381.G1Affine) { j.FromAffine(p) }, (*bls12381.G1Jac).AddAssign,
				func(j *bls12381.G1Jac) []byte {
					var p bls12381.G1Affine
					p.FromJacobian(j)
					b := p.RawBytes()
					return b[:]
				})
		},
		G2Add: func(a, b []byte) ([]byte, error) {
			return addOnCurve[bls12381.G2Affine, bls12381.G2Jac](a, b, (*bls12381.G2Affine).IsOnCurve,
				func(j *bls12381.G2Jac, p *bls12381.G2Affine) { j.FromAffine(p) }, (*bls12381.G2Jac).AddAssign,
				func(j *bls12381.G2Jac) []byte {
					var p bls12381.G2Affine
					p.FromJacobian(j)
					b := p.RawBytes()
					return b[:]
				})
		},
		G1Mul: func(pb, k []byte) ([]byte, error) {
			var p bls12381.G1Affine
			if _, err := p.SetBytes(pb); err != nil {
				return nil, err
			}
			p.ScalarMultiplication(&p, new(big.Int).SetBytes(k))
			b := p.RawBytes()
			return b[:], nil
		},
		PairingCheck: func(g1s, g2s [][]byte) (bool, error) {
			ps, qs := make([]bls12381.G1Affine, len(g1s)), make([]bls12381.G2Affine, len(g2s))
			for i := range g1s {
				if _, err := ps[i].SetBytes(g1s[i]); err != nil {
					return false, err
				}
				if _, err := qs[i].SetBytes(g2s[i]); err != nil {
					return false, err
				}
			}
			return bls12381.PairingCheck(ps, qs)
		},
		MapG1: func(u []byte) ([]byte, error) {
			var e fp.Element
			if err := e.SetBytesCanonical(u); err != nil {
				return nil, err
			}
			p := bls12381.MapToG1(e)
			b := p.RawBytes()
			return b[:], nil
		},
		MapG2: func(u []byte) ([]byte, error) {
			var e bls12381.E2
			if err := e.A1.SetBytesCanonical(u[:fp.Bytes]); err != nil {
				return nil, err
			}
			if err := e.A0.SetBytesCanonical(u[fp.Bytes:]); err != nil {
				return nil, err
			}
			p := bls12381.MapToG2(e)
			b := p.RawBytes()
			return b[:], nil
		},
	}
}

var errNotOnCurve = errors.New("gnark: point not on the curve")

// addOnCurve decodes a and b with the one decoder that skips the subgroup
// check (which then checks nothing: the curve is checked after), and
// returns their sum encoded.
func addOnCurve[A, J any](a, b []byte, onCurve func(*A) bool, fromAffine func(*J, *A), add func(*J, *J) *J, encode func(*J) []byte) ([]byte, error) {
	var pa, pb A
	for _, d := range []struct {
		p   *A
		enc []byte
	}{{&pa, a}, {&pb, b}} {
		if err := noCheckDecoder(d.p, d.enc)(); err != nil {
			return nil, err
		}
		if !onCurve(d.p) {
			return nil, errNotOnCurve
		}
	}
	var ja, jb J
	fromAffine(&ja, &pa)
	fromAffine(&jb, &pb)
	return encode(add(&ja, &jb)), nil
}
