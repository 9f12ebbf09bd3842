package gnark

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"sync"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
)

// opData is what the gnark operations start from, built once: the
// OpAggregateN keys (IETF KeyGen, see agree.go), public keys, signatures of
// suites.OpMessage, and their aggregates.
type opData struct {
	sks    []*big.Int
	pks    []bls12381.G1Affine
	sigs   []bls12381.G2Affine
	aggPK  bls12381.G1Affine
	aggSig bls12381.G2Affine
}

var opInputs = sync.OnceValues(func() (*opData, error) {
	d := &opData{}
	for i := range suites.OpAggregateN {
		skb, err := agreeKeyGen(suites.OpIKM(i))
		if err != nil {
			return nil, err
		}
		sk, err := agreeScalar(skb)
		if err != nil {
			return nil, err
		}
		var pk bls12381.G1Affine
		pk.ScalarMultiplicationBase(sk)
		sig, err := opSign(sk, suites.OpMessage)
		if err != nil {
			return nil, err
		}
		d.sks, d.pks, d.sigs = append(d.sks, sk), append(d.pks, pk), append(d.sigs, sig)
	}
	d.aggPK = opAggregateG1(d.pks)
	d.aggSig = opAggregateG2(d.sigs)
	return d, nil
})

// opSign is a min-pk BLS signature: sk·HashToG2(msg, DST). gnark-crypto
// has no signature scheme; this is the composition every user writes.
func opSign(sk *big.Int, msg []byte) (bls12381.G2Affine, error) {
	h, err := bls12381.HashToG2(msg, suites.OpDST)
	if err != nil {
		return bls12381.G2Affine{}, err
	}
	var sig bls12381.G2Affine
	sig.ScalarMultiplication(&h, sk)
	return sig, nil
}

// opVerify checks e(pk, H(msg)) · e(-g1, sig) == 1: hash to G2 and a
// two-pairing check, with no subgroup check (gnark's SetBytes has done it).
func opVerify(pk *bls12381.G1Affine, msg []byte, sig *bls12381.G2Affine) (bool, error) {
	h, err := bls12381.HashToG2(msg, suites.OpDST)
	if err != nil {
		return false, err
	}
	return bls12381.PairingCheck([]bls12381.G1Affine{*pk, opNegG1}, []bls12381.G2Affine{h, *sig})
}

var opNegG1 = func() bls12381.G1Affine {
	_, _, g1, _ := bls12381.Generators()
	var n bls12381.G1Affine
	n.Neg(&g1)
	return n
}()

// opAggregateG1 adds affine points into a Jacobian sum with mixed
// additions and converts the sum to affine once.
func opAggregateG1(ps []bls12381.G1Affine) bls12381.G1Affine {
	var acc bls12381.G1Jac
	acc.FromAffine(&ps[0])
	for i := 1; i < len(ps); i++ {
		acc.AddMixed(&ps[i])
	}
	var out bls12381.G1Affine
	out.FromJacobian(&acc)
	return out
}

func opAggregateG2(ps []bls12381.G2Affine) bls12381.G2Affine {
	var acc bls12381.G2Jac
	acc.FromAffine(&ps[0])
	for i := 1; i < len(ps); i++ {
		acc.AddMixed(&ps[i])
	}
	var out bls12381.G2Affine
	out.FromJacobian(&acc)
	return out
}

// opBatchG1 returns the Jacobian points P_i = (i+2)·G1 of the conversions.
func opBatchG1(n int) []bls12381.G1Jac {
	g1, _, _, _ := bls12381.Generators()
	out := make([]bls12381.G1Jac, n)
	for i := range out {
		out[i].ScalarMultiplication(&g1, new(big.Int).SetUint64(suites.OpBatchScalar(i)))
	}
	return out
}

func opBatchG2(n int) []bls12381.G2Jac {
	_, g2, _, _ := bls12381.Generators()
	out := make([]bls12381.G2Jac, n)
	for i := range out {
		out[i].ScalarMultiplication(&g2, new(big.Int).SetUint64(suites.OpBatchScalar(i)))
	}
	return out
}

func opFixtures() *fixtures.Ops {
	f, err := fixtures.Load()
	if err != nil {
		return &fixtures.Ops{}
	}
	return &f.Ops
}

// operations returns every gnark operation.
func operations() []suites.Op {
	const notOffered = "not offered by gnark"
	var list []suites.Op
	// G1 (public keys) and G2 (signatures) are written out twice: the
	// types differ and the code is the code a user would write.
	list = append(list,
		suites.Op{Key: model.Key{Type: "PublicKey", Lib: lib, Repr: "affine", Op: "compress", Batch: 1},
			Note: "(*G1Affine).Bytes: returns an array by value",
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				d, err := suites.ValidInputs(in, opInputs)
				if err != nil {
					return suites.OpHarness{}, err
				}
				var out [bls12381.SizeOfG1AffineCompressed]byte
				return suites.OpHarness{Run: func() error { out = d.aggPK.Bytes(); return nil }, Result: func() ([]byte, error) { return out[:], nil }}, nil
			}},
		suites.Op{Key: model.Key{Type: "PublicKey", Lib: lib, Repr: "affine", Op: "serialize", Batch: 1},
			Note: "(*G1Affine).RawBytes: returns an array by value",
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				d, err := suites.ValidInputs(in, opInputs)
				if err != nil {
					return suites.OpHarness{}, err
				}
				var out [bls12381.SizeOfG1AffineUncompressed]byte
				return suites.OpHarness{Run: func() error { out = d.aggPK.RawBytes(); return nil }, Result: func() ([]byte, error) { return out[:], nil }}, nil
			}},
		suites.Op{Key: model.Key{Type: "PublicKey", Lib: lib, Repr: "jacobian", Op: "compress", Batch: 1},
			Note: "(*G1Affine).FromJacobian then Bytes: gnark encodes only affine points",
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				d, err := suites.ValidInputs(in, opInputs)
				if err != nil {
					return suites.OpHarness{}, err
				}
				j := opJacobianSumG1(d.pks)
				var out [bls12381.SizeOfG1AffineCompressed]byte
				return suites.OpHarness{Run: func() error {
					var a bls12381.G1Affine
					a.FromJacobian(&j)
					out = a.Bytes()
					return nil
				}, Result: func() ([]byte, error) { return out[:], nil }}, nil
			}},
		suites.Op{Key: model.Key{Type: "PublicKey", Lib: lib, Repr: "compressed", Op: "decompress", Batch: 1},
			Note: "(*Decoder).Decode into a reused *G1Affine, from one decoder made with NoSubgroupChecks() over a reset bytes.Reader: the only gnark API that skips the subgroup check (on-curve only)",
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				d, err := opInputs()
				if err != nil {
					return suites.OpHarness{}, err
				}
				b := d.aggPK.Bytes()
				enc := b[:]
				if in.Invalid {
					enc = opFixtures().NotOnCurveG1
				}
				var p bls12381.G1Affine
				r := bytes.NewReader(enc)
				dec := bls12381.NewDecoder(r, bls12381.NoSubgroupChecks())
				return suites.OpHarness{
					Run: func() error {
						r.Reset(enc)
						return dec.Decode(&p)
					},
					Result: func() ([]byte, error) { b := p.Bytes(); return b[:], nil },
				}, nil
			}},
		suites.Op{Key: model.Key{Type: "PublicKey", Lib: lib, Repr: "compressed", Op: "decompress-checked", Batch: 1},
			Note: "(*G1Affine).SetBytes into a reused value: gnark's default decode always checks the subgroup",
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				d, err := opInputs()
				if err != nil {
					return suites.OpHarness{}, err
				}
				b := d.aggPK.Bytes()
				enc := b[:]
				if in.Invalid {
					enc = opFixtures().NotInSubgroupG1
				}
				var p bls12381.G1Affine
				return suites.OpHarness{
					Run:    func() error { _, err := p.SetBytes(enc); return err },
					Result: func() ([]byte, error) { b := p.Bytes(); return b[:], nil },
				}, nil
			}},
		suites.Op{Key: model.Key{Type: "PublicKey", Lib: lib, Repr: "affine", Op: "aggregate", Batch: suites.OpAggregateN},
			Note: fmt.Sprintf("(*G1Jac).AddMixed of %d affine points, then (*G1Affine).FromJacobian: one inversion", suites.OpAggregateN),
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				d, err := suites.ValidInputs(in, opInputs)
				if err != nil {
					return suites.OpHarness{}, err
				}
				var out bls12381.G1Affine
				return suites.OpHarness{Run: func() error { out = opAggregateG1(d.pks); return nil }, Result: func() ([]byte, error) { b := out.Bytes(); return b[:], nil }}, nil
			}},
		suites.Op{Key: model.Key{Type: "PublicKey", Lib: lib, Repr: "jacobian", Op: "aggregate", Batch: suites.OpAggregateN},
			Note: fmt.Sprintf("(*G1Jac).AddAssign over %d Jacobian points; the sum stays Jacobian", suites.OpAggregateN),
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				d, err := suites.ValidInputs(in, opInputs)
				if err != nil {
					return suites.OpHarness{}, err
				}
				js := make([]bls12381.G1Jac, len(d.pks))
				for i := range d.pks {
					js[i].FromAffine(&d.pks[i])
				}
				var acc bls12381.G1Jac
				return suites.OpHarness{
					Run: func() error {
						acc = js[0]
						for i := 1; i < len(js); i++ {
							acc.AddAssign(&js[i])
						}
						return nil
					},
					Result: func() ([]byte, error) {
						var a bls12381.G1Affine
						a.FromJacobian(&acc)
						b := a.Bytes()
						return b[:], nil
					},
				}, nil
			}},
		suites.Op{Key: model.Key{Type: "Signature", Lib: lib, Repr: "affine", Op: "compress", Batch: 1},
			Note: "(*G2Affine).Bytes: returns an array by value",
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				d, err := suites.ValidInputs(in, opInputs)
				if err != nil {
					return suites.OpHarness{}, err
				}
				var out [bls12381.SizeOfG2AffineCompressed]byte
				return suites.OpHarness{Run: func() error { out = d.aggSig.Bytes(); return nil }, Result: func() ([]byte, error) { return out[:], nil }}, nil
			}},
		suites.Op{Key: model.Key{Type: "Signature", Lib: lib, Repr: "affine", Op: "serialize", Batch: 1},
			Note: "(*G2Affine).RawBytes: returns an array by value",
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				d, err := suites.ValidInputs(in, opInputs)
				if err != nil {
					return suites.OpHarness{}, err
				}
				var out [bls12381.SizeOfG2AffineUncompressed]byte
				return suites.OpHarness{Run: func() error { out = d.aggSig.RawBytes(); return nil }, Result: func() ([]byte, error) { return out[:], nil }}, nil
			}},
		suites.Op{Key: model.Key{Type: "Signature", Lib: lib, Repr: "jacobian", Op: "compress", Batch: 1},
			Note: "(*G2Affine).FromJacobian then Bytes: gnark encodes only affine points",
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				d, err := suites.ValidInputs(in, opInputs)
				if err != nil {
					return suites.OpHarness{}, err
				}
				j := opJacobianSumG2(d.sigs)
				var out [bls12381.SizeOfG2AffineCompressed]byte
				return suites.OpHarness{Run: func() error {
					var a bls12381.G2Affine
					a.FromJacobian(&j)
					out = a.Bytes()
					return nil
				}, Result: func() ([]byte, error) { return out[:], nil }}, nil
			}},
		suites.Op{Key: model.Key{Type: "Signature", Lib: lib, Repr: "compressed", Op: "decompress", Batch: 1},
			Note: "(*Decoder).Decode into a reused *G2Affine, from one decoder made with NoSubgroupChecks() over a reset bytes.Reader: the only gnark API that skips the subgroup check (on-curve only)",
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				d, err := opInputs()
				if err != nil {
					return suites.OpHarness{}, err
				}
				b := d.aggSig.Bytes()
				enc := b[:]
				if in.Invalid {
					enc = opFixtures().NotOnCurveG2
				}
				var p bls12381.G2Affine
				r := bytes.NewReader(enc)
				dec := bls12381.NewDecoder(r, bls12381.NoSubgroupChecks())
				return suites.OpHarness{
					Run: func() error {
						r.Reset(enc)
						return dec.Decode(&p)
					},
					Result: func() ([]byte, error) { b := p.Bytes(); return b[:], nil },
				}, nil
			}},
		suites.Op{Key: model.Key{Type: "Signature", Lib: lib, Repr: "compressed", Op: "decompress-checked", Batch: 1},
			Note: "(*G2Affine).SetBytes into a reused value: gnark's default decode always checks the subgroup",
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				d, err := opInputs()
				if err != nil {
					return suites.OpHarness{}, err
				}
				b := d.aggSig.Bytes()
				enc := b[:]
				if in.Invalid {
					enc = opFixtures().NotInSubgroupG2
				}
				var p bls12381.G2Affine
				return suites.OpHarness{
					Run:    func() error { _, err := p.SetBytes(enc); return err },
					Result: func() ([]byte, error) { b := p.Bytes(); return b[:], nil },
				}, nil
			}},
		suites.Op{Key: model.Key{Type: "Signature", Lib: lib, Repr: "affine", Op: "aggregate", Batch: suites.OpAggregateN},
			Note: fmt.Sprintf("(*G2Jac).AddMixed of %d affine points, then (*G2Affine).FromJacobian: one inversion", suites.OpAggregateN),
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				d, err := suites.ValidInputs(in, opInputs)
				if err != nil {
					return suites.OpHarness{}, err
				}
				var out bls12381.G2Affine
				return suites.OpHarness{Run: func() error { out = opAggregateG2(d.sigs); return nil }, Result: func() ([]byte, error) { b := out.Bytes(); return b[:], nil }}, nil
			}},
		suites.Op{Key: model.Key{Type: "Signature", Lib: lib, Repr: "jacobian", Op: "aggregate", Batch: suites.OpAggregateN},
			Note: fmt.Sprintf("(*G2Jac).AddAssign over %d Jacobian points; the sum stays Jacobian", suites.OpAggregateN),
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				d, err := suites.ValidInputs(in, opInputs)
				if err != nil {
					return suites.OpHarness{}, err
				}
				js := make([]bls12381.G2Jac, len(d.sigs))
				for i := range d.sigs {
					js[i].FromAffine(&d.sigs[i])
				}
				var acc bls12381.G2Jac
				return suites.OpHarness{
					Run: func() error {
						acc = js[0]
						for i := 1; i < len(js); i++ {
							acc.AddAssign(&js[i])
						}
						return nil
					},
					Result: func() ([]byte, error) {
						var a bls12381.G2Affine
						a.FromJacobian(&acc)
						b := a.Bytes()
						return b[:], nil
					},
				}, nil
			}},
		suites.Op{Key: model.Key{Type: "Signature", Lib: lib, Repr: "affine", Op: "sign", Batch: 1},
			Note: "HashToG2 then (*G2Affine).ScalarMultiplication: gnark-crypto has no signature API, this is the composition",
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				d, err := suites.ValidInputs(in, opInputs)
				if err != nil {
					return suites.OpHarness{}, err
				}
				var sig bls12381.G2Affine
				return suites.OpHarness{
					Run: func() error {
						var err error
						sig, err = opSign(d.sks[0], suites.OpMessage)
						return err
					},
					Result: func() ([]byte, error) { b := sig.Bytes(); return b[:], nil },
				}, nil
			}},
		suites.Op{Key: model.Key{Type: "Signature", Lib: lib, Repr: "affine", Op: "verify", Batch: 1},
			Note: "HashToG2 then PairingCheck of two pairs: gnark-crypto has no signature API; no subgroup check here (SetBytes does it, timed in decompress-checked)",
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				d, err := opInputs()
				if err != nil {
					return suites.OpHarness{}, err
				}
				msg := suites.OpVerifyMessage(in)
				var ok bool
				return suites.OpHarness{
					Run: func() error {
						var err error
						ok, err = opVerify(&d.pks[0], msg, &d.sigs[0])
						if err != nil {
							return err
						}
						if !ok {
							return errors.New("gnark: signature did not verify")
						}
						return nil
					},
					Result: func() ([]byte, error) { return suites.OpBool(ok), nil },
				}, nil
			}},
		suites.Op{Key: model.Key{Type: "Signature", Lib: lib, Repr: "affine", Op: "fast-aggregate-verify", Batch: suites.OpAggregateN},
			Unavailable: model.Why{Kind: model.NotOffered, Reason: notOffered + ": gnark-crypto has no BLS signature scheme (verify is timed as HashToG2 plus PairingCheck)"}},
		suites.Op{Key: model.Key{Type: "G1", Lib: lib, Repr: "jacobian", Op: "to-affine", Batch: 1},
			Note: "(*G1Affine).FromJacobian into a reused value: one inversion",
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				if in.Invalid {
					return suites.OpHarness{}, suites.ErrNoInvalidInput
				}
				p := opBatchG1(1)
				var out bls12381.G1Affine
				return suites.OpHarness{Run: func() error { out.FromJacobian(&p[0]); return nil }, Result: func() ([]byte, error) { b := out.Bytes(); return b[:], nil }}, nil
			}},
		suites.Op{Key: model.Key{Type: "G2", Lib: lib, Repr: "jacobian", Op: "to-affine", Batch: 1},
			Note: "(*G2Affine).FromJacobian into a reused value: one inversion",
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				if in.Invalid {
					return suites.OpHarness{}, suites.ErrNoInvalidInput
				}
				p := opBatchG2(1)
				var out bls12381.G2Affine
				return suites.OpHarness{Run: func() error { out.FromJacobian(&p[0]); return nil }, Result: func() ([]byte, error) { b := out.Bytes(); return b[:], nil }}, nil
			}},
		suites.Op{Key: model.Key{Type: "G1", Lib: lib, Repr: "jacobian", Op: "to-affine-batch", Batch: suites.OpBatchN},
			Note: fmt.Sprintf("BatchJacobianToAffineG1 of %d points: one shared inversion (Montgomery's trick); returns a new slice; the last step runs on parallel.Execute goroutines", suites.OpBatchN),
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				if in.Invalid {
					return suites.OpHarness{}, suites.ErrNoInvalidInput
				}
				ps := opBatchG1(suites.OpBatchN)
				var out []bls12381.G1Affine
				return suites.OpHarness{
					Run: func() error { out = bls12381.BatchJacobianToAffineG1(ps); return nil },
					Result: func() ([]byte, error) {
						return suites.OpBatchHash(func(i int) []byte { b := out[i].Bytes(); return b[:] }, len(out)), nil
					},
				}, nil
			}},
		suites.Op{Key: model.Key{Type: "G2", Lib: lib, Repr: "jacobian", Op: "to-affine-batch", Batch: suites.OpBatchN},
			Unavailable: model.Why{Kind: model.NotOffered, Reason: notOffered + ": no batch conversion for G2 (BatchJacobianToAffineG1 exists for G1 only)"}},
	)
	return list
}

// opJacobianSumG1 adds points in Jacobian form: the result has Z != 1.
func opJacobianSumG1(ps []bls12381.G1Affine) bls12381.G1Jac {
	var acc bls12381.G1Jac
	acc.FromAffine(&ps[0])
	for i := 1; i < len(ps); i++ {
		acc.AddMixed(&ps[i])
	}
	return acc
}

func opJacobianSumG2(ps []bls12381.G2Affine) bls12381.G2Jac {
	var acc bls12381.G2Jac
	acc.FromAffine(&ps[0])
	for i := 1; i < len(ps); i++ {
		acc.AddMixed(&ps[i])
	}
	return acc
}

// agreeScalar decodes a 32-byte big-endian secret key, refusing values not
// below the group order.
func agreeScalar(b []byte) (*big.Int, error) {
	var e fr.Element
	if err := e.SetBytesCanonical(b); err != nil {
		return nil, fmt.Errorf("gnark: secret key %x: %w", b, err)
	}
	return e.BigInt(new(big.Int)), nil
}
