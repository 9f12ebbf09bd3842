package gnark

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// The representations gnark-crypto trades memory for speed with: a G2
// point prepared for pairings (PrecomputeLines: the Miller loop's lines,
// which PairingCheckFixedQ takes instead of the point), and the scratch
// of G1 multi-scalar multiplication (MultiExp, with one task or as many
// as cores).

// Lines is a prepared G2 point: what PrecomputeLines returns.
type Lines = [2][len(bls12381.LoopCounter) - 1]bls12381.LineEvaluationAff

// pairingData is what the pairing checks start from: a min-sig
// verification of key 0 (OpIKM(0)), its public key pk = sk·g2 in G2, its
// signature sig = sk·H(OpMessage) in G1 with the min-sig DST, checked as
// e(sig, -g2)·e(H(m), pk) = 1, the message hashed beforehand. The two G2
// points, -g2 and the public key, are the fixed points real use keeps
// prepared.
type pairingData struct {
	ps, wrong []bls12381.G1Affine // [sig, H(OpMessage)]; [sig, H(OpOtherMessage)]
	qs        []bls12381.G2Affine // [-g2, pk]
	lines     []Lines             // PrecomputeLines of qs
}

var pairingInputs = sync.OnceValues(func() (*pairingData, error) {
	skb, err := agreeKeyGen(suites.OpIKM(0))
	if err != nil {
		return nil, err
	}
	sk, err := agreeScalar(skb)
	if err != nil {
		return nil, err
	}
	_, _, _, g2 := bls12381.Generators()
	var negG2, pk bls12381.G2Affine
	negG2.Neg(&g2)
	pk.ScalarMultiplicationBase(sk)
	h, err := bls12381.HashToG1(suites.OpMessage, DSTMinSig)
	if err != nil {
		return nil, err
	}
	other, err := bls12381.HashToG1(suites.OpOtherMessage, DSTMinSig)
	if err != nil {
		return nil, err
	}
	var sig bls12381.G1Affine
	sig.ScalarMultiplication(&h, sk)
	d := &pairingData{
		ps:    []bls12381.G1Affine{sig, h},
		wrong: []bls12381.G1Affine{sig, other},
		qs:    []bls12381.G2Affine{negG2, pk},
	}
	for _, q := range d.qs {
		d.lines = append(d.lines, bls12381.PrecomputeLines(q))
	}
	return d, nil
})

var errPairingRejected = errors.New("gnark: the pairing check failed")

// pairingCheck prepares check on the pairing inputs (the wrong message's
// for the invalid input).
func pairingCheck(check func(ps []bls12381.G1Affine, d *pairingData) (bool, error)) func(suites.OpInput) (suites.OpHarness, error) {
	return func(in suites.OpInput) (suites.OpHarness, error) {
		d, err := pairingInputs()
		if err != nil {
			return suites.OpHarness{}, err
		}
		ps := d.ps
		if in.Invalid {
			ps = d.wrong
		}
		ok := false
		return suites.OpHarness{
			Run: func() (err error) {
				if ok, err = check(ps, d); err == nil && !ok {
					err = errPairingRejected
				}
				return err
			},
			Result: func() ([]byte, error) { return suites.OpBool(ok), nil },
		}, nil
	}
}

// pairingOps are gnark's pairing checks: from the plain affine G2 points,
// and from the prepared ones.
func pairingOps() []suites.Op {
	key := func(r vocab.Repr) results.Key {
		return results.Key{Type: vocab.G2, Lib: lib, Repr: r, Op: vocab.PairingCheck, Batch: 1}
	}
	return []suites.Op{
		{Key: key(vocab.Affine), Path: "PairingCheck",
			Note: "PairingCheck of two pairs e(sig, -g2)·e(H(m), pk) with the G2 points affine (a min-sig verification, the message hashed beforehand): the Miller loop computes each G2 point's lines as it goes",
			Prepare: pairingCheck(func(ps []bls12381.G1Affine, d *pairingData) (bool, error) {
				return bls12381.PairingCheck(ps, d.qs)
			})},
		{Key: key(vocab.Prepared), Path: "copy of the lines, PairingCheckFixedQ",
			Note: "PairingCheckFixedQ of the same two pairs with the G2 points prepared (PrecomputeLines, made beforehand), on a copy of the lines into reused scratch: MillerLoopFixedQ scales the lines it is given in place (gnark-crypto v0.22.0 pairing.go), so prepared points used twice must be copied first, as gnark's own KZG does by taking its verifying key by value",
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				var scratch []Lines
				return pairingCheck(func(ps []bls12381.G1Affine, d *pairingData) (bool, error) {
					scratch = append(scratch[:0], d.lines...)
					return bls12381.PairingCheckFixedQ(ps, scratch)
				})(in)
			}},
	}
}

// preparedEntry is the instance case of a prepared G2 point: the lines of
// a min-sig public key, each in its own heap object, as a program keeps
// the prepared keys it verifies against.
func preparedEntry() suites.Entry {
	return suites.Entry{
		Key:         results.Key{Type: vocab.G2, Lib: lib, Repr: vocab.Prepared, Layout: measure.Pointer},
		Constructor: "bls12381.PrecomputeLines of a min-sig public key (a G2 point) into a new Lines ([2][63]LineEvaluationAff): what PairingCheckFixedQ, PairFixedQ and MillerLoopFixedQ take instead of the point",
		SizeHint:    unsafe.Sizeof(Lines{}),
		// PrecomputeLines takes tens of microseconds: N = 10,000 keeps a
		// case to a second or two; the figure is the same at any N.
		DefaultN: 10_000,
		NWhy:     "each instance is a PrecomputeLines of its own, slow beside a copy: a smaller N keeps the case short (the figure is the same at any N)",
		Case: func() memprof.Case {
			return memprof.Case{
				Prepare: func(int) error { PublicKeysG2(); return nil },
				New: func(i int) any {
					l := new(Lines)
					*l = bls12381.PrecomputeLines(PublicKeysG2()[i%Distinct])
					return l
				},
			}
		},
	}
}

// msmData is what the multi-scalar multiplications start from: the batch
// points P_i = (i+2)·generator, made by additions, in affine form, and
// the scalars OpMSMScalar(i).
type msmData struct {
	points  []bls12381.G1Affine
	scalars []fr.Element
}

var msmInputs = sync.OnceValue(func() *msmData {
	n := slices.Max(suites.OpMSMSizes)
	g, _, _, _ := bls12381.Generators()
	jac := make([]bls12381.G1Jac, n)
	jac[0].Double(&g)
	for i := 1; i < n; i++ {
		jac[i].Set(&jac[i-1]).AddAssign(&g)
	}
	d := &msmData{points: bls12381.BatchJacobianToAffineG1(jac), scalars: make([]fr.Element, n)}
	for i := range n {
		s := suites.OpMSMScalar(i)
		d.scalars[i].SetBytes(s[:])
	}
	return d
})

// msmOps are gnark's multi-scalar multiplications: with one task, and
// with as many tasks as GOMAXPROCS, at each of OpMSMSizes.
func msmOps() []suites.Op {
	var out []suites.Op
	for _, tasks := range []string{"1", "all"} {
		for _, n := range suites.OpMSMSizes {
			o := suites.Op{
				Key:  results.Key{Type: vocab.G1, Lib: lib, Repr: vocab.Affine, Op: vocab.MSM, Batch: n, Param: results.Param("tasks=" + tasks)},
				Path: "(*G1Affine).MultiExp",
			}
			nbTasks := func() int { return 1 }
			if tasks == "all" {
				nbTasks = func() int { return runtime.GOMAXPROCS(0) }
				o.CoresDependent = true
				o.Note = fmt.Sprintf("(*G1Affine).MultiExp of %d affine points by fr.Element scalars, MultiExpConfig{NbTasks: GOMAXPROCS}: each task has its own buckets, allocated per call", n)
			} else {
				o.Note = fmt.Sprintf("(*G1Affine).MultiExp of %d affine points by fr.Element scalars, MultiExpConfig{NbTasks: 1}: one task, its buckets allocated per call", n)
			}
			o.Prepare = func(in suites.OpInput) (suites.OpHarness, error) {
				if in.Invalid {
					return suites.OpHarness{}, suites.ErrNoInvalidInput
				}
				d := msmInputs()
				points, scalars := d.points[:n], d.scalars[:n]
				var out bls12381.G1Affine
				return suites.OpHarness{
					Run: func() error {
						_, err := out.MultiExp(points, scalars, ecc.MultiExpConfig{NbTasks: nbTasks()})
						return err
					},
					Result: func() ([]byte, error) { b := out.Bytes(); return b[:], nil },
				}, nil
			}
			out = append(out, o)
		}
	}
	return out
}
