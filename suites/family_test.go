package suites

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// A made-up secp256k1 suite: what a new family's suites give the registry.
var (
	secpEntry = Entry{Key: results.Key{Type: vocab.Secp256k1Signature, Lib: vocab.Decred, Repr: vocab.RSV, Layout: measure.Pointer},
		Case: func() memprof.Case { return memprof.Case{} }}
	secpOp = Op{Key: results.Key{Type: vocab.Secp256k1Signature, Lib: vocab.Decred, Repr: vocab.RSV, Op: vocab.Verify, Batch: 1},
		Prepare: func(OpInput) (OpHarness, error) { return OpHarness{}, nil },
		Want:    func() ([]byte, error) { return []byte{1}, nil }}
	secpLib   = FamilyAgreeLib{Family: vocab.Secp256k1, Lib: vocab.Decred, Impl: struct{}{}}
	secpCheck = FamilyCheck{Family: vocab.Secp256k1, Run: func(libs []FamilyAgreeLib) (*AgreeReport, error) {
		return &AgreeReport{Cases: len(libs)}, nil
	}}
)

// TestRegistryOfANewFamily: a new family's entries, operations,
// agreement libraries and check are registered as they are, and read back
// by family.
func TestRegistryOfANewFamily(t *testing.T) {
	cgoLib := FamilyAgreeLib{Family: vocab.Secp256k1, Lib: vocab.Libsecp256k1, Unavailable: vocab.Because(vocab.NeedsCgo, "test")}
	r, err := NewRegistry(
		Suite{Name: "libsecp256k1", FamilyAgree: []FamilyAgreeLib{cgoLib}},
		Suite{Name: "decred", Entries: []Entry{secpEntry}, Ops: []Op{secpOp}, FamilyAgree: []FamilyAgreeLib{secpLib}, Checks: []FamilyCheck{secpCheck}},
	)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Entries(); len(got) != 1 || got[0].Family() != vocab.Secp256k1 {
		t.Errorf("entries: got %v, want the one secp256k1 entry", got)
	}
	if c, ok := r.Check(vocab.Secp256k1); !ok || c.Family != vocab.Secp256k1 {
		t.Errorf("Check(secp256k1): got %v, %v", c.Family, ok)
	}
	if _, ok := r.Check(vocab.BN254); ok {
		t.Errorf("Check(bn254): got a check, want none")
	}
	libs := r.FamilyAgreeLibs(vocab.Secp256k1)
	if len(libs) != 2 || libs[0].Lib != vocab.Libsecp256k1 || libs[1].Lib != vocab.Decred {
		t.Errorf("FamilyAgreeLibs: got %v, want libsecp256k1 then decred (vocabulary order)", libs)
	}
	if len(r.FamilyAgreeLibs(vocab.BN254)) != 0 {
		t.Errorf("FamilyAgreeLibs(bn254): got some, want none")
	}
}

// TestNewRegistryFamilyErrors: an entry or operation outside its type's
// family, a new family's operation without a known result or without an
// agreement check, and agreement libraries and checks that are incomplete
// or of the wrong kind are refused.
func TestNewRegistryFamilyErrors(t *testing.T) {
	blstSecp := secpEntry
	blstSecp.Lib = vocab.Blst
	aggregateSecp := secpOp
	aggregateSecp.Op = vocab.FastAggregateVerify
	noWant := secpOp
	noWant.Want = nil
	unavailableNoWant := noWant
	unavailableNoWant.Prepare, unavailableNoWant.Unavailable = nil, vocab.Because(vocab.NotOffered, "test")
	decredSig := Entry{Key: results.Key{Type: vocab.Signature, Lib: vocab.Decred, Repr: vocab.Affine, Layout: measure.Pointer, Scheme: vocab.MinPk},
		Case: func() memprof.Case { return memprof.Case{} }}
	tests := []struct {
		name   string
		suites []Suite
		want   string // the error contains it; "" for none
	}{
		{"a library of another family", []Suite{{Name: "s", Entries: []Entry{blstSecp}}},
			"lib blst is not a library of family secp256k1 (libsecp256k1, go-ethereum, decred)"},
		{"a BLS type made by a secp256k1 library", []Suite{{Name: "s", Entries: []Entry{decredSig}}},
			"lib decred is not a library of family bls12-381 (blst, gnark, circl)"},
		{"an operation of another family", []Suite{{Name: "s", Ops: []Op{aggregateSecp}, FamilyAgree: []FamilyAgreeLib{secpLib}, Checks: []FamilyCheck{secpCheck}}},
			"op fast-aggregate-verify is not an operation of family secp256k1"},
		{"no known result", []Suite{{Name: "s", Ops: []Op{noWant}, FamilyAgree: []FamilyAgreeLib{secpLib}, Checks: []FamilyCheck{secpCheck}}},
			"an operation of family secp256k1 sets Want"},
		{"an unavailable operation needs no known result", []Suite{{Name: "s", Ops: []Op{unavailableNoWant}, FamilyAgree: []FamilyAgreeLib{secpLib}, Checks: []FamilyCheck{secpCheck}}}, ""},
		{"operations without a check", []Suite{{Name: "s", Entries: []Entry{secpEntry}, Ops: []Op{secpOp}}},
			"family secp256k1 has operations but no agreement check"},
		{"agreement libraries without a check", []Suite{{Name: "s", FamilyAgree: []FamilyAgreeLib{secpLib}}},
			"family secp256k1 has agreement libraries but no agreement check"},
		{"a check without libraries", []Suite{{Name: "s", Checks: []FamilyCheck{secpCheck}}},
			"family secp256k1 has an agreement check but no agreement library"},
		{"a check twice", []Suite{{Name: "a", FamilyAgree: []FamilyAgreeLib{secpLib}, Checks: []FamilyCheck{secpCheck}}, {Name: "b", Checks: []FamilyCheck{secpCheck}}},
			"suite b: duplicate agreement check secp256k1"},
		{"a library twice", []Suite{{Name: "a", FamilyAgree: []FamilyAgreeLib{secpLib, secpLib}, Checks: []FamilyCheck{secpCheck}}},
			"suite a: duplicate agreement lib secp256k1/decred"},
		{"a library outside its family", []Suite{{Name: "s", FamilyAgree: []FamilyAgreeLib{{Family: vocab.Secp256k1, Lib: vocab.Blst, Impl: 1}}}},
			`agreement lib "blst" is not a library of family secp256k1`},
		{"a library neither complete nor unavailable", []Suite{{Name: "s", FamilyAgree: []FamilyAgreeLib{{Family: vocab.Secp256k1, Lib: vocab.Decred}}}},
			"agreement lib secp256k1/decred: set either Impl or Unavailable"},
		{"BLS12-381 has its own kind", []Suite{{Name: "s", FamilyAgree: []FamilyAgreeLib{{Family: vocab.BLS12381, Lib: vocab.Blst, Impl: 1}}}},
			"family bls12-381 has agreement libraries of its own kind"},
		{"KZG has its own check", []Suite{{Name: "s", Checks: []FamilyCheck{{Family: vocab.KZG, Run: secpCheck.Run}}}},
			"agreement check of kzg: its libraries are of the family's own kind, so RunOwn and not Run is set"},
		{"an unknown family", []Suite{{Name: "s", Checks: []FamilyCheck{{Family: "ed25519", Run: secpCheck.Run}}}},
			`family "ed25519" is not one of bls12-381, kzg, secp256k1, bn254, ml-kem, ml-dsa, slh-dsa`},
		{"a check without Run", []Suite{{Name: "s", Checks: []FamilyCheck{{Family: vocab.Secp256k1}}}},
			"agreement check of secp256k1: Run is nil"},
		{"key operations of another family's type", []Suite{{Name: "s", Families: []Family{{Family: vocab.Secp256k1, Subject: "secp256k1",
			KeyOps: map[vocab.Type][]vocab.Op{vocab.Signature: {vocab.Verify}}}}}},
			"family secp256k1: key operations of type Signature, which is not one of its types"},
		{"a key operation of another family", []Suite{{Name: "s", Families: []Family{{Family: vocab.Secp256k1, Subject: "secp256k1",
			KeyOps: map[vocab.Type][]vocab.Op{vocab.Secp256k1Signature: {vocab.Verify, vocab.FastAggregateVerify}}}}}},
			"family secp256k1: key operation fast-aggregate-verify of type Secp256k1Signature is not an operation of the family"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewRegistry(tt.suites...)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("got error %v, want none", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("got error %v, want one containing %q", err, tt.want)
			case tt.want != "" && r != nil:
				t.Errorf("got a registry, want none")
			}
		})
	}
}

// TestRegistryKeyOps: the registry's key operations are those of its
// families' types, each family's as it gave them.
func TestRegistryKeyOps(t *testing.T) {
	secp := map[vocab.Type][]vocab.Op{vocab.Secp256k1Signature: {vocab.Recover, vocab.Verify}}
	bn := map[vocab.Type][]vocab.Op{vocab.BN254G1: {vocab.Add}}
	r, err := NewRegistry(
		Suite{Name: "a", Families: []Family{{Family: vocab.Secp256k1, Subject: "secp256k1", KeyOps: secp}}},
		Suite{Name: "b", Families: []Family{{Family: vocab.BN254, Subject: "BN254", KeyOps: bn}, {Family: vocab.MLKEM, Subject: "ML-KEM"}}},
	)
	if err != nil {
		t.Fatal(err)
	}
	got := r.KeyOps()
	want := map[vocab.Type][]vocab.Op{vocab.Secp256k1Signature: {vocab.Recover, vocab.Verify}, vocab.BN254G1: {vocab.Add}}
	if !maps.EqualFunc(got, want, slices.Equal) {
		t.Errorf("KeyOps: got %v, want %v", got, want)
	}
}

// TestCheckOpOfANewFamily: an operation of a new family is checked
// against its Want, and a wrong result names where the known one comes
// from.
func TestCheckOpOfANewFamily(t *testing.T) {
	op := secpOp
	op.Prepare = func(OpInput) (OpHarness, error) {
		return OpHarness{Run: func() error { return nil }, Result: func() ([]byte, error) { return []byte{0}, nil }}, nil
	}
	_, err := CheckOp(op, nil)
	if err == nil || !strings.Contains(err.Error(), "wrong result: got 00, want 01 (the operation's known result (Op.Want))") {
		t.Errorf("got %v, want a wrong result naming Op.Want", err)
	}
	op.Want = func() ([]byte, error) { return nil, errors.New("no vectors") }
	if _, err := CheckOp(op, nil); err == nil || !strings.Contains(err.Error(), "no vectors") {
		t.Errorf("got %v, want Want's error", err)
	}
}

// TestNewRegistryRejectsBadKZG: an entry of the single layout without
// FixedN 1 (or FixedN 1 on another layout), a negative FixedN and an
// incomplete KZG agreement library are programming errors NewRegistry
// names.
func TestNewRegistryRejectsBadKZG(t *testing.T) {
	one := func() memprof.Case { return memprof.Case{NewOne: func() any { return new(int) }} }
	ctx := results.Key{Type: vocab.KZGContext, Lib: vocab.GoKZG, Repr: vocab.Decoded, Layout: measure.Single}
	blob := results.Key{Type: vocab.Blob, Lib: vocab.GoKZG, Repr: vocab.ByteForm, Layout: measure.Pointer}
	tests := []struct {
		name  string
		suite Suite
		want  string
	}{
		{"single without FixedN", Suite{Name: "k", Entries: []Entry{{Key: ctx, Constructor: "c", SizeHint: 8, Case: one}}},
			"entry KZGContext/gokzg/decoded/single: an entry of the single layout, and only one, has FixedN 1 (got 0)"},
		{"FixedN 1 on a pointer entry", Suite{Name: "k", Entries: []Entry{{Key: blob, Constructor: "c", SizeHint: 8, FixedN: 1, Case: one}}},
			"entry Blob/gokzg/bytes/pointer: an entry of the single layout, and only one, has FixedN 1 (got 1)"},
		{"negative FixedN", Suite{Name: "k", Entries: []Entry{{Key: blob, Constructor: "c", SizeHint: 8, FixedN: -6, Case: one}}},
			"entry Blob/gokzg/bytes/pointer: FixedN must not be negative, got -6"},
		{"incomplete KZG agreement lib", Suite{Name: "k", KZGAgree: []KZGAgreeLib{{Lib: vocab.GoKZG, BlobToCommitment: func([]byte) ([]byte, error) { return nil, nil }}}},
			"KZG agreement lib gokzg: set either all functions or Unavailable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewRegistry(tt.suite)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// TestKZGOpsTable: every row of the table is an operation of every
// library adapter, unavailable with the adapter's reason when it has one,
// not offered when it lacks the maker, and with its known result (Want)
// and isolation when it has it.
func TestKZGOpsTable(t *testing.T) {
	why := vocab.Because(vocab.NeedsCgo, "needs cgo (test)")
	maker := Offer[KZGMaker]("test call", func(KZGInput) (KZGCall, error) { return KZGCall{}, nil })
	for _, tt := range []struct {
		name string
		impl KZGImpls
		kind vocab.Kind // of every op's Unavailable, "" for available
	}{
		{"unavailable", KZGImpls{Lib: vocab.CKZG, Param: "precompute=6", Isolate: "ckzg/precompute=6", Unavailable: why}, vocab.NeedsCgo},
		{"no makers", KZGImpls{Lib: vocab.GoKZG}, vocab.NotOffered},
		{"every maker", KZGImpls{Lib: vocab.GoKZG, Isolate: "g", CHeap: true, Impls: map[vocab.Op]Impl[KZGMaker]{
			vocab.BlobToCommitment: maker, vocab.ComputeBlobProof: maker, vocab.VerifyBlobProof: maker, vocab.VerifyBlobProofBatch: maker,
			vocab.ComputeCellsAndProofs: maker, vocab.VerifyCellProofBatch: maker, vocab.RecoverCellsAndProofs: maker}}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ops := KZGOps(tt.impl)
			if len(ops) != len(kzgRows) {
				t.Fatalf("got %d operations, want one per row, %d", len(ops), len(kzgRows))
			}
			for _, o := range ops {
				if o.Unavailable.Kind != tt.kind || o.Param != tt.impl.Param || o.Isolate != tt.impl.Isolate || o.CHeap != tt.impl.CHeap || o.Family() != vocab.KZG {
					t.Errorf("%s: got unavailable %+v, isolation %q, C heap %v; want kind %q and the adapter's settings", o.Key, o.Unavailable, o.Isolate, o.CHeap, tt.kind)
				}
				if tt.kind == "" && (o.Want == nil || o.Prepare == nil || !strings.HasPrefix(o.Note, "test call: ")) {
					t.Errorf("%s: got Want %v, Prepare %v, note %q; want both and the maker's note first", o.Key, o.Want != nil, o.Prepare != nil, o.Note)
				}
			}
			if _, err := NewRegistry(Suite{Name: tt.name, Ops: ops}); err != nil {
				t.Errorf("the table's operations do not make a registry: %v", err)
			}
		})
	}
}
