package gnarkbn254

import (
	"fmt"
	"math/big"
	"runtime"
	"slices"
	"sync"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/bn254kit"
	"github.com/memprof/memprof/vocab"
)

// msmData is what the multi-scalar multiplications start from: the points
// P_i = (i+2)·generator of both groups, made by additions, in affine form,
// and the scalars bn254kit.MSMScalar(i).
type msmData struct {
	g1      []bn254.G1Affine
	g2      []bn254.G2Affine
	scalars []fr.Element
}

var msmInputs = sync.OnceValue(func() *msmData {
	n := slices.Max(suites.OpMSMSizes)
	_, _, g1Gen, g2Gen := bn254.Generators()
	d := &msmData{g1: make([]bn254.G1Affine, n), g2: make([]bn254.G2Affine, n), scalars: make([]fr.Element, n)}
	var j1 bn254.G1Jac
	var j2 bn254.G2Jac
	j1.FromAffine(&g1Gen)
	j2.FromAffine(&g2Gen)
	jac1 := make([]bn254.G1Jac, n)
	for i := range n {
		j1.AddMixed(&g1Gen)
		j2.AddMixed(&g2Gen)
		jac1[i] = j1
		d.g2[i].FromJacobian(&j2)
		d.scalars[i].SetBigInt(bn254kit.MSMScalar(i))
	}
	copy(d.g1, bn254.BatchJacobianToAffineG1(jac1))
	return d
})

// msmOps are gnark-crypto's multi-scalar multiplications in both groups,
// with one task and with as many as GOMAXPROCS, at each of
// suites.OpMSMSizes; their known results are fixtures.BN254MSMFile's.
func msmOps() []suites.Op {
	var out []suites.Op
	for _, typ := range []vocab.Type{vocab.BN254G1, vocab.BN254G2} {
		g2 := typ == vocab.BN254G2
		name := "G1Affine"
		if g2 {
			name = "G2Affine"
		}
		for _, tasks := range []string{"1", "all"} {
			for _, n := range suites.OpMSMSizes {
				o := suites.Op{
					Key:  results.Key{Type: typ, Lib: lib, Repr: vocab.Affine, Op: vocab.MSM, Batch: n, Param: results.Param("tasks=" + tasks)},
					Path: fmt.Sprintf("(*%s).MultiExp", name),
				}
				nbTasks := func() int { return 1 }
				if tasks == "all" {
					nbTasks = func() int { return runtime.GOMAXPROCS(0) }
					o.CoresDependent = true
					o.Note = fmt.Sprintf("(*%s).MultiExp of %d affine points by fr.Element scalars, MultiExpConfig{NbTasks: GOMAXPROCS}: each task has its own buckets, allocated per call", name, n)
				} else {
					o.Note = fmt.Sprintf("(*%s).MultiExp of %d affine points by fr.Element scalars, MultiExpConfig{NbTasks: 1}: one task, its buckets allocated per call", name, n)
				}
				o.Want = func() ([]byte, error) {
					m, err := fixtures.LoadBN254MSM()
					if err != nil {
						return nil, err
					}
					if r := m.Result(g2, n); r != nil {
						return r, nil
					}
					return nil, fmt.Errorf("%s/%s has no %s result of %d points", fixtures.BN254Dir, fixtures.BN254MSMFile, typ, n)
				}
				o.Prepare = func(in suites.OpInput) (suites.OpHarness, error) {
					if in.Invalid {
						return suites.OpHarness{}, suites.ErrNoInvalidInput
					}
					d := msmInputs()
					if g2 {
						return msmHarness(d.g2[:n], d.scalars[:n], nbTasks, bn254kit.EncodeG2), nil
					}
					return msmHarness(d.g1[:n], d.scalars[:n], nbTasks, bn254kit.EncodeG1), nil
				}
				out = append(out, o)
			}
		}
	}
	return out
}

// agreeMSM is gnark-crypto's multi-scalar multiplication in the agreement
// check: the points decoded with the library's checks, one task.
func agreeMSM(isG2 bool, encs [][]byte, scalars []*big.Int) ([]byte, error) {
	s := make([]fr.Element, len(scalars))
	for i, k := range scalars {
		s[i].SetBigInt(k)
	}
	if isG2 {
		return decodedMSM(encs, s, unmarshalG2, bn254kit.EncodeG2)
	}
	return decodedMSM(encs, s, unmarshalG1, bn254kit.EncodeG1)
}

// multiExp is a point of either group, which MultiExp sets to a sum of
// points times scalars.
type multiExp[P any] interface {
	*P
	MultiExp(points []P, scalars []fr.Element, config ecc.MultiExpConfig) (*P, error)
}

// msmHarness times MultiExp of points by scalars on tasks() tasks; Result
// encodes the last sum.
func msmHarness[P any, PP multiExp[P]](points []P, scalars []fr.Element, tasks func() int, encode func(*P) []byte) suites.OpHarness {
	var out P
	return suites.OpHarness{
		Run: func() error {
			_, err := PP(&out).MultiExp(points, scalars, ecc.MultiExpConfig{NbTasks: tasks()})
			return err
		},
		Result: func() ([]byte, error) { return encode(&out), nil },
	}
}

// decodedMSM decodes encs with unmarshal and multiplies them by s in one
// task.
func decodedMSM[P any, PP multiExp[P]](encs [][]byte, s []fr.Element, unmarshal func(*P, []byte) error, encode func(*P) []byte) ([]byte, error) {
	ps := make([]P, len(encs))
	for i, e := range encs {
		if err := unmarshal(&ps[i], e); err != nil {
			return nil, err
		}
	}
	var out P
	if _, err := PP(&out).MultiExp(ps, s, ecc.MultiExpConfig{NbTasks: 1}); err != nil {
		return nil, err
	}
	return encode(&out), nil

}
