package workflow

import (
	"fmt"
	"os"
	"sync"
	"testing"
	"unsafe"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/internal/childtest"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// TestMain lets the test binary serve as the measuring child: the
// workflows re-execute their own executable, which in tests is this
// binary, and it measures the test registry's cases.
func TestMain(m *testing.M) {
	childtest.Main(m, "run test child", memprof.ChildRequested, func() error {
		reg := testRegistry
		if r, ok := childRegistries[os.Getenv(testRegistryEnv)]; ok {
			reg = r
		}
		return memprof.ServeChild(reg().LookupCase, ChildTasks(reg())...)
	})
}

// testRegistryEnv names the registry a child serves, its cases and its
// tasks (ChildTasks): the test registry, or one of childRegistries (see
// childOfThisTest).
const testRegistryEnv = "MEMPROF_RUN_TEST_REGISTRY"

// childOfThisTest is the child that serves registry, one of
// childRegistries.
func childOfThisTest(t *testing.T, registry string) memprof.Child {
	t.Helper()
	return memprof.Child{Env: []string{testRegistryEnv + "=" + registry}}
}

// The test registry's cases allocate one array each, whose size the tests
// read from unsafe.Sizeof and whose slot from the heap profile (the
// engine's own tests check that slot against the runtime's size classes):
// no figure is written here.
type (
	affine48   [48]byte
	jacobian72 [72]byte
	sigMinPk   [96]byte
	sigMinSig  [48]byte
)

// pointerCase makes each instance a new *T.
func pointerCase[T any]() func() memprof.Case {
	return func() memprof.Case {
		return memprof.Case{New: func(int) any { return new(T) }}
	}
}

// The keys of the test registry.
var (
	g1Affine   = results.Key{Type: vocab.G1, Lib: vocab.Gnark, Repr: vocab.Affine, Layout: measure.Pointer}
	g1Jacobian = results.Key{Type: vocab.G1, Lib: vocab.Gnark, Repr: vocab.Jacobian, Layout: measure.Pointer}
	g1Circl    = results.Key{Type: vocab.G1, Lib: vocab.Circl, Repr: vocab.Affine, Layout: measure.Pointer}
	g1Scalar   = results.Key{Type: vocab.G1, Lib: vocab.Gnark, Repr: vocab.Scalar, Layout: measure.Pointer}
	// g1CirclScalar does not apply either: with g1Circl, a library of
	// which one combination does not apply and the other is not offered.
	g1CirclScalar = results.Key{Type: vocab.G1, Lib: vocab.Circl, Repr: vocab.Scalar, Layout: measure.Pointer}
	g1Blst        = results.Key{Type: vocab.G1, Lib: vocab.Blst, Repr: vocab.Affine, Layout: measure.Pointer}
	sigPk         = results.Key{Type: vocab.Signature, Lib: vocab.Gnark, Repr: vocab.Affine, Layout: measure.Pointer, Scheme: vocab.MinPk}
	sigSig        = results.Key{Type: vocab.Signature, Lib: vocab.Gnark, Repr: vocab.Affine, Layout: measure.Pointer, Scheme: vocab.MinSig}
	g2Crash       = results.Key{Type: vocab.G2, Lib: vocab.Gnark, Repr: vocab.Affine, Layout: measure.Pointer, Param: "test=crash"}

	opGood  = results.Key{Type: vocab.G1, Lib: vocab.Gnark, Repr: vocab.Jacobian, Op: vocab.ToAffine, Batch: 1}
	opWrong = results.Key{Type: vocab.G1, Lib: vocab.Circl, Repr: vocab.Projective, Op: vocab.ToAffine, Batch: 1}
	opNoCgo = results.Key{Type: vocab.G1, Lib: vocab.Blst, Repr: vocab.Jacobian, Op: vocab.ToAffine, Batch: 1}
)

// The reasons of the unavailable entries.
var (
	notOffered = vocab.Because(vocab.NotOffered, "circl has no affine point type (test)")
	notApplies = vocab.Because(vocab.DoesNotApply, "does not apply: a G1 is a curve point (test)")
	needsCgo   = vocab.Because(vocab.NeedsCgo, "blst needs cgo (test)")
)

// crashCase crashes the whole child, as a cgo library's abort would: a
// goroutine panics, which no recover can catch.
func crashCase() memprof.Case {
	return memprof.Case{New: func(i int) any {
		done := make(chan struct{})
		go func() { panic("test constructor aborted the process") }()
		<-done
		return nil
	}}
}

// toAffineOp is a G1 to-affine operation whose result is the vectors'
// (right) or not: the result checks, not the arithmetic, are under test.
func toAffineOp(key results.Key, right bool) suites.Op {
	return suites.Op{Key: key, Note: "test operation", Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
		v, err := suites.ValidInputs(in, fixtures.Load)
		if err != nil {
			return suites.OpHarness{}, err
		}
		result := v.Ops.ToAffineG1
		if !right {
			result = []byte{1, 2, 3}
		}
		return suites.OpHarness{Run: func() error { return nil }, Result: func() ([]byte, error) { return result, nil }}, nil
	}}
}

// testRegistry is the registry of every test here, and of the children.
var testRegistry = sync.OnceValue(func() *suites.Registry {
	r, err := suites.NewRegistry(suites.Suite{
		Name:    "test",
		Modules: []string{"github.com/memprof/memprof"},
		Entries: []suites.Entry{
			{Key: g1Affine, Constructor: "new(affine48)", SizeHint: unsafe.Sizeof(affine48{}), Case: pointerCase[affine48]()},
			{Key: g1Jacobian, Constructor: "new(jacobian72)", SizeHint: unsafe.Sizeof(jacobian72{}), Case: pointerCase[jacobian72]()},
			{Key: g1Circl, Unavailable: notOffered},
			{Key: g1Scalar, Unavailable: notApplies},
			{Key: g1CirclScalar, Unavailable: notApplies},
			{Key: g1Blst, Unavailable: needsCgo},
			{Key: sigPk, Constructor: "new(sigMinPk)", SizeHint: unsafe.Sizeof(sigMinPk{}), Case: pointerCase[sigMinPk]()},
			{Key: sigSig, Constructor: "new(sigMinSig)", SizeHint: unsafe.Sizeof(sigMinSig{}), Case: pointerCase[sigMinSig]()},
			{Key: g2Crash, Constructor: "crashes the process (test only)", SizeHint: 8, Case: crashCase},
		},
		Ops: []suites.Op{toAffineOp(opGood, true), toAffineOp(opWrong, false), {Key: opNoCgo, Unavailable: needsCgo}},
	})
	if err != nil {
		panic(err)
	}
	return r
})

// keys returns the keys of rows (entries, results, unavailable and
// throughput rows all embed results.Key), for comparisons and messages.
func keys[T fmt.Stringer](rows []T) []string {
	out := []string{}
	for _, r := range rows {
		out = append(out, r.String())
	}
	return out
}

// keyStrings returns the keys' String, as keys does for rows.
func keyStrings(ks ...results.Key) []string {
	return keys(ks)
}
