package suites

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strconv"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// Sizes of the operations that handle many items per call.
const (
	OpAggregateN = 128
	OpBatchN     = 1000
)

// OpDST is the signature DST of every operation and agreement case: the
// basic scheme with keys in G1 and signatures in G2 (min-pk, Ethereum's).
var OpDST = []byte("BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_")

// OpMessage is the message every key signs in the operations.
var OpMessage = []byte("memprof throughput: the message every key signs")

// OpOtherMessage is the message the invalid inputs of verify refer to.
var OpOtherMessage = []byte("memprof throughput: a message nobody signed")

// OpIKM returns the IKM of key i of the operations: SHA-256 of
// "memprof op key <i>".
func OpIKM(i int) []byte {
	h := sha256.Sum256([]byte("memprof op key " + strconv.Itoa(i)))
	return h[:]
}

// OpBatchScalar returns the scalar of batch point i: P_i = (i+2)·generator.
func OpBatchScalar(i int) uint64 { return uint64(i) + 2 }

// OpMSMSizes are the numbers of points the multi-scalar multiplications
// are timed at; their points are the batch points P_i.
var OpMSMSizes = []int{64, 1024, 16384}

// OpBatchVerifySizes are the numbers of signatures the batch
// verifications are timed at.
var OpBatchVerifySizes = []int{1, 8, 64, 128}

// groupOrder is r, the order of the BLS12-381 groups G1 and G2.
var groupOrder, _ = new(big.Int).SetString("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16)

// OpMSMScalar returns scalar i of the multi-scalar multiplications, 32
// bytes big-endian: SHA-256 of "memprof msm scalar <i>" modulo the group
// order.
func OpMSMScalar(i int) [32]byte {
	h := sha256.Sum256([]byte("memprof msm scalar " + strconv.Itoa(i)))
	var out [32]byte
	new(big.Int).Mod(new(big.Int).SetBytes(h[:]), groupOrder).FillBytes(out[:])
	return out
}

// OpMSMCombined returns the scalar k, 32 bytes big-endian, with
// k·generator equal to the multi-scalar multiplication of the first n
// batch points by the scalars OpMSMScalar: the sum of s_i·(i+2) modulo
// the group order. The vectors' known results are made from it.
func OpMSMCombined(n int) [32]byte {
	k := new(big.Int)
	for i := range n {
		s := OpMSMScalar(i)
		k.Add(k, new(big.Int).Mul(new(big.Int).SetBytes(s[:]), new(big.Int).SetUint64(OpBatchScalar(i))))
	}
	var out [32]byte
	k.Mod(k, groupOrder).FillBytes(out[:])
	return out
}

// OpBatchMessage returns the message signature i of a batch verification
// signs: "memprof batch message <i>", each distinct.
func OpBatchMessage(i int) []byte { return []byte("memprof batch message " + strconv.Itoa(i)) }

// Op is one operation of one library on one representation, as a value
// of the library's Suite.
type Op struct {
	// Key names the operation: Type is the object it handles (PublicKey,
	// Signature, G1, G2); Repr the representation the data is in when the
	// operation starts (for sign, the representation it produces); Op and
	// Batch (how many items one call handles: 1, OpAggregateN, OpBatchN).
	// The registry gives PublicKey and Signature operations the min-pk
	// scheme, the only one timed.
	results.Key
	// Note says exactly what is timed: the API called and the checks it
	// runs.
	Note string
	// Unavailable, when not zero, says why the library does not offer the
	// operation; Prepare is nil then.
	Unavailable vocab.Why
	// Prepare builds the inputs, outside any timing, and returns the
	// harness. With in.Invalid it builds inputs the operation must reject
	// (see OpInput); operations that have none return ErrNoInvalidInput.
	Prepare func(in OpInput) (OpHarness, error)
	// AliasOf names the type whose operation this one repeats (a G1
	// conversion repeated for PublicKey; see ConversionAliases).
	AliasOf vocab.Type

	// Path names the calls one timed call makes, from the representation
	// the data is in to the operation's result ("Uncompress, SigValidate,
	// Verify"); see results.OpCost.
	Path string
	// FullMatrix marks a path of the full matrix of operations and
	// representations that the trade-off summary does not need: timed
	// only when every path is asked for (throughput --paths all).
	FullMatrix bool
	// CoresDependent says that what one call allocates depends on the
	// number of cores (results.OpCost.CoresDependent).
	CoresDependent bool
	// Isolate, when not empty, names the group of operations that must be
	// timed in a process of their own, one process per group: a library
	// that holds one context per process (c-kzg: "ckzg/precompute=6").
	// Operations of one group share the process; the workflows run each
	// group in a child (workflow.ChildTasks).
	Isolate string
	// CHeap says that the operation's library allocates in C: its timing
	// records the C heap kept per call (measure.Timing.CHeapBytesPerOp).
	CHeap bool
	// Want, if set, returns what Result must return after a Run on the
	// valid inputs: the KZG operations know theirs from
	// fixtures/kzg-vectors.json. When nil, CheckOp uses WantOpResult (the
	// BLS vectors); it is nil only for BLS12-381's operations, and the
	// registry refuses an operation of any other family without it.
	Want func() ([]byte, error)
}

// OpInput selects the inputs Prepare builds.
type OpInput struct {
	// Invalid asks for inputs the operation must reject: for verify and
	// fast-aggregate-verify a signature of OpOtherMessage checked against
	// OpMessage; for decompress a point not on the curve; for
	// decompress-checked a point on the curve outside the subgroup.
	Invalid bool
}

// ErrNoInvalidInput is returned by Prepare for operations that cannot be
// given an input they must reject (encoding, conversion, aggregation of
// valid points, signing).
var ErrNoInvalidInput = errors.New("the operation has no invalid input")

// OpHarness is a prepared operation.
type OpHarness struct {
	// Run performs the operation once. It returns an error when the
	// library rejects the input: a failed verification or decoding.
	Run func() error
	// Result returns the canonical encoding of what the last Run produced
	// (see CheckOpResult); it is not timed.
	Result func() ([]byte, error)
}

// conversionAlias maps a raw group to the min-pk type held in it.
var conversionAlias = map[vocab.Type]vocab.Type{vocab.G1: vocab.PublicKey, vocab.G2: vocab.Signature}

// ConversionAliases returns the conversions among ops (to-affine and
// to-affine-batch on G1 or G2) repeated for the min-pk type held in that
// group (PublicKey for G1, Signature for G2): storing keys or signatures
// in Jacobian form is exactly what makes that conversion a cost. A suite
// lists them beside its own operations.
func ConversionAliases(ops []Op) []Op {
	var out []Op
	for _, o := range ops {
		alias, ok := conversionAlias[o.Type]
		if !ok || (o.Op != vocab.ToAffine && o.Op != vocab.ToAffineBatch) {
			continue
		}
		a := o
		a.Type, a.AliasOf = alias, o.Type
		if a.Note != "" {
			a.Note += " (the same conversion as for " + string(o.Type) + ": a min-pk " + string(alias) + " is a " + string(o.Type) + " point)"
		}
		out = append(out, a)
	}
	return out
}

func checkOp(o Op) error {
	if err := checkKeyNames(o.Key); err != nil {
		return fmt.Errorf("op %w", err)
	}
	if o.Op == "" || o.Layout != "" {
		return fmt.Errorf("op %s: an operation has an op and no layout", o.Key)
	}
	if (o.Prepare == nil) == o.Unavailable.IsZero() {
		return fmt.Errorf("op %s: exactly one of Prepare and Unavailable must be set", o.Key)
	}
	if !o.Unavailable.IsZero() && !vocab.Known(o.Unavailable.Kind, vocab.Kinds) {
		return fmt.Errorf("op %s: unavailable without a known kind (%q)", o.Key, o.Unavailable.Kind)
	}
	if o.Batch < 1 {
		return fmt.Errorf("op %s: batch must be at least 1", o.Key)
	}
	if o.Want == nil && o.Unavailable.IsZero() && o.Family() != vocab.BLS12381 {
		return fmt.Errorf("op %s: an operation of family %s sets Want (only BLS12-381's known results come from fixtures/vectors.json)", o.Key, o.Family())
	}
	return nil
}

// WantOpResult returns what Result must return after a successful Run of
// op (type t) on the valid inputs, from the vectors blst made:
//
//   - compress, decompress, decompress-checked, aggregate: the compressed
//     aggregate of the OpAggregateN public keys or signatures (the point
//     every encode and decode operation handles);
//   - serialize: that aggregate uncompressed;
//   - sign: key 0's signature of OpMessage, compressed;
//   - verify, fast-aggregate-verify: the single byte 1;
//   - to-affine: P_0 compressed; to-affine-batch: SHA-256 of the OpBatchN
//     compressed points in order.
func WantOpResult(t vocab.Type, op vocab.Op, v *fixtures.Vectors) ([]byte, error) {
	return WantResult(results.Key{Type: t, Op: op, Batch: 1}, v)
}

// OpWant is the result op must compute on the valid inputs: op.Want's
// when set (the KZG operations), else WantResult's from v (the BLS
// vectors).
func OpWant(op Op, v *fixtures.Vectors) ([]byte, error) {
	if op.Want != nil {
		return op.Want()
	}
	return WantResult(op.Key, v)
}

// WantResult is WantOpResult for the operation k, whose batch decides
// the result of some operations:
//
//   - batch-verify, pairing-ctx-verify, pairing-check: the single byte 1;
//   - msm: the known result of the multi-scalar multiplication of k.Batch
//     points (fixtures.Ops.MSMResult);
//   - decompress of a batch: the compressed aggregate of the decoded
//     points, as for one point.
func WantResult(k results.Key, v *fixtures.Vectors) ([]byte, error) {
	t, op := k.Type, k.Op
	switch op {
	case vocab.BatchVerify, vocab.PairingCtxVerify, vocab.PairingCheck:
		return []byte{1}, nil
	case vocab.MSM:
		if r := v.Ops.MSMResult(k.Batch); r != nil {
			return r, nil
		}
		return nil, fmt.Errorf("fixtures/vectors.json has no msm result of %d points", k.Batch)
	}
	g1 := t == vocab.PublicKey || t == vocab.G1
	pick := func(forG1, forG2 []byte) []byte {
		if g1 {
			return forG1
		}
		return forG2
	}
	switch op {
	case "compress", "decompress", "decompress-checked", "aggregate":
		return pick(v.Ops.AggregatePK, v.Ops.AggregateSig), nil
	case "serialize":
		return pick(v.Ops.AggregatePKUncompressed, v.Ops.AggregateSigUncompressed), nil
	case "sign":
		return v.Ops.Sig, nil
	case "verify", "fast-aggregate-verify":
		return []byte{1}, nil
	case "to-affine":
		return pick(v.Ops.ToAffineG1, v.Ops.ToAffineG2), nil
	case "to-affine-batch":
		return pick(v.Ops.BatchG1SHA256, v.Ops.BatchG2SHA256), nil
	}
	return nil, fmt.Errorf("no known result for op %q", op)
}

// Vectors are the test vectors an operation's check compares with
// (fixtures.Load): the suites own the way to the vectors, so that a caller
// that checks operations (the workflow) reads no fixtures of its own.
func Vectors() (*fixtures.Vectors, error) { return fixtures.Load() }

// CheckOp prepares op on valid inputs, runs it once and compares its
// result with OpWant; it returns the prepared harness so that the
// caller can time it. The throughput command runs it before timing, so
// that no number is printed for an operation that computes the wrong thing.
func CheckOp(op Op, v *fixtures.Vectors) (OpHarness, error) {
	h, err := op.Prepare(OpInput{})
	if err != nil {
		return OpHarness{}, fmt.Errorf("%s: preparing: %w", op.Key, err)
	}
	if err := h.Run(); err != nil {
		return OpHarness{}, fmt.Errorf("%s: running on valid inputs: %w", op.Key, err)
	}
	got, err := h.Result()
	if err != nil {
		return OpHarness{}, fmt.Errorf("%s: result: %w", op.Key, err)
	}
	want, err := OpWant(op, v)
	if err != nil {
		return OpHarness{}, fmt.Errorf("%s: %w", op.Key, err)
	}
	if !bytes.Equal(got, want) {
		return OpHarness{}, fmt.Errorf("%s: wrong result: got %s, want %s (%s)", op.Key, hex.EncodeToString(got), hex.EncodeToString(want), opVectorsFile(op))
	}
	return h, nil
}

// OpBatchHash is the Result of to-affine-batch: SHA-256 over the
// compressed encodings of the converted points, in order.
func OpBatchHash(compressed func(i int) []byte, n int) []byte {
	h := sha256.New()
	for i := range n {
		h.Write(compressed(i))
	}
	return h.Sum(nil)
}

// BoolHarness is the harness of an operation that answers yes or no (a
// verification, a pairing check): Run fails with rejected when check says
// no; Result is encode of the last answer.
func BoolHarness(check func() (bool, error), rejected error, encode func(bool) []byte) OpHarness {
	var ok bool
	return OpHarness{
		Run: func() (err error) {
			if ok, err = check(); err == nil && !ok {
				err = rejected
			}
			return err
		},
		Result: func() ([]byte, error) { return encode(ok), nil },
	}
}

// OpBool is the Result of a verification: 1 when it succeeded.
func OpBool(ok bool) []byte {
	if ok {
		return []byte{1}
	}
	return []byte{0}
}

// CheckOpRejects prepares op on its invalid inputs (see OpInput) and
// returns an error if Run accepts them: a verify harness that verifies
// nothing, or a checked decode that checks nothing, fails here. Operations
// without invalid inputs pass.
func CheckOpRejects(op Op) error {
	h, err := op.Prepare(OpInput{Invalid: true})
	if errors.Is(err, ErrNoInvalidInput) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: preparing invalid inputs: %w", op.Key, err)
	}
	if err := h.Run(); err == nil {
		got, _ := h.Result()
		return fmt.Errorf("%s: accepted an input it must reject (result %s)", op.Key, hex.EncodeToString(got))
	}
	return nil
}

// ValidInputs returns load's inputs for an operation that has no input it
// must reject: for in.Invalid it returns ErrNoInvalidInput.
func ValidInputs[T any](in OpInput, load func() (T, error)) (T, error) {
	if in.Invalid {
		var zero T
		return zero, ErrNoInvalidInput
	}
	return load()
}

// OpVerifyMessage is the message verify checks: OpMessage, or for the
// invalid input OpOtherMessage, which nobody signed.
func OpVerifyMessage(in OpInput) []byte {
	if in.Invalid {
		return OpOtherMessage
	}
	return OpMessage
}

// opVectorsFile names where an operation's known result comes from: the
// vectors file of its family, or its Want.
func opVectorsFile(op Op) string {
	switch op.Family() {
	case vocab.BLS12381:
		return "fixtures/vectors.json"
	case vocab.KZG:
		return fixtures.KZGVectorsFile
	}
	return "the operation's known result (Op.Want)"
}
