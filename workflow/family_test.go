package workflow

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/agree"
	"github.com/memprof/memprof/vocab"
)

// secpVerify is the operation of the made-up secp256k1 suite of
// familyRegistry: its known result comes from its Want, as a new family's
// must.
var secpVerify = results.Key{Type: vocab.Secp256k1Signature, Lib: vocab.Decred, Repr: vocab.RSV, Op: vocab.Verify, Batch: 1}

// familyRegistry is the test registry's BLS suite beside a made-up
// secp256k1 suite of one operation, whose agreement check is check: what
// a new family's suites give the registry, and nothing more.
func familyRegistry(t *testing.T, check func([]suites.FamilyAgreeLib) (*suites.AgreeReport, error)) *suites.Registry {
	t.Helper()
	bls := suites.Suite{Name: "test", Ops: []suites.Op{toAffineOp(opGood, true)}}
	secp := suites.Suite{Name: "secp256k1",
		Ops: []suites.Op{{Key: secpVerify, Note: "test operation",
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				if in.Invalid {
					return suites.OpHarness{}, suites.ErrNoInvalidInput
				}
				return suites.OpHarness{Run: func() error { return nil }, Result: func() ([]byte, error) { return suites.OpBool(true), nil }}, nil
			},
			Want: func() ([]byte, error) { return suites.OpBool(true), nil }}},
		FamilyAgree: []suites.FamilyAgreeLib{{Family: vocab.Secp256k1, Lib: vocab.Decred, Impl: struct{}{}},
			{Family: vocab.Secp256k1, Lib: vocab.Libsecp256k1, Unavailable: needsCgo}},
		Checks: []suites.FamilyCheck{{Family: vocab.Secp256k1, Run: check}},
	}
	r, err := suites.NewRegistry(bls, secp)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// secpAgrees is the made-up check: the libraries it is given, checked on
// 5 cases, and the unavailable ones reported.
func secpAgrees(libs []suites.FamilyAgreeLib) (*suites.AgreeReport, error) {
	rep, _, err := agree.Available("secp256k1 agreement", 5, libs, func(l suites.FamilyAgreeLib) (vocab.Lib, vocab.Why) { return l.Lib, l.Unavailable })
	return rep, err
}

// TestFamilyAgreement: a new family's agreement check runs before its
// operations are timed, alone when only they are selected, and beside the
// others in Verify; the record keeps each family's check apart; a
// disagreement of the family stops the timing.
func TestFamilyAgreement(t *testing.T) {
	blsCalls := 0
	blsAgrees := func(*suites.Registry) (*agree.Report, error) {
		blsCalls++
		return &agree.Report{Cases: 20, Libs: []vocab.Lib{vocab.Gnark}}, nil
	}
	timing := Options{Samples: 1, MinSample: time.Millisecond, NoSites: true, Agree: blsAgree(blsAgrees)}

	rs, err := Throughput(context.Background(), familyRegistry(t, secpAgrees), Selection{Types: []vocab.Type{vocab.Secp256k1Signature}}, timing)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := keys(rs.Throughput), keyStrings(secpVerify); !slices.Equal(got, want) {
		t.Fatalf("throughput: got %v, want %v", got, want)
	}
	if e := rs.Throughput[0].Error; e != "" {
		t.Errorf("throughput: got error %q, want %v timed", e, secpVerify)
	}
	if blsCalls != 0 {
		t.Errorf("the BLS check ran %d times for secp256k1's operations alone, want 0", blsCalls)
	}
	a := rs.Agreement
	if a == nil || !a.OK || a.Cases != 5 || len(a.Families) != 1 || a.Families[0].Family != vocab.Secp256k1 ||
		!slices.Equal(a.Libs, []vocab.Lib{vocab.Decred}) || !slices.Equal(a.Unavailable, []string{"libsecp256k1: " + needsCgo.Reason}) {
		t.Errorf("agreement: got %+v, want secp256k1's check alone, with decred and without libsecp256k1", a)
	}

	v, err := Verify(familyRegistry(t, secpAgrees), Options{Agree: blsAgree(blsAgrees)})
	if err != nil {
		t.Fatal(err)
	}
	if a := v.Agreement; a == nil || !a.OK || a.Cases != 25 || len(a.Families) != 2 ||
		a.Families[0].Family != vocab.BLS12381 || a.Families[1].Family != vocab.Secp256k1 {
		t.Errorf("Verify: got %+v, want the checks of bls12-381 and secp256k1, in that order", a)
	}

	d := &agree.Disagreement{Case: "ecRecover-1", Check: "recover", Lib: vocab.Decred, Against: "test vectors"}
	disagrees := func(libs []suites.FamilyAgreeLib) (*suites.AgreeReport, error) {
		rep, _ := secpAgrees(libs)
		return rep, d
	}
	rs, err = Throughput(context.Background(), familyRegistry(t, disagrees), Selection{}, timing)
	if !errors.Is(err, d) || rs == nil || len(rs.Throughput) != 0 {
		t.Fatalf("disagreeing: got %v and %+v; want the disagreement and no throughput row", err, rs)
	}
	if a := rs.Agreement; a == nil || a.OK || len(a.Families) != 2 || !a.Families[0].OK || a.Families[1].OK {
		t.Errorf("disagreeing: got agreement %+v, want bls12-381 agreeing and secp256k1 not", a)
	}
	if v, err := Verify(familyRegistry(t, disagrees), Options{Agree: blsAgree(blsAgrees)}); v != nil || !errors.Is(err, d) {
		t.Errorf("Verify, disagreeing: got %v, %v; want no results and the disagreement", v, err)
	}

	broken := errors.New("vectors missing")
	cannot := func([]suites.FamilyAgreeLib) (*suites.AgreeReport, error) { return nil, broken }
	if _, err := Verify(familyRegistry(t, cannot), Options{Agree: blsAgree(blsAgrees)}); !errors.Is(err, broken) || IsUsage(err) {
		t.Errorf("Verify, a check that cannot run: got %v, want %v", err, broken)
	}
}
