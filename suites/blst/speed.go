//go:build cgo

package blst

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"unsafe"

	blst "github.com/supranational/blst/bindings/go"

	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// batchData is what the batch verifications start from: the signatures of
// key i (OpIKM(i)) on the distinct messages OpBatchMessage(i), and, for
// the invalid input, key i's signature of OpOtherMessage.
type batchData struct {
	pks   []*blst.P1Affine
	msgs  []blst.Message
	sigs  []*blst.P2Affine
	wrong []*blst.P2Affine
}

var batchInputs = sync.OnceValues(func() (*batchData, error) {
	d, err := opInputs()
	if err != nil {
		return nil, err
	}
	n := slices.Max(suites.OpBatchVerifySizes)
	b := &batchData{pks: d.PKs.Each[:n]}
	for i := range n {
		msg := suites.OpBatchMessage(i)
		b.msgs = append(b.msgs, msg)
		b.sigs = append(b.sigs, new(blst.P2Affine).Sign(d.SKs[i], msg, suites.OpDST))
		b.wrong = append(b.wrong, new(blst.P2Affine).Sign(d.SKs[i], suites.OpOtherMessage, suites.OpDST))
	}
	return b, nil
})

// inputs returns the first n signatures, keys and messages; for the
// invalid input, the middle signature is replaced by one of another
// message.
func (b *batchData) inputs(n int, in suites.OpInput) (pks []*blst.P1Affine, msgs []blst.Message, sigs []*blst.P2Affine) {
	sigs = slices.Clone(b.sigs[:n])
	if in.Invalid {
		sigs[n/2] = b.wrong[n/2]
	}
	return b.pks[:n], b.msgs[:n], sigs
}

// randScalar sets s to 64 random bits, the blinding factor of one
// signature of a batch, from math/rand/v2's generator (the runtime's
// ChaCha8, seeded by the system, safe on the worker goroutines blst calls
// it on). The bytes go through a pooled buffer: Scalar.FromBEndian hands
// its slice to C, so a buffer of the call's own would escape to the heap,
// 32 B per signature that a verifier need not pay.
func randScalar(s *blst.Scalar) {
	b := scalarBufs.Get().(*[blst.BLST_SCALAR_BYTES]byte)
	binary.BigEndian.PutUint64(b[len(b)-8:], rand.Uint64())
	s.FromBEndian(b[:])
	scalarBufs.Put(b)
}

// scalarBufs holds randScalar's buffers: the first 24 bytes stay zero.
var scalarBufs = sync.Pool{New: func() any { return new([blst.BLST_SCALAR_BYTES]byte) }}

// batchRandBits is how many bits of each blinding factor count.
const batchRandBits = 64

// speedOps returns blst's operations of the representations that trade
// memory for speed, in the order of speedKeys.
func speedOps() []suites.Op {
	var out []suites.Op
	for _, k := range speedKeys() {
		o := suites.Op{Key: k.Key, CoresDependent: k.cores}
		n := k.Batch
		switch k.Op {
		case vocab.BatchVerify:
			o.Note = fmt.Sprintf("(*P2Affine).MultipleAggregateVerify of %d signatures of distinct messages under %d affine keys (no group checks), 64-bit blinding scalars (math/rand/v2): min(%d, GOMAXPROCS) worker goroutines, each with its own PairingCtx, merged at the end", n, n, n)
			o.Path = "MultipleAggregateVerify"
			o.Prepare = batchVerify(n)
		case vocab.PairingCtxVerify:
			o.Note = fmt.Sprintf("one PairingCtx per call on the calling goroutine: PairingMulNAggregatePkInG1 of each of %d signatures of distinct messages (64-bit blinding scalars (math/rand/v2)), PairingCommit, PairingFinalVerify", n)
			o.Path = fmt.Sprintf("PairingCtx, %d × PairingMulNAggregatePkInG1, PairingCommit, PairingFinalVerify", n)
			o.Prepare = pairingCtxVerify(n)
		case vocab.Decompress:
			o.Note = fmt.Sprintf("(*P2Affine).BatchUncompress of %d compressed signatures: on-curve checks only, on min(%d, GOMAXPROCS) goroutines, into one new []P2Affine with a new slice of pointers into it", n, n)
			o.Path = "BatchUncompress"
			o.Prepare = batchUncompress(n)
		case vocab.MSM:
			o.Note = fmt.Sprintf("P1Affines.Mult of %d affine points by 255-bit scalars (Pippenger; blst splits it over GOMAXPROCS goroutines and allocates its scratch per call)", n)
			o.Path = "P1Affines.Mult"
			o.Prepare = msm(n)
		}
		out = append(out, o)
	}
	return out
}

var errBatchRejected = errors.New("blst: the batch did not verify")

// batchVerify times MultipleAggregateVerify of the first n signatures.
func batchVerify(n int) func(suites.OpInput) (suites.OpHarness, error) {
	var dummy blst.P2Affine
	return batchCheck(n, func(pks []*blst.P1Affine, msgs []blst.Message, sigs []*blst.P2Affine) bool {
		return dummy.MultipleAggregateVerify(sigs, false, pks, false, msgs, suites.OpDST, randScalar, batchRandBits)
	})
}

// pairingCtxVerify times the same check in one pairing context.
func pairingCtxVerify(n int) func(suites.OpInput) (suites.OpHarness, error) {
	var r blst.Scalar
	return batchCheck(n, func(pks []*blst.P1Affine, msgs []blst.Message, sigs []*blst.P2Affine) bool {
		ctx := blst.PairingCtx(true, suites.OpDST)
		for i := range n {
			randScalar(&r)
			if blst.PairingMulNAggregatePkInG1(ctx, pks[i], false, sigs[i], false, &r, batchRandBits, msgs[i]) != 0 {
				return false
			}
		}
		blst.PairingCommit(ctx)
		return blst.PairingFinalVerify(ctx)
	})
}

// batchCheck is the Prepare of a batch verification of the first n
// signatures (one of them of another message, for the invalid input).
func batchCheck(n int, check func([]*blst.P1Affine, []blst.Message, []*blst.P2Affine) bool) func(suites.OpInput) (suites.OpHarness, error) {
	return func(in suites.OpInput) (suites.OpHarness, error) {
		b, err := batchInputs()
		if err != nil {
			return suites.OpHarness{}, err
		}
		pks, msgs, sigs := b.inputs(n, in)
		ok := false
		return suites.OpHarness{
			Run: func() error {
				ok = check(pks, msgs, sigs)
				return opOkOr(ok, errBatchRejected)
			},
			Result: func() ([]byte, error) { return suites.OpBool(ok), nil },
		}, nil
	}
}

// batchUncompress times BatchUncompress of the first n signatures; its
// result is their compressed aggregate (made outside the timing), which
// is the vectors' aggregate signature for the OpAggregateN of them.
func batchUncompress(n int) func(suites.OpInput) (suites.OpHarness, error) {
	return func(in suites.OpInput) (suites.OpHarness, error) {
		d, err := opInputs()
		if err != nil {
			return suites.OpHarness{}, err
		}
		encs := make([][]byte, n)
		for i := range n {
			encs[i] = d.Sigs.Each[i].Compress()
		}
		if in.Invalid {
			enc, err := suites.InvalidEncoding(vocab.Signature, vocab.Decompress)
			if err != nil {
				return suites.OpHarness{}, err
			}
			encs[n/2] = enc
		}
		var dummy blst.P2Affine
		var out []*blst.P2Affine
		return suites.OpHarness{
			Run: func() error {
				out = dummy.BatchUncompress(encs)
				return opOkOr(out != nil, errors.New("blst: BatchUncompress rejected an encoding"))
			},
			Result: func() ([]byte, error) {
				sum, ok := opAggregateP2(out)
				if !ok {
					return nil, opErrRejected
				}
				return sum.Compress(), nil
			},
		}, nil
	}
}

// msmData is what the multi-scalar multiplications start from: the batch
// points P_i = (i+2)·generator, made by additions, in affine form, and
// the scalars OpMSMScalar(i), little-endian, one after another.
type msmData struct {
	points  blst.P1Affines
	scalars []byte
}

var msmInputs = sync.OnceValue(func() *msmData {
	n := slices.Max(suites.OpMSMSizes)
	g := blst.P1Generator()
	jac := make([]blst.P1, n)
	jac[0] = *g.Add(g)
	for i := 1; i < n; i++ {
		jac[i] = *jac[i-1].Add(g)
	}
	d := &msmData{points: blst.P1s(jac).ToAffine(), scalars: make([]byte, 0, 32*n)}
	for i := range n {
		s := suites.OpMSMScalar(i)
		slices.Reverse(s[:])
		d.scalars = append(d.scalars, s[:]...)
	}
	return d
})

// msm times P1Affines.Mult of the first n points.
func msm(n int) func(suites.OpInput) (suites.OpHarness, error) {
	return func(in suites.OpInput) (suites.OpHarness, error) {
		if in.Invalid {
			return suites.OpHarness{}, suites.ErrNoInvalidInput
		}
		d := msmInputs()
		points, scalars := d.points[:n], d.scalars[:32*n]
		var out *blst.P1
		return suites.OpHarness{
			Run: func() error {
				out = points.Mult(scalars, 255)
				return opOkOr(out != nil, opErrRejected)
			},
			Result: func() ([]byte, error) { return out.ToAffine().Compress(), nil },
		}, nil
	}
}

// batchEntry is the instance case of n signatures decoded at once by
// BatchUncompress, which keeps them in one new []P2Affine and returns a
// new slice of pointers into it.
func batchEntry() suites.Entry {
	var encs [][]byte
	return suites.Entry{
		Key:         batchEntryKey,
		Constructor: "(*blst.P2Affine).BatchUncompress of n compressed min-pk signatures (on-curve checks on GOMAXPROCS goroutines): one []P2Affine of n and a []*P2Affine of n pointers into it",
		SizeHint:    unsafe.Sizeof(blst.P2Affine{}) + unsafe.Sizeof((*blst.P2Affine)(nil)),
		// Decoding takes about 36 µs a point: N = 10,000 keeps the case
		// to a second; the arrays' rounding to pages is then under a
		// byte per instance.
		DefaultN: 10_000,
		NWhy:     "each instance is a decoding with its on-curve check, slow beside a copy: a smaller N keeps the case short, and the arrays' rounding to pages is still under a byte per instance",
		Case: func() memprof.Case {
			return memprof.Case{
				SizeOf: unsafe.Sizeof(blst.P2Affine{}),
				Prepare: func(n int) error {
					// The encodings are made once, outside the measurement:
					// the Distinct signatures, over and over.
					sigs := SignaturesG2()
					encs = make([][]byte, n)
					for i := range encs {
						encs[i] = sigs[i%len(sigs)].Compress()
					}
					return nil
				},
				NewAll: func(n int) any {
					var dummy blst.P2Affine
					return dummy.BatchUncompress(encs[:n])
				},
			}
		},
	}
}
