package main

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/agree"
	"github.com/memprof/memprof/vocab"
)

// tinyParam marks the entries of tinyRegistry: a measuring child asked
// for one serves tinyRegistry (TestMain), so that tests of the commands'
// behaviour (flags, formats, files, exit codes) measure cases of one
// small array each, not the real suites.
const tinyParam results.Param = "test=tiny"

// tinySignature is what each of the tiny registry's Signature instances
// is: a new array of a signature's compressed size; the tests read its
// size from unsafe.Sizeof, never a written figure.
type tinySignature [96]byte

// tinyRegistry is tinySuite with a stub of BLS12-381's agreement check
// that agrees (one case, gnark and circl), as the real check would before
// any operation is timed.
var tinyRegistry = sync.OnceValue(func() *suites.Registry {
	agrees := suites.Suite{Name: "tiny check", Checks: []suites.FamilyCheck{{Family: vocab.BLS12381, Checks: "stub BLS12-381 check",
		RunOwn: func(*suites.Registry) (*suites.AgreeReport, error) {
			return &suites.AgreeReport{Cases: 1, Libs: []vocab.Lib{vocab.Circl, vocab.Gnark}}, nil
		}}}}
	r, err := suites.NewRegistry(tinySuite(), agrees)
	if err != nil {
		panic(err)
	}
	return r
})

// tinySuite is the Signature entries of three libraries in two
// representations each, every one a new tinySignature; operations of G1
// and Signature (tinyOp), circl's to-affine-batch not offered; the
// family's value for the review; and a module this binary links, whose
// version the results record (as the real suites' modules).
func tinySuite() suites.Suite {
	var entries []suites.Entry
	for _, lib := range []vocab.Lib{vocab.Blst, vocab.Gnark, vocab.Circl} {
		for _, repr := range []vocab.Repr{vocab.Affine, vocab.Jacobian} {
			entries = append(entries, suites.Entry{
				Key:         results.Key{Type: vocab.Signature, Lib: lib, Repr: repr, Layout: measure.Pointer, Scheme: vocab.MinPk, Param: tinyParam},
				Constructor: "new(tinySignature) (test)",
				SizeHint:    unsafe.Sizeof(tinySignature{}),
				Case: func() memprof.Case {
					return memprof.Case{New: func(int) any { return new(tinySignature) }}
				},
			})
		}
	}
	ops := []suites.Op{
		tinyOp(vocab.G1, vocab.Gnark, vocab.Jacobian, vocab.ToAffine, 1),
		tinyOp(vocab.G1, vocab.Gnark, vocab.Jacobian, vocab.ToAffineBatch, suites.OpBatchN),
		tinyOp(vocab.G1, vocab.Circl, vocab.Jacobian, vocab.ToAffine, 1),
		{Key: results.Key{Type: vocab.G1, Lib: vocab.Circl, Repr: vocab.Jacobian, Op: vocab.ToAffineBatch, Batch: suites.OpBatchN, Param: tinyParam},
			Unavailable: suites.NotOffered(vocab.Circl, "no batch conversion (test)")},
		tinyOp(vocab.Signature, vocab.Gnark, vocab.Affine, vocab.Aggregate, suites.OpAggregateN),
		tinyOp(vocab.Signature, vocab.Gnark, vocab.Jacobian, vocab.Aggregate, suites.OpAggregateN),
	}
	family := suites.Family{Family: vocab.BLS12381, Subject: "BLS12-381 (test)",
		KeyOps: map[vocab.Type][]vocab.Op{vocab.Signature: {vocab.Aggregate}, vocab.G1: {vocab.ToAffine}}}
	return suites.Suite{Name: "tiny", Modules: []string{"github.com/consensys/gnark-crypto"}, Entries: entries, Ops: ops, Families: []suites.Family{family}}
}

// tinyOp is an operation of tinySuite: each call copies the result the
// operation must give on the valid inputs (suites.WantResult, from
// fixtures/vectors.json), so that its check passes, it allocates, and it
// costs next to nothing.
func tinyOp(typ vocab.Type, lib vocab.Lib, repr vocab.Repr, op vocab.Op, batch int) suites.Op {
	key := results.Key{Type: typ, Lib: lib, Repr: repr, Op: op, Batch: batch, Param: tinyParam}
	return suites.Op{Key: key, Note: "copies the known result (test)", Path: "bytes.Clone (test)", Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
		v, err := suites.ValidInputs(in, fixtures.Load)
		if err != nil {
			return suites.OpHarness{}, err
		}
		want, err := suites.WantResult(key, v)
		if err != nil {
			return suites.OpHarness{}, err
		}
		var got []byte
		return suites.OpHarness{Run: func() error { got = bytes.Clone(want); return nil }, Result: func() ([]byte, error) { return got, nil }}, nil
	}}
}

// runTiny runs the CLI as runCLI does, on tinyRegistry: the tests that
// use it may run in parallel (no package variable changes).
func runTiny(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runCommand(context.Background(), tinyRegistry, args, &out, &errb)
	return code, out.String(), errb.String()
}

// tinyVerifyRegistry is tinyRegistry's suite with stub agreement checks of
// three families: BLS12-381's and KZG's (of their own kinds) report the
// cases and libraries they are given here, secp256k1's checks the
// family's agreement libraries of the registry, one of them unavailable.
// Each stub counts its runs in runs.
func tinyVerifyRegistry(runs *[3]atomic.Int32) func() *suites.Registry {
	return sync.OnceValue(func() *suites.Registry {
		own := func(i int, cases int, libs ...vocab.Lib) func(*suites.Registry) (*suites.AgreeReport, error) {
			return func(*suites.Registry) (*suites.AgreeReport, error) {
				runs[i].Add(1)
				return &suites.AgreeReport{Cases: cases, Libs: libs}, nil
			}
		}
		secp := func(libs []suites.FamilyAgreeLib) (*suites.AgreeReport, error) {
			runs[2].Add(1)
			rep, _, err := agree.Available("secp256k1 agreement (test)", 5, libs, func(l suites.FamilyAgreeLib) (vocab.Lib, vocab.Why) { return l.Lib, l.Unavailable })
			return rep, err
		}
		checks := suites.Suite{Name: "tiny checks",
			FamilyAgree: []suites.FamilyAgreeLib{{Family: vocab.Secp256k1, Lib: vocab.Decred, Impl: struct{}{}},
				{Family: vocab.Secp256k1, Lib: vocab.Libsecp256k1, Unavailable: vocab.Why{Kind: vocab.NeedsCgo, Reason: "needs cgo (test)"}}},
			Checks: []suites.FamilyCheck{
				{Family: vocab.BLS12381, RunOwn: own(0, 20, vocab.Blst, vocab.Circl, vocab.Gnark), Checks: "stub BLS12-381 check"},
				{Family: vocab.KZG, RunOwn: own(1, 8, "ckzg", "gokzg"), Checks: "stub KZG check"},
				{Family: vocab.Secp256k1, Run: secp, Checks: "stub secp256k1 check"},
			},
		}
		r, err := suites.NewRegistry(tinySuite(), checks)
		if err != nil {
			panic(err)
		}
		return r
	})
}

// TestVerifyCommand: verify runs the check of every family the registry
// has, once each, and records each with its cases, its libraries and the
// unavailable ones; the JSON is a results file the reader takes, and the
// table names every family. The checks are stubs (tinyVerifyRegistry):
// TestVerifyAllFamilies runs the real ones (-cli.real-suites, .ci/run).
func TestVerifyCommand(t *testing.T) {
	t.Parallel() // changes no environment, directory or package variable
	var runs [3]atomic.Int32
	reg := tinyVerifyRegistry(&runs)
	var stdout, stderr bytes.Buffer
	if code := runCommand(context.Background(), reg, []string{"verify", "--format", "json"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("got exit %d, want 0; stderr %s", code, stderr.String())
	}
	for i := range runs {
		if n := runs[i].Load(); n != 1 {
			t.Errorf("stub check %d ran %d times, want once", i, n)
		}
	}
	rs, err := results.Read(&stdout)
	if err != nil {
		t.Fatal(err)
	}
	a := rs.Agreement
	if a == nil || !a.OK || a.Cases != 20+8+5 {
		t.Fatalf("got agreement %+v, want ok with the stubs' 33 cases", a)
	}
	want := []results.FamilyAgreement{
		{Family: vocab.BLS12381, Cases: 20, Libs: []vocab.Lib{vocab.Blst, vocab.Circl, vocab.Gnark}, OK: true},
		{Family: vocab.KZG, Cases: 8, Libs: []vocab.Lib{"ckzg", "gokzg"}, OK: true},
		{Family: vocab.Secp256k1, Cases: 5, Libs: []vocab.Lib{vocab.Decred}, OK: true},
	}
	if len(a.Families) != len(want) {
		t.Fatalf("got families %+v, want %+v", a.Families, want)
	}
	for i, f := range a.Families {
		w := want[i]
		if f.Family != w.Family || f.Cases != w.Cases || !f.OK || !slices.Equal(f.Libs, w.Libs) {
			t.Errorf("family %d: got %+v, want %+v", i, f, w)
		}
	}
	if u := a.Families[2].Unavailable; len(u) != 1 || !strings.Contains(u[0], string(vocab.Libsecp256k1)) {
		t.Errorf("secp256k1: got unavailable %q, want libsecp256k1's reason", u)
	}
	// The table says what each check compares and lists the vector files.
	stdout.Reset()
	stderr.Reset()
	if code := runCommand(context.Background(), reg, []string{"verify"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("table: got exit %d, want 0; stderr %s", code, stderr.String())
	}
	checkContains(t, "verify's table", stdout.String(), []string{"stub BLS12-381 check", "stub KZG check", "stub secp256k1 check", fixtures.ProvenanceFile})
}

// sizedBuffer is standard output that says the width its tables are
// fitted to (render.Sized): a test sets the width without $COLUMNS, a
// process-wide setting, and may run in parallel.
type sizedBuffer struct {
	bytes.Buffer
	columns int
}

func (b *sizedBuffer) Columns() int { return b.columns }

// runAt runs the CLI as runCLI does, on the registry reg, with standard
// output columns wide.
func runAt(reg func() *suites.Registry, columns int, args ...string) (code int, stdout, stderr string) {
	out := &sizedBuffer{columns: columns}
	var errb bytes.Buffer
	code = runCommand(context.Background(), reg, args, out, &errb)
	return code, out.String(), errb.String()
}
