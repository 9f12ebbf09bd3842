//go:build cgo

package blst

import (
	"errors"
	"fmt"
	"sync"

	blst "github.com/supranational/blst/bindings/go"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
)

// opData is what the blst operations start from, built once: the
// OpAggregateN keys, their public keys and their signatures of
// suites.OpMessage, and the aggregates.
type opData struct {
	sks    []*blst.SecretKey
	pks    []*blst.P1Affine
	sigs   []*blst.P2Affine
	aggPK  *blst.P1Affine
	aggSig *blst.P2Affine
}

var opInputs = sync.OnceValues(func() (*opData, error) {
	d := &opData{}
	for i := range suites.OpAggregateN {
		sk := blst.KeyGen(suites.OpIKM(i))
		if sk == nil {
			return nil, fmt.Errorf("blst KeyGen of op key %d failed", i)
		}
		d.sks = append(d.sks, sk)
		d.pks = append(d.pks, new(blst.P1Affine).From(sk))
		d.sigs = append(d.sigs, new(blst.P2Affine).Sign(sk, suites.OpMessage, suites.OpDST))
	}
	var ap blst.P1Aggregate
	var as blst.P2Aggregate
	if !ap.Aggregate(d.pks, false) || !as.Aggregate(d.sigs, false) {
		return nil, errors.New("blst aggregation of the op inputs failed")
	}
	d.aggPK, d.aggSig = ap.ToAffine(), as.ToAffine()
	return d, nil
})

// opErrRejected is what Run returns when blst rejects the input.
var opErrRejected = errors.New("blst rejected the input")

func opOkOr(ok bool, err error) error {
	if ok {
		return nil
	}
	return err
}

// opBatchP1 returns the Jacobian points P_i = (i+2)·G1 of the conversions.
func opBatchP1(n int) []blst.P1 {
	out := make([]blst.P1, n)
	for i := range out {
		out[i] = *blst.P1Generator().Mult(opScalar(suites.OpBatchScalar(i)))
	}
	return out
}

func opBatchP2(n int) []blst.P2 {
	out := make([]blst.P2, n)
	for i := range out {
		out[i] = *blst.P2Generator().Mult(opScalar(suites.OpBatchScalar(i)))
	}
	return out
}

// opScalar makes a blst scalar of a small integer.
func opScalar(k uint64) *blst.Scalar {
	var be [32]byte
	for i := range 8 {
		be[31-i] = byte(k >> (8 * i))
	}
	return new(blst.Scalar).FromBEndian(be[:])
}

// operations returns every blst operation (opList names them all; a test
// keeps the two in step).
func operations() []suites.Op {
	v := func() *fixtures.Ops {
		f, err := fixtures.Load()
		if err != nil {
			return &fixtures.Ops{}
		}
		return &f.Ops
	}
	var list []suites.Op
	for _, t := range []model.Type{model.PublicKey, model.Signature} {
		g1 := t == model.PublicKey
		group := map[bool]string{true: "P1", false: "P2"}[g1]
		list = append(list,
			suites.Op{Key: model.Key{Type: t, Lib: lib, Repr: "affine", Op: "compress", Batch: 1},
				Note: fmt.Sprintf("(*%sAffine).Compress: returns a new slice", group),
				Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
					d, err := suites.ValidInputs(in, opInputs)
					if err != nil {
						return suites.OpHarness{}, err
					}
					var out []byte
					run := func() error { out = d.aggSig.Compress(); return nil }
					if g1 {
						run = func() error { out = d.aggPK.Compress(); return nil }
					}
					return suites.OpHarness{Run: run, Result: func() ([]byte, error) { return out, nil }}, nil
				}},
			suites.Op{Key: model.Key{Type: t, Lib: lib, Repr: "affine", Op: "serialize", Batch: 1},
				Note: fmt.Sprintf("(*%sAffine).Serialize: returns a new slice", group),
				Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
					d, err := suites.ValidInputs(in, opInputs)
					if err != nil {
						return suites.OpHarness{}, err
					}
					var out []byte
					run := func() error { out = d.aggSig.Serialize(); return nil }
					if g1 {
						run = func() error { out = d.aggPK.Serialize(); return nil }
					}
					return suites.OpHarness{Run: run, Result: func() ([]byte, error) { return out, nil }}, nil
				}},
			suites.Op{Key: model.Key{Type: t, Lib: lib, Repr: "jacobian", Op: "compress", Batch: 1},
				Note: fmt.Sprintf("(*%s).Compress of a Jacobian point (Z != 1): converts to affine (one inversion) inside", group),
				Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
					d, err := suites.ValidInputs(in, opInputs)
					if err != nil {
						return suites.OpHarness{}, err
					}
					var out []byte
					if g1 {
						j := opJacobianSumP1(d.pks)
						return suites.OpHarness{Run: func() error { out = j.Compress(); return nil }, Result: func() ([]byte, error) { return out, nil }}, nil
					}
					j := opJacobianSumP2(d.sigs)
					return suites.OpHarness{Run: func() error { out = j.Compress(); return nil }, Result: func() ([]byte, error) { return out, nil }}, nil
				}},
			suites.Op{Key: model.Key{Type: t, Lib: lib, Repr: "compressed", Op: "decompress", Batch: 1},
				Note: fmt.Sprintf("(*%sAffine).Uncompress into a reused value: blst's default decode checks the point is on the curve, not the subgroup", group),
				Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
					d, err := opInputs()
					if err != nil {
						return suites.OpHarness{}, err
					}
					enc := opPick(g1, d.aggPK.Compress(), d.aggSig.Compress())
					if in.Invalid {
						enc = opPick(g1, v().NotOnCurveG1, v().NotOnCurveG2)
					}
					return opDecodeHarness(g1, enc, false), nil
				}},
			suites.Op{Key: model.Key{Type: t, Lib: lib, Repr: "compressed", Op: "decompress-checked", Batch: 1},
				Note: fmt.Sprintf("(*%sAffine).Uncompress then %s: the subgroup check blst leaves to the caller", group, opPick(g1, "KeyValidate (infinity and subgroup)", "SigValidate(false) (subgroup)")),
				Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
					d, err := opInputs()
					if err != nil {
						return suites.OpHarness{}, err
					}
					enc := opPick(g1, d.aggPK.Compress(), d.aggSig.Compress())
					if in.Invalid {
						enc = opPick(g1, v().NotInSubgroupG1, v().NotInSubgroupG2)
					}
					return opDecodeHarness(g1, enc, true), nil
				}},
			suites.Op{Key: model.Key{Type: t, Lib: lib, Repr: "affine", Op: "aggregate", Batch: suites.OpAggregateN},
				Note: fmt.Sprintf("%sAggregate.Aggregate of %d affine points (no group check) then ToAffine: mixed additions into Jacobian sums on GOMAXPROCS goroutines (a cgo call and a Gosched per point), one inversion", group, suites.OpAggregateN),
				Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
					d, err := suites.ValidInputs(in, opInputs)
					if err != nil {
						return suites.OpHarness{}, err
					}
					if g1 {
						var out *blst.P1Affine
						return suites.OpHarness{
							Run: func() error {
								var agg blst.P1Aggregate
								ok := agg.Aggregate(d.pks, false)
								out = agg.ToAffine()
								return opOkOr(ok, opErrRejected)
							},
							Result: func() ([]byte, error) { return out.Compress(), nil },
						}, nil
					}
					var out *blst.P2Affine
					return suites.OpHarness{
						Run: func() error {
							var agg blst.P2Aggregate
							ok := agg.Aggregate(d.sigs, false)
							out = agg.ToAffine()
							return opOkOr(ok, opErrRejected)
						},
						Result: func() ([]byte, error) { return out.Compress(), nil },
					}, nil
				}},
			suites.Op{Key: model.Key{Type: t, Lib: lib, Repr: "jacobian", Op: "aggregate", Batch: suites.OpAggregateN},
				Note: fmt.Sprintf("(*%s).AddAssign over %d Jacobian points; the sum stays Jacobian", group, suites.OpAggregateN),
				Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
					d, err := suites.ValidInputs(in, opInputs)
					if err != nil {
						return suites.OpHarness{}, err
					}
					if g1 {
						js := make([]blst.P1, len(d.pks))
						for i, p := range d.pks {
							js[i].FromAffine(p)
						}
						var acc blst.P1
						return suites.OpHarness{
							Run: func() error {
								acc = js[0]
								for i := 1; i < len(js); i++ {
									acc.AddAssign(&js[i])
								}
								return nil
							},
							Result: func() ([]byte, error) { return acc.Compress(), nil },
						}, nil
					}
					js := make([]blst.P2, len(d.sigs))
					for i, p := range d.sigs {
						js[i].FromAffine(p)
					}
					var acc blst.P2
					return suites.OpHarness{
						Run: func() error {
							acc = js[0]
							for i := 1; i < len(js); i++ {
								acc.AddAssign(&js[i])
							}
							return nil
						},
						Result: func() ([]byte, error) { return acc.Compress(), nil },
					}, nil
				}},
		)
	}
	list = append(list,
		suites.Op{Key: model.Key{Type: "Signature", Lib: lib, Repr: "affine", Op: "sign", Batch: 1},
			Note: "(*P2Affine).Sign into a reused value: hash to G2 and a scalar multiplication",
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				d, err := suites.ValidInputs(in, opInputs)
				if err != nil {
					return suites.OpHarness{}, err
				}
				var sig blst.P2Affine
				return suites.OpHarness{
					Run: func() error {
						return opOkOr(sig.Sign(d.sks[0], suites.OpMessage, suites.OpDST) != nil, opErrRejected)
					},
					Result: func() ([]byte, error) { return sig.Compress(), nil },
				}, nil
			}},
		suites.Op{Key: model.Key{Type: "Signature", Lib: lib, Repr: "affine", Op: "verify", Batch: 1},
			Note: "(*P2Affine).Verify(sigGroupcheck=false, pk, pkValidate=false): hash to G2 and a two-pairing check; the subgroup checks are timed in decompress-checked. blst may run the Miller loops on two goroutines",
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				d, err := opInputs()
				if err != nil {
					return suites.OpHarness{}, err
				}
				msg := suites.OpVerifyMessage(in)
				var ok bool
				return suites.OpHarness{
					Run: func() error {
						ok = d.sigs[0].Verify(false, d.pks[0], false, msg, suites.OpDST)
						return opOkOr(ok, errors.New("blst: signature did not verify"))
					},
					Result: func() ([]byte, error) { return suites.OpBool(ok), nil },
				}, nil
			}},
		suites.Op{Key: model.Key{Type: "Signature", Lib: lib, Repr: "affine", Op: "fast-aggregate-verify", Batch: suites.OpAggregateN},
			Note: fmt.Sprintf("(*P2Affine).FastAggregateVerify(sigGroupcheck=false) of %d affine public keys: aggregates the keys (P1Aggregate, on GOMAXPROCS goroutines), then one verification", suites.OpAggregateN),
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				d, err := opInputs()
				if err != nil {
					return suites.OpHarness{}, err
				}
				msg := suites.OpVerifyMessage(in)
				var ok bool
				return suites.OpHarness{
					Run: func() error {
						ok = d.aggSig.FastAggregateVerify(false, d.pks, msg, suites.OpDST)
						return opOkOr(ok, errors.New("blst: aggregate signature did not verify"))
					},
					Result: func() ([]byte, error) { return suites.OpBool(ok), nil },
				}, nil
			}},
		suites.Op{Key: model.Key{Type: "G1", Lib: lib, Repr: "jacobian", Op: "to-affine", Batch: 1},
			Note: "(*P1).ToAffine: one inversion; returns a new *P1Affine",
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				if in.Invalid {
					return suites.OpHarness{}, suites.ErrNoInvalidInput
				}
				p := opBatchP1(1)
				var out *blst.P1Affine
				return suites.OpHarness{
					Run:    func() error { out = p[0].ToAffine(); return nil },
					Result: func() ([]byte, error) { return out.Compress(), nil },
				}, nil
			}},
		suites.Op{Key: model.Key{Type: "G2", Lib: lib, Repr: "jacobian", Op: "to-affine", Batch: 1},
			Note: "(*P2).ToAffine: one inversion; returns a new *P2Affine",
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				if in.Invalid {
					return suites.OpHarness{}, suites.ErrNoInvalidInput
				}
				p := opBatchP2(1)
				var out *blst.P2Affine
				return suites.OpHarness{
					Run:    func() error { out = p[0].ToAffine(); return nil },
					Result: func() ([]byte, error) { return out.Compress(), nil },
				}, nil
			}},
		suites.Op{Key: model.Key{Type: "G1", Lib: lib, Repr: "jacobian", Op: "to-affine-batch", Batch: suites.OpBatchN},
			Note: fmt.Sprintf("P1s.ToAffine of %d points: one shared inversion; returns a new slice; blst splits it over goroutines (512 points each, up to GOMAXPROCS)", suites.OpBatchN),
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				if in.Invalid {
					return suites.OpHarness{}, suites.ErrNoInvalidInput
				}
				ps := blst.P1s(opBatchP1(suites.OpBatchN))
				var out blst.P1Affines
				return suites.OpHarness{
					Run: func() error { out = ps.ToAffine(); return nil },
					Result: func() ([]byte, error) {
						return suites.OpBatchHash(func(i int) []byte { return out[i].Compress() }, len(out)), nil
					},
				}, nil
			}},
		suites.Op{Key: model.Key{Type: "G2", Lib: lib, Repr: "jacobian", Op: "to-affine-batch", Batch: suites.OpBatchN},
			Note: fmt.Sprintf("P2s.ToAffine of %d points: one shared inversion; returns a new slice; blst splits it over goroutines (512 points each, up to GOMAXPROCS)", suites.OpBatchN),
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				if in.Invalid {
					return suites.OpHarness{}, suites.ErrNoInvalidInput
				}
				ps := blst.P2s(opBatchP2(suites.OpBatchN))
				var out blst.P2Affines
				return suites.OpHarness{
					Run: func() error { out = ps.ToAffine(); return nil },
					Result: func() ([]byte, error) {
						return suites.OpBatchHash(func(i int) []byte { return out[i].Compress() }, len(out)), nil
					},
				}, nil
			}},
	)
	return list
}

func opPick[T any](g1 bool, a, b T) T {
	if g1 {
		return a
	}
	return b
}

// opJacobianSumP1 adds points in Jacobian form: the result has Z != 1.
func opJacobianSumP1(ps []*blst.P1Affine) *blst.P1 {
	var acc blst.P1
	acc.FromAffine(ps[0])
	for _, p := range ps[1:] {
		acc.AddAssign(p)
	}
	return &acc
}

func opJacobianSumP2(ps []*blst.P2Affine) *blst.P2 {
	var acc blst.P2
	acc.FromAffine(ps[0])
	for _, p := range ps[1:] {
		acc.AddAssign(p)
	}
	return &acc
}

// opDecodeHarness decodes enc into a reused point, with or without the
// subgroup check.
func opDecodeHarness(g1 bool, enc []byte, checked bool) suites.OpHarness {
	if g1 {
		var p blst.P1Affine
		return suites.OpHarness{
			Run: func() error {
				if p.Uncompress(enc) == nil {
					return errors.New("blst: Uncompress rejected the encoding")
				}
				if checked && !p.KeyValidate() {
					return errors.New("blst: KeyValidate rejected the point")
				}
				return nil
			},
			Result: func() ([]byte, error) { return p.Compress(), nil },
		}
	}
	var p blst.P2Affine
	return suites.OpHarness{
		Run: func() error {
			if p.Uncompress(enc) == nil {
				return errors.New("blst: Uncompress rejected the encoding")
			}
			if checked && !p.SigValidate(false) {
				return errors.New("blst: SigValidate rejected the point")
			}
			return nil
		},
		Result: func() ([]byte, error) { return p.Compress(), nil },
	}
}
