package gnark

import (
	"bytes"
	"fmt"
	"math/big"
	"sync"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// opData is what the gnark operations start from, built once; the keys
// come from the IETF KeyGen (see agree.go).
type opData = suites.Keys[*big.Int, bls12381.G1Affine, bls12381.G2Affine]

var opInputs = sync.OnceValues(func() (*opData, error) {
	d := &opData{}
	pks := make([]bls12381.G1Affine, suites.OpAggregateN)
	sigs := make([]bls12381.G2Affine, suites.OpAggregateN)
	for i := range suites.OpAggregateN {
		skb, err := agreeKeyGen(suites.OpIKM(i))
		if err != nil {
			return nil, err
		}
		sk, err := agreeScalar(skb)
		if err != nil {
			return nil, err
		}
		pks[i].ScalarMultiplicationBase(sk)
		if sigs[i], err = opSign(sk, suites.OpMessage); err != nil {
			return nil, err
		}
		d.SKs = append(d.SKs, sk)
	}
	d.PKs = opPoints[bls12381.G1Jac](pks)
	d.Sigs = opPoints[bls12381.G2Jac](sigs)
	return d, nil
})

// opPoints returns ps and their sum, made as the aggregate operation makes
// it.
func opPoints[J, A any, PA gnarkAffine[A, J], PJ gnarkJacobian[J, A]](ps []A) suites.Points[A] {
	each := make([]*A, len(ps))
	for i := range ps {
		each[i] = &ps[i]
	}
	sum, _ := opSum[J, A, PA, PJ](new(A), each)()
	return suites.Points[A]{Each: each, Sum: sum}
}

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

// gnarkAffine is what gnark's G1Affine and G2Affine share: their methods
// differ only in the types (G1 or G2) and the encodings' sizes.
type gnarkAffine[A, J any] interface {
	*A
	SetBytes(buf []byte) (int, error)
	FromJacobian(p *J) *A
	Neg(a *A) *A
}

// gnarkEncoder is gnarkAffine with the encodings, C compressed and U
// uncompressed.
type gnarkEncoder[A, J any, C, U suites.Encoding] interface {
	gnarkAffine[A, J]
	Bytes() C
	RawBytes() U
}

// gnarkJacobian is what gnark's G1Jac and G2Jac share.
type gnarkJacobian[J, A any] interface {
	*J
	FromAffine(a *A) *J
	AddMixed(a *A) *J
	AddAssign(q *J) *J
	ScalarMultiplication(q *J, s *big.Int) *J
}

// opSum is a maker of the sum of ps: (*Jac).AddMixed of the affine points
// into a Jacobian sum, then (*Affine).FromJacobian into out, one
// inversion.
func opSum[J, A any, PA gnarkAffine[A, J], PJ gnarkJacobian[J, A]](out *A, ps []*A) func() (*A, error) {
	var acc J
	return func() (*A, error) {
		PJ(&acc).FromAffine(ps[0])
		for _, p := range ps[1:] {
			PJ(&acc).AddMixed(p)
		}
		return PA(out).FromJacobian(&acc), nil
	}
}

// gnarkGroupOf is what gnark's G1 and G2 adapters differ in.
type gnarkGroupOf[A, J any, U suites.Encoding] struct {
	typ  vocab.Type
	name string // G1 or G2
	// points selects the group's inputs.
	points func(*opData) suites.Points[A]
	// generator is the group's generator in Jacobian form.
	generator *J
	// toAffineBatch is gnark's batch conversion (G1 only).
	toAffineBatch suites.Impl[func([]J) []A]
	// verify checks key 0's signature of msg with p in place of key 0's
	// public key (G1) or signature (G2).
	verify func(d *opData, p *A, msg []byte) (bool, error)
	// uses completes the group's Uses with what only one group has.
	uses func(*suites.Uses[A, J, U])
}

// gnarkGroup is gnark's adapter on one group, one code for G1 (C and U
// 48 and 96 bytes) and G2 (96 and 192 bytes).
func gnarkGroup[C, U suites.Encoding, A, J any, PA gnarkEncoder[A, J, C, U], PJ gnarkJacobian[J, A]](o gnarkGroupOf[A, J, U]) suites.Group[A, J, C, U] {
	compressed := func(p *A) C { return PA(p).Bytes() }
	uncompressed := func(p *A) U { return PA(p).RawBytes() }
	setBytes := func(p *A, enc []byte) error { _, err := PA(p).SetBytes(enc); return err }
	affine, jac := o.name+"Affine", o.name+"Jac"
	var gen, negGen A
	PA(&gen).FromJacobian(o.generator)
	PA(&negGen).Neg(&gen)
	uses := suites.Uses[A, J, U]{
		FromUncompressed: suites.Impl[func(*A, []byte) func() error]{
			Lacks: suites.NotOffered(lib, "without the subgroup check (NewDecoder with NoSubgroupChecks) an uncompressed encoding is not checked to be on the curve either: only SetBytes, which checks the subgroup, checks it")},
		FromUncompressedChecked: suites.Offer(fmt.Sprintf("(*%s).SetBytes of the uncompressed encoding into a reused value: always checks the subgroup", affine),
			func(p *A, enc []byte) func() error { return func() error { return setBytes(p, enc) } }).Via("SetBytes"),
		Verify: suites.Offer("HashToG2 then PairingCheck of two pairs (gnark-crypto has no signature API)",
			suites.VerifyWith(opInputs, o.verify)).Via("HashToG2", "PairingCheck"),
		FastAggregateVerify: suites.Impl[func(*A, []byte) (bool, error)]{
			Lacks: suites.NotOffered(lib, "gnark-crypto has no BLS signature scheme (verify is timed as HashToG2 plus PairingCheck)")},
		SerializeJacobian: suites.Offer(fmt.Sprintf("(*%s).FromJacobian then RawBytes: gnark encodes only affine points", affine),
			func(j *J) func() U {
				var a A
				return func() U { PA(&a).FromJacobian(j); return PA(&a).RawBytes() }
			}).Via("FromJacobian", "RawBytes"),
		ToJacobian: func(j *J, p *A) { PJ(j).FromAffine(p); PJ(j).AddMixed(&gen); PJ(j).AddMixed(&negGen) },
	}
	if o.uses != nil {
		o.uses(&uses)
	}
	return suites.Group[A, J, C, U]{
		Uses: uses,
		Lib:  lib, Type: o.typ, Repr: vocab.Affine,
		Points:     suites.PointsOf(opInputs, o.points),
		Compressed: compressed, Uncompressed: uncompressed, Deserialize: setBytes,
		Compress:  suites.Offer(fmt.Sprintf("(*%s).Bytes: returns an array by value", affine), compressed).Via("Bytes"),
		Serialize: suites.Offer(fmt.Sprintf("(*%s).RawBytes: returns an array by value", affine), uncompressed).Via("RawBytes"),
		Decompress: suites.Offer(fmt.Sprintf("(*Decoder).Decode into a reused *%s, from one decoder made with NoSubgroupChecks() over a reset bytes.Reader: the only gnark API that skips the subgroup check (on-curve only)", affine),
			noCheckDecoder[A]).Via("(*Decoder).Decode (NoSubgroupChecks)"),
		DecompressChecked: suites.Offer(fmt.Sprintf("(*%s).SetBytes into a reused value: gnark's default decode always checks the subgroup", affine),
			func(p *A, enc []byte) func() error { return func() error { return setBytes(p, enc) } }).Via("SetBytes"),
		Aggregate: suites.Offer(fmt.Sprintf("(*%s).AddMixed of %d affine points, then (*%s).FromJacobian: one inversion", jac, suites.OpAggregateN, affine),
			opSum[J, A, PA, PJ]).Via(fmt.Sprintf("%d × (*%s).AddMixed", suites.OpAggregateN-1, jac), "FromJacobian"),
		Jacobian: &suites.Jacobian[A, J, C, U]{
			FromAffine:   func(j *J, p *A) { PJ(j).FromAffine(p) },
			AddMixed:     func(j *J, p *A) { PJ(j).AddMixed(p) },
			Compressed:   func(j *J) C { var a A; return compressed(PA(&a).FromJacobian(j)) },
			Uncompressed: func(j *J) U { var a A; return uncompressed(PA(&a).FromJacobian(j)) },
			Compress: suites.Offer(fmt.Sprintf("(*%s).FromJacobian then Bytes: gnark encodes only affine points", affine),
				func(j *J) func() C {
					var a A
					return func() C { PA(&a).FromJacobian(j); return PA(&a).Bytes() }
				}).Via("FromJacobian", "Bytes"),
			AddAssign: suites.Offer(fmt.Sprintf("(*%s).AddAssign over %d Jacobian points; the sum stays Jacobian", jac, suites.OpAggregateN),
				func(acc, q *J) { PJ(acc).AddAssign(q) }).Via(fmt.Sprintf("%d × (*%s).AddAssign", suites.OpAggregateN-1, jac)),
		},
		Convert: suites.Conversions[A, J]{
			From: vocab.Jacobian,
			Points: func(n int) []J {
				out := make([]J, n)
				for i := range out {
					PJ(&out[i]).ScalarMultiplication(o.generator, new(big.Int).SetUint64(suites.OpBatchScalar(i)))
				}
				return out
			},
			ToAffine: suites.Offer(fmt.Sprintf("(*%s).FromJacobian into a reused value: one inversion", affine),
				func(out *A, p *J) *A { return PA(out).FromJacobian(p) }).Via("FromJacobian"),
			ToAffineBatch: o.toAffineBatch,
		},
	}
}

// The generators in Jacobian form.
var opG1Gen, opG2Gen = func() (*bls12381.G1Jac, *bls12381.G2Jac) {
	g1, g2, _, _ := bls12381.Generators()
	return &g1, &g2
}()

// pkGroup and sigGroup are gnark's adapters on G1 and G2.
func pkGroup() suites.Group[bls12381.G1Affine, bls12381.G1Jac, [bls12381.SizeOfG1AffineCompressed]byte, [bls12381.SizeOfG1AffineUncompressed]byte] {
	return gnarkGroup[[bls12381.SizeOfG1AffineCompressed]byte, [bls12381.SizeOfG1AffineUncompressed]byte](gnarkGroupOf[bls12381.G1Affine, bls12381.G1Jac, [bls12381.SizeOfG1AffineUncompressed]byte]{
		typ: vocab.PublicKey, name: "G1", generator: opG1Gen,
		points: func(d *opData) suites.Points[bls12381.G1Affine] { return d.PKs },
		toAffineBatch: suites.Offer(fmt.Sprintf("BatchJacobianToAffineG1 of %d points: one shared inversion (Montgomery's trick); returns a new slice; the last step runs on parallel.Execute goroutines", suites.OpBatchN),
			bls12381.BatchJacobianToAffineG1).Via("BatchJacobianToAffineG1").OnCores(),
		verify: func(d *opData, p *bls12381.G1Affine, msg []byte) (bool, error) {
			return opVerify(p, msg, d.Sigs.Each[0])
		},
	})
}

func sigGroup() suites.Group[bls12381.G2Affine, bls12381.G2Jac, [bls12381.SizeOfG2AffineCompressed]byte, [bls12381.SizeOfG2AffineUncompressed]byte] {
	return gnarkGroup[[bls12381.SizeOfG2AffineCompressed]byte, [bls12381.SizeOfG2AffineUncompressed]byte](gnarkGroupOf[bls12381.G2Affine, bls12381.G2Jac, [bls12381.SizeOfG2AffineUncompressed]byte]{
		typ: vocab.Signature, name: "G2", generator: opG2Gen,
		points: func(d *opData) suites.Points[bls12381.G2Affine] { return d.Sigs },
		toAffineBatch: suites.Impl[func([]bls12381.G2Jac) []bls12381.G2Affine]{
			Lacks: suites.NotOffered(lib, "no batch conversion for G2 (BatchJacobianToAffineG1 exists for G1 only)")},
		verify: func(d *opData, p *bls12381.G2Affine, msg []byte) (bool, error) {
			return opVerify(d.PKs.Each[0], msg, p)
		},
		uses: signUse,
	})
}

// signUse gives the signature group the scheme's signing into a point,
// which the sign paths start with.
func signUse(u *suites.Uses[bls12381.G2Affine, bls12381.G2Jac, [bls12381.SizeOfG2AffineUncompressed]byte]) {
	u.Sign = suites.Offer("HashToG2 then (*G2Affine).ScalarMultiplication: gnark-crypto has no signature API, this is the composition",
		suites.SignWith(opInputs, func(d *opData, p *bls12381.G2Affine) (err error) {
			*p, err = opSign(d.SKs[0], suites.OpMessage)
			return err
		})).Via("HashToG2", "ScalarMultiplication")
}

// opScheme is gnark's adapter for the signature operations: gnark-crypto
// has no signature API, so they are the compositions a user writes.
func opScheme() suites.Scheme[*opData] {
	return suites.Scheme[*opData]{
		Lib: lib, Repr: vocab.Affine, Inputs: opInputs,
		Sign: suites.Offer("HashToG2 then (*G2Affine).ScalarMultiplication: gnark-crypto has no signature API, this is the composition",
			func(d *opData) suites.OpHarness {
				var sig bls12381.G2Affine
				return suites.OpHarness{
					Run:    func() (err error) { sig, err = opSign(d.SKs[0], suites.OpMessage); return err },
					Result: func() ([]byte, error) { b := sig.Bytes(); return b[:], nil },
				}
			}).Via("HashToG2", "ScalarMultiplication"),
		Verify: suites.Offer("HashToG2 then PairingCheck of two pairs: gnark-crypto has no signature API; no subgroup check here (SetBytes does it, timed in decompress-checked)",
			func(d *opData, msg []byte) func() (bool, error) {
				return func() (bool, error) { return opVerify(d.PKs.Each[0], msg, d.Sigs.Each[0]) }
			}).Via("HashToG2", "PairingCheck"),
		FastAggregateVerify: suites.Impl[func(*opData, []byte) func() (bool, error)]{
			Lacks: suites.NotOffered(lib, "gnark-crypto has no BLS signature scheme (verify is timed as HashToG2 plus PairingCheck)")},
	}
}

// operations returns every gnark operation: those of the table and the
// paths from every representation, the pairing checks and the
// multi-scalar multiplications (speed.go).
func operations() []suites.Op {
	return suites.OpsWithPaths(pkGroup(), sigGroup(), opScheme(), pairingOps(), msmOps())
}

// noCheckDecoder is a maker of the decoding of enc into p that checks only
// that the point is on the curve: one decoder made with
// NoSubgroupChecks() over a bytes.Reader reset before each call, the only
// gnark API that skips the subgroup check.
func noCheckDecoder[A any](p *A, enc []byte) func() error {
	r := bytes.NewReader(enc)
	dec := bls12381.NewDecoder(r, bls12381.NoSubgroupChecks())
	return func() error {
		r.Reset(enc)
		return dec.Decode(p)
	}
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
