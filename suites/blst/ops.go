//go:build cgo

package blst

import (
	"errors"
	"fmt"
	"sync"

	blst "github.com/supranational/blst/bindings/go"

	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// opData is what the blst operations start from, built once.
type opData = suites.Keys[*blst.SecretKey, blst.P1Affine, blst.P2Affine]

var opInputs = sync.OnceValues(func() (*opData, error) {
	d := &opData{}
	for i := range suites.OpAggregateN {
		sk := blst.KeyGen(suites.OpIKM(i))
		if sk == nil {
			return nil, fmt.Errorf("blst KeyGen of op key %d failed", i)
		}
		d.SKs = append(d.SKs, sk)
		d.PKs.Each = append(d.PKs.Each, new(blst.P1Affine).From(sk))
		d.Sigs.Each = append(d.Sigs.Each, new(blst.P2Affine).Sign(sk, suites.OpMessage, suites.OpDST))
	}
	var okPK, okSig bool
	d.PKs.Sum, okPK = opAggregateP1(d.PKs.Each)
	d.Sigs.Sum, okSig = opAggregateP2(d.Sigs.Each)
	if !okPK || !okSig {
		return nil, errors.New("blst aggregation of the op inputs failed")
	}
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

// opAggregateP1 and opAggregateP2 sum affine points with a P1Aggregate or
// P2Aggregate (no group check), then convert the sum to affine.
func opAggregateP1(ps []*blst.P1Affine) (*blst.P1Affine, bool) {
	var agg blst.P1Aggregate
	ok := agg.Aggregate(ps, false)
	return agg.ToAffine(), ok
}

func opAggregateP2(ps []*blst.P2Affine) (*blst.P2Affine, bool) {
	var agg blst.P2Aggregate
	ok := agg.Aggregate(ps, false)
	return agg.ToAffine(), ok
}

// opScalar makes a blst scalar of a small integer.
func opScalar(k uint64) *blst.Scalar {
	var be [32]byte
	for i := range 8 {
		be[31-i] = byte(k >> (8 * i))
	}
	return new(blst.Scalar).FromBEndian(be[:])
}

// blstAffine is what blst's P1Affine and P2Affine share.
type blstAffine[A any] interface {
	*A
	Compress() []byte
	Serialize() []byte
	Uncompress(in []byte) *A
	Deserialize(in []byte) *A
}

// blstJacobian is what blst's P1 and P2 share.
type blstJacobian[J, A any] interface {
	*J
	FromAffine(pa *A)
	AddAssign(pointIf any) *J
	SubAssign(pointIf any) *J
	Mult(scalarIf any, optional ...int) *J
	ToAffine() *A
	Compress() []byte
	Serialize() []byte
}

// blstGroupOf is what blst's G1 and G2 adapters differ in.
type blstGroupOf[A, J any] struct {
	typ  vocab.Type
	name string // P1 or P2
	// points selects the group's inputs.
	points func(*opData) suites.Points[A]
	// validate is the subgroup check blst leaves to the caller, called
	// validateCall, which checks what validates says.
	validate                func(*A) bool
	validateCall, validates string
	aggregate               func([]*A) (*A, bool)
	toAffineBatch           func([]J) []A
	generator               func() *J
	// verify checks key 0's signature of msg with p in place of key 0's
	// public key (G1) or signature (G2).
	verify func(d *opData, p *A, msg []byte) (bool, error)
	// uses completes the group's Uses with what only one group has (the
	// signature's fast aggregate verify and sign).
	uses func(*suites.Uses[A, J, []byte])
}

// blstGroup is blst's adapter on one group, one code for G1 and G2.
func blstGroup[A, J any, PA blstAffine[A], PJ blstJacobian[J, A]](o blstGroupOf[A, J]) suites.Group[A, J, []byte, []byte] {
	compressed := func(p *A) []byte { return PA(p).Compress() }
	serialized := func(p *A) []byte { return PA(p).Serialize() }
	uncompress := func(p *A, enc []byte) error {
		if PA(p).Uncompress(enc) == nil {
			return errors.New("blst: Uncompress rejected the encoding")
		}
		return nil
	}
	notValid := fmt.Errorf("blst: %s rejected the point", o.validateCall)
	deserialize := func(p *A, enc []byte) error {
		if PA(p).Deserialize(enc) == nil {
			return errors.New("blst: Deserialize rejected the encoding")
		}
		return nil
	}
	genAffine := PJ(o.generator()).ToAffine()
	// decoder and checkedDecoder are makers of a decode into a reused p,
	// the second followed by the subgroup check blst leaves to the caller.
	decoder := func(decode func(*A, []byte) error) func(*A, []byte) func() error {
		return func(p *A, enc []byte) func() error { return func() error { return decode(p, enc) } }
	}
	checkedDecoder := func(decode func(*A, []byte) error) func(*A, []byte) func() error {
		return func(p *A, enc []byte) func() error {
			return func() error {
				if err := decode(p, enc); err != nil {
					return err
				}
				return opOkOr(o.validate(p), notValid)
			}
		}
	}
	uses := suites.Uses[A, J, []byte]{
		FromUncompressed: suites.Offer(fmt.Sprintf("(*%sAffine).Deserialize into a reused value: on-curve check only", o.name),
			decoder(deserialize)).Via("Deserialize"),
		FromUncompressedChecked: suites.Offer(fmt.Sprintf("(*%sAffine).Deserialize then %s (%s)", o.name, o.validateCall, o.validates),
			checkedDecoder(deserialize)).Via("Deserialize", o.validateCall),
		Verify: suites.Offer("(*P2Affine).Verify(sigGroupcheck=false, pk, pkValidate=false): hash to G2 and a two-pairing check",
			suites.VerifyWith(opInputs, o.verify)).Via("Verify"),
		SerializeJacobian: suites.Offer(fmt.Sprintf("(*%s).Serialize of a Jacobian point (Z != 1): converts to affine (one inversion) inside", o.name),
			func(j *J) func() []byte { return PJ(j).Serialize }).Via("(*" + o.name + ").Serialize"),
		ToJacobian: func(j *J, p *A) { PJ(j).FromAffine(p); PJ(j).AddAssign(genAffine); PJ(j).SubAssign(genAffine) },
	}
	if o.uses != nil {
		o.uses(&uses)
	}
	return suites.Group[A, J, []byte, []byte]{
		Uses: uses,
		Lib:  lib, Type: o.typ, Repr: opRepr,
		Points:     suites.PointsOf(opInputs, o.points),
		Compressed: compressed, Uncompressed: serialized,
		Deserialize: deserialize,
		Compress:    suites.Offer(fmt.Sprintf("(*%sAffine).Compress: returns a new slice", o.name), compressed).Via("Compress"),
		Serialize:   suites.Offer(fmt.Sprintf("(*%sAffine).Serialize: returns a new slice", o.name), serialized).Via("Serialize"),
		Decompress: suites.Offer(fmt.Sprintf("(*%sAffine).Uncompress into a reused value: blst's default decode checks the point is on the curve, not the subgroup", o.name),
			decoder(uncompress)).Via("Uncompress"),
		DecompressChecked: suites.Offer(fmt.Sprintf("(*%sAffine).Uncompress then %s (%s): the subgroup check blst leaves to the caller", o.name, o.validateCall, o.validates),
			checkedDecoder(uncompress)).Via("Uncompress", o.validateCall),
		Aggregate: suites.Offer(fmt.Sprintf("%sAggregate.Aggregate of %d affine points (no group check) then ToAffine: mixed additions into Jacobian sums on GOMAXPROCS goroutines (a cgo call and a Gosched per point), one inversion", o.name, suites.OpAggregateN),
			func(_ *A, ps []*A) func() (*A, error) {
				return func() (*A, error) {
					sum, ok := o.aggregate(ps)
					return sum, opOkOr(ok, opErrRejected)
				}
			}).Via(o.name+"Aggregate.Aggregate", "ToAffine").OnCores(),
		Jacobian: &suites.Jacobian[A, J, []byte, []byte]{
			FromAffine:   func(j *J, p *A) { PJ(j).FromAffine(p) },
			AddMixed:     func(j *J, p *A) { PJ(j).AddAssign(p) },
			Compressed:   func(j *J) []byte { return PJ(j).Compress() },
			Uncompressed: func(j *J) []byte { return PJ(j).Serialize() },
			Compress: suites.Offer(fmt.Sprintf("(*%s).Compress of a Jacobian point (Z != 1): converts to affine (one inversion) inside", o.name),
				func(j *J) func() []byte { return PJ(j).Compress }).Via("(*" + o.name + ").Compress"),
			AddAssign: suites.Offer(fmt.Sprintf("(*%s).AddAssign over %d Jacobian points; the sum stays Jacobian", o.name, suites.OpAggregateN),
				func(acc, q *J) { PJ(acc).AddAssign(q) }).Via(fmt.Sprintf("%d × (*%s).AddAssign", suites.OpAggregateN-1, o.name)),
		},
		Convert: suites.Conversions[A, J]{
			From: opFromRepr,
			Points: func(n int) []J {
				out := make([]J, n)
				for i := range out {
					out[i] = *PJ(o.generator()).Mult(opScalar(suites.OpBatchScalar(i)))
				}
				return out
			},
			ToAffine: suites.Offer(fmt.Sprintf("(*%s).ToAffine: one inversion; returns a new *%sAffine", o.name, o.name),
				func(_ *A, p *J) *A { return PJ(p).ToAffine() }).Via("ToAffine"),
			ToAffineBatch: suites.Offer(fmt.Sprintf("%ss.ToAffine of %d points: one shared inversion; returns a new slice; blst splits it over goroutines (512 points each, up to GOMAXPROCS)", o.name, suites.OpBatchN),
				o.toAffineBatch).Via(o.name + "s.ToAffine").OnCores(),
		},
	}
}

// pkGroup and sigGroup are blst's adapters on G1 and G2.
func pkGroup() suites.Group[blst.P1Affine, blst.P1, []byte, []byte] {
	return blstGroup(blstGroupOf[blst.P1Affine, blst.P1]{
		typ: vocab.PublicKey, name: "P1", points: func(d *opData) suites.Points[blst.P1Affine] { return d.PKs },
		validate: (*blst.P1Affine).KeyValidate, validateCall: "KeyValidate", validates: "infinity and subgroup",
		aggregate:     opAggregateP1,
		toAffineBatch: func(ps []blst.P1) []blst.P1Affine { return blst.P1s(ps).ToAffine() },
		generator:     blst.P1Generator,
		verify: func(d *opData, p *blst.P1Affine, msg []byte) (bool, error) {
			return d.Sigs.Each[0].Verify(false, p, false, msg, suites.OpDST), nil
		},
	})
}

func sigGroup() suites.Group[blst.P2Affine, blst.P2, []byte, []byte] {
	return blstGroup(blstGroupOf[blst.P2Affine, blst.P2]{
		typ: vocab.Signature, name: "P2", points: func(d *opData) suites.Points[blst.P2Affine] { return d.Sigs },
		validate: func(p *blst.P2Affine) bool { return p.SigValidate(false) }, validateCall: "SigValidate(false)", validates: "subgroup",
		aggregate:     opAggregateP2,
		toAffineBatch: func(ps []blst.P2) []blst.P2Affine { return blst.P2s(ps).ToAffine() },
		generator:     blst.P2Generator,
		verify: func(d *opData, p *blst.P2Affine, msg []byte) (bool, error) {
			return p.Verify(false, d.PKs.Each[0], false, msg, suites.OpDST), nil
		},
		uses: func(u *suites.Uses[blst.P2Affine, blst.P2, []byte]) {
			u.FastAggregateVerify = suites.Offer(fmt.Sprintf("(*P2Affine).FastAggregateVerify(sigGroupcheck=false) of %d affine public keys: aggregates the keys (P1Aggregate, on GOMAXPROCS goroutines), then one verification", suites.OpAggregateN),
				suites.VerifyWith(opInputs, func(d *opData, p *blst.P2Affine, msg []byte) (bool, error) {
					return p.FastAggregateVerify(false, d.PKs.Each, msg, suites.OpDST), nil
				})).Via("FastAggregateVerify").OnCores()
			u.Sign = suites.Offer("(*P2Affine).Sign into a reused value: hash to G2 and a scalar multiplication",
				suites.SignWith(opInputs, func(d *opData, p *blst.P2Affine) error {
					return opOkOr(p.Sign(d.SKs[0], suites.OpMessage, suites.OpDST) != nil, opErrRejected)
				})).Via("Sign")
		},
	})
}

// opScheme is blst's adapter for the signature operations.
func opScheme() suites.Scheme[*opData] {
	return suites.Scheme[*opData]{
		Lib: lib, Repr: opRepr, Inputs: opInputs,
		Sign: suites.Offer("(*P2Affine).Sign into a reused value: hash to G2 and a scalar multiplication",
			func(d *opData) suites.OpHarness {
				var sig blst.P2Affine
				return suites.OpHarness{
					Run:    func() error { return opOkOr(sig.Sign(d.SKs[0], suites.OpMessage, suites.OpDST) != nil, opErrRejected) },
					Result: func() ([]byte, error) { return sig.Compress(), nil },
				}
			}).Via("Sign"),
		Verify: suites.Offer("(*P2Affine).Verify(sigGroupcheck=false, pk, pkValidate=false): hash to G2 and a two-pairing check; the subgroup checks are timed in decompress-checked. blst may run the Miller loops on two goroutines",
			func(d *opData, msg []byte) func() (bool, error) {
				return func() (bool, error) {
					return d.Sigs.Each[0].Verify(false, d.PKs.Each[0], false, msg, suites.OpDST), nil
				}
			}).Via("Verify"),
		FastAggregateVerify: suites.Offer(fmt.Sprintf("(*P2Affine).FastAggregateVerify(sigGroupcheck=false) of %d affine public keys: aggregates the keys (P1Aggregate, on GOMAXPROCS goroutines), then one verification", suites.OpAggregateN),
			func(d *opData, msg []byte) func() (bool, error) {
				return func() (bool, error) { return d.Sigs.Sum.FastAggregateVerify(false, d.PKs.Each, msg, suites.OpDST), nil }
			}).Via("FastAggregateVerify").OnCores(),
	}
}

// operations returns every blst operation; without cgo, cgoLessOperations
// lists the same ones as unavailable.
func operations() []suites.Op {
	return suites.OpsWithPaths(pkGroup(), sigGroup(), opScheme(), speedOps())
}
