package workflow

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

func TestSelectCases(t *testing.T) {
	g1 := []vocab.Type{vocab.G1}
	tests := []struct {
		name        string
		sel         Selection
		measure     []string // the keys selected for measuring
		unavailable []string
		// err, when set, is the error's type: "no match" or "nothing"
		// (then doesNotApply and reasons describe it).
		err          string
		doesNotApply bool
		reasons      []string
	}{
		{name: "every G1", sel: Selection{Types: g1},
			measure:     keyStrings(g1Affine, g1Jacobian),
			unavailable: keyStrings(g1Blst, g1Scalar, g1CirclScalar, g1Circl)},
		{name: "nil selects everything", sel: Selection{},
			measure:     keyStrings(sigPk, sigSig, g1Affine, g1Jacobian, g2Crash),
			unavailable: keyStrings(g1Blst, g1Scalar, g1CirclScalar, g1Circl)},
		{name: "one scheme", sel: Selection{Types: []vocab.Type{vocab.Signature}, Scheme: vocab.MinSig},
			measure: keyStrings(sigSig), unavailable: keyStrings()},
		{name: "a scheme leaves types without one", sel: Selection{Types: []vocab.Type{vocab.Signature, vocab.G1}, Libs: []vocab.Lib{vocab.Gnark}, Reprs: []vocab.Repr{vocab.Affine}, Scheme: vocab.MinPk},
			measure: keyStrings(sigPk, g1Affine), unavailable: keyStrings()},
		{name: "a scheme list", sel: Selection{Types: []vocab.Type{vocab.Signature}, Schemes: []vocab.Scheme{vocab.MinPk, vocab.MinSig}},
			measure: keyStrings(sigPk, sigSig), unavailable: keyStrings()},
		{name: "a scheme list of one", sel: Selection{Types: []vocab.Type{vocab.Signature}, Schemes: []vocab.Scheme{vocab.MinSig}},
			measure: keyStrings(sigSig), unavailable: keyStrings()},
		{name: "a scheme list measures a type without one once", sel: Selection{Types: []vocab.Type{vocab.Signature, vocab.G1}, Libs: []vocab.Lib{vocab.Gnark}, Reprs: []vocab.Repr{vocab.Affine}, Schemes: []vocab.Scheme{vocab.MinPk, vocab.MinSig}},
			measure: keyStrings(sigPk, sigSig, g1Affine), unavailable: keyStrings()},
		{name: "a library lacks it", sel: Selection{Types: g1, Libs: []vocab.Lib{vocab.Circl}},
			err: "nothing", reasons: []string{notOffered.Reason}},
		{name: "it does not apply", sel: Selection{Types: g1, Reprs: []vocab.Repr{vocab.Scalar}},
			err: "nothing", doesNotApply: true, reasons: []string{"a G1 is a curve point (test)"}},
		{name: "lacking and not applying", sel: Selection{Types: g1, Reprs: []vocab.Repr{vocab.Scalar, vocab.Affine}, Libs: []vocab.Lib{vocab.Circl, vocab.Blst}},
			err: "nothing", reasons: []string{needsCgo.Reason, notOffered.Reason}},
		{name: "lacking and not applying in one library", sel: Selection{Types: g1, Reprs: []vocab.Repr{vocab.Scalar, vocab.Affine}, Libs: []vocab.Lib{vocab.Circl}},
			err: "nothing", reasons: []string{notOffered.Reason}},
		{name: "no such representation", sel: Selection{Types: g1, Reprs: []vocab.Repr{vocab.Compressed}}, err: "no match"},
		{name: "no such layout", sel: Selection{Types: g1, Layouts: []measure.Layout{measure.Slice}}, err: "no match"},
		{name: "ops select no case", sel: Selection{Types: g1, Ops: []vocab.Op{vocab.Sign}}, measure: keyStrings(g1Affine, g1Jacobian), unavailable: keyStrings(g1Blst, g1Scalar, g1CirclScalar, g1Circl)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			measure, unavailable, err := selectCases(testRegistry(), tt.sel)
			var nm *NoMatch
			var nothing *NothingMeasured
			switch tt.err {
			case "":
				if err != nil {
					t.Fatalf("got error %v, want none", err)
				}
				if got := keys(measure); !slices.Equal(got, tt.measure) {
					t.Errorf("measured: got %v, want %v", got, tt.measure)
				}
				if got := keys(unavailable); !slices.Equal(got, tt.unavailable) {
					t.Errorf("unavailable: got %v, want %v", got, tt.unavailable)
				}
			case "no match":
				if !errors.As(err, &nm) || nm.What != "case" || !IsUsage(err) {
					t.Errorf("got error %v, want a *NoMatch of cases, a usage error", err)
				}
			case "nothing":
				if !errors.As(err, &nothing) {
					t.Fatalf("got error %v, want a *NothingMeasured", err)
				}
				if nothing.DoesNotApply() != tt.doesNotApply || IsUsage(err) != tt.doesNotApply {
					t.Errorf("DoesNotApply %v, IsUsage %v: want both %v", nothing.DoesNotApply(), IsUsage(err), tt.doesNotApply)
				}
				if got := nothing.Reasons(); !slices.Equal(got, tt.reasons) {
					t.Errorf("reasons: got %q, want %q", got, tt.reasons)
				}
			}
		})
	}
}

func TestNothingMeasuredError(t *testing.T) {
	tests := []struct {
		why  []vocab.Why
		want string
	}{
		{[]vocab.Why{notOffered, notOffered, needsCgo}, "nothing measured: every selected case is unavailable: " + notOffered.Reason + "; " + needsCgo.Reason},
		{[]vocab.Why{notApplies, notOffered}, "nothing measured: every selected case is unavailable: " + notOffered.Reason},
		{[]vocab.Why{notApplies}, "the selection holds only combinations that do not apply to their type: a G1 is a curve point (test)"},
	}
	for _, tt := range tests {
		if got := (&NothingMeasured{What: "case", Why: tt.why}).Error(); got != tt.want {
			t.Errorf("%v: got %q, want %q", tt.why, got, tt.want)
		}
	}
}

// parseCase is one input of a list parser and what it must return: the
// names, or an error containing err.
type parseCase[T any] struct {
	in   string
	want []T
	err  string
}

// checkParse runs parse on each case.
func checkParse[T comparable](t *testing.T, name string, parse func(string) ([]T, error), tests []parseCase[T]) {
	t.Helper()
	for _, tt := range tests {
		got, err := parse(tt.in)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s(%q): got error %v, want one containing %q", name, tt.in, err, tt.err)
		case tt.err == "" && (err != nil || !slices.Equal(got, tt.want)):
			t.Errorf("%s(%q): got %v, %v; want %v", name, tt.in, got, err, tt.want)
		}
	}
}

func TestParseTypes(t *testing.T) {
	checkParse(t, "ParseTypes", ParseTypes, []parseCase[vocab.Type]{
		{"", vocab.ObjectTypes, ""},
		{"all", vocab.ObjectTypes, ""},
		{"scenarios", vocab.Scenarios, ""},
		{"EVERYTHING", vocab.Types, ""},
		{"kzg", vocab.KZGTypes, ""},
		{"Blob,KZG", vocab.KZGTypes, ""},
		{"signature, g1,Signature", []vocab.Type{vocab.Signature, vocab.G1}, ""},
		{"G2,all", append([]vocab.Type{vocab.G2}, vocab.SecretKey, vocab.PublicKey, vocab.Signature, vocab.G1), ""},
		{"Sig", nil, `unknown type "Sig": valid types are ` + vocab.Join(vocab.Types) + ", or all (the object types), scenarios, everything, or a family: bls12-381, kzg, secp256k1, bn254, ml-kem, ml-dsa, slh-dsa"},
		{"G1,,G2", nil, `type list "G1,,G2" has an empty item: remove the extra comma`},
		{"G1,", nil, `type list "G1," has an empty item`},
		// Families: a family stands for its types; all and scenarios stay
		// BLS12-381's; everything is every family's.
		{"bls12-381", append(slices.Clone(vocab.ObjectTypes), vocab.Scenarios...), ""},
		{"secp256k1", []vocab.Type{vocab.Secp256k1SecretKey, vocab.Secp256k1PublicKey, vocab.Secp256k1Signature, vocab.SenderCache}, ""},
		{"BN254", []vocab.Type{vocab.BN254G1, vocab.BN254G2, vocab.Groth16VerifyingKey}, ""},
		{"ml-kem,ML-DSA", []vocab.Type{vocab.MLKEMDecapsulationKey, vocab.MLKEMEncapsulationKey, vocab.MLKEMCiphertext, vocab.TLSHandshakes,
			vocab.MLDSAPrivateKey, vocab.MLDSAPublicKey, vocab.MLDSASignature, vocab.MLDSAPubkeyCache}, ""},
		{"slh-dsa,Signature", []vocab.Type{vocab.SLHDSAPrivateKey, vocab.SLHDSAPublicKey, vocab.SLHDSASignature, vocab.Signature}, ""},
		{"Secp256k1Signature,kzg", append([]vocab.Type{vocab.Secp256k1Signature}, vocab.KZGTypes...), ""},
		{"mlkem", nil, `unknown type "mlkem"`},
	})
}

// TestParseTypesOfEveryFamily: every family's name selects exactly the
// types whose Family it is, everything selects every family's, and all
// selects BLS12-381's object types alone, as before families.
func TestParseTypesOfEveryFamily(t *testing.T) {
	var every []vocab.Type
	for _, f := range vocab.Families {
		got, err := ParseTypes(string(f))
		if err != nil {
			t.Fatalf("ParseTypes(%q): %v", f, err)
		}
		if len(got) == 0 {
			t.Errorf("family %s selects no type", f)
		}
		for _, ty := range got {
			if ty.Family() != f {
				t.Errorf("--type %s selects %s, of family %q", f, ty, ty.Family())
			}
		}
		every = append(every, got...)
	}
	if got, _ := ParseTypes("everything"); !slices.Equal(got, every) || !slices.Equal(got, vocab.Types) {
		t.Errorf("everything: got %v, want every family's types in order %v", got, every)
	}
	want := []vocab.Type{vocab.SecretKey, vocab.PublicKey, vocab.Signature, vocab.G1, vocab.G2}
	if got, _ := ParseTypes("all"); !slices.Equal(got, want) {
		t.Errorf("all: got %v, want the BLS object matrix %v", got, want)
	}
}

// TestParseOpTypes: group names select the group's types that have
// operations (all stays the BLS ones); a type named alone is kept even
// without operations, for the workflow to refuse.
func TestParseOpTypes(t *testing.T) {
	opTypes := []vocab.Type{vocab.PublicKey, vocab.G1, vocab.Proof, vocab.KZGCell}
	parse := func(v string) ([]vocab.Type, error) { return ParseOpTypes(v, opTypes) }
	checkParse(t, "ParseOpTypes", parse, []parseCase[vocab.Type]{
		{"all", []vocab.Type{vocab.PublicKey, vocab.G1}, ""},
		{"kzg", []vocab.Type{vocab.Proof, vocab.KZGCell}, ""},
		{"everything", opTypes, ""},
		{"Blob", []vocab.Type{vocab.Blob}, ""},
		{"kzg,G1,all", []vocab.Type{vocab.Proof, vocab.KZGCell, vocab.G1, vocab.PublicKey}, ""},
		{"bls12-381", []vocab.Type{vocab.PublicKey, vocab.G1}, ""},
		// A group without operations never stands for every operation.
		{"scenarios", nil, "--type scenarios selects no type with operations: types with operations are PublicKey, G1, Proof, Cell"},
		{"secp256k1", nil, "--type secp256k1 selects no type with operations"},
		{"secp256k1,G1", []vocab.Type{vocab.G1}, ""},
		{"G1,,G2", nil, `has an empty item`},
		{"Sig", nil, `unknown type "Sig"`},
	})
}

func TestParseList(t *testing.T) {
	parseLibs := func(v string) ([]vocab.Lib, error) { return ParseList("lib", v, vocab.Libs) }
	checkParse(t, "ParseList", parseLibs, []parseCase[vocab.Lib]{
		{"", vocab.Libs, ""},
		{"ALL", vocab.Libs, ""},
		{"Gnark, blst,gnark", []vocab.Lib{vocab.Gnark, vocab.Blst}, ""},
		{"openssl", nil, `unknown lib "openssl": valid libs are blst, gnark, circl`},
		{"blst,", nil, `lib list "blst," has an empty item: remove the extra comma`},
		{"all,blst", nil, `lib list "all,blst" names all with other libs: all alone means every lib`},
	})
	// The list returned for all is the caller's to change.
	got, _ := parseLibs("")
	got[0] = "changed"
	if vocab.Libs[0] == "changed" {
		t.Errorf("ParseList returned vocab.Libs itself")
	}
}

func TestNFor(t *testing.T) {
	scenario := testRegistry().Entries()[0]
	scenario.DefaultN = 1_000_000
	plain := testRegistry().Entries()[0]
	// fixed is measured at its FixedN whatever N is given: a context (1),
	// a PeerDAS node of 768 blobs.
	fixed := testRegistry().Entries()[0]
	fixed.FixedN = 768
	tests := []struct {
		name string
		n    int
		want [3]int // for plain, for scenario, for fixed
	}{
		{"default", 0, [3]int{memprof.DefaultN, scenario.DefaultN, fixed.FixedN}},
		{"given", 1234, [3]int{1234, 1234, fixed.FixedN}},
	}
	for _, tt := range tests {
		o := Options{N: tt.n}
		if got := [3]int{o.nFor(plain), o.nFor(scenario), o.nFor(fixed)}; got != tt.want {
			t.Errorf("%s: got N %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestIsUsage(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{usagef("bad"), true},
		{fmt.Errorf("wrapped: %w", &NoMatch{What: "operation"}), true},
		{&NothingMeasured{What: "case", Why: []vocab.Why{notApplies}}, true},
		{&NothingMeasured{What: "case", Why: []vocab.Why{notApplies, needsCgo}}, false},
		{errors.New("refusing N=1"), false},
		{context.Canceled, false},
	}
	for _, tt := range tests {
		if got := IsUsage(tt.err); got != tt.want {
			t.Errorf("IsUsage(%v): got %v, want %v", tt.err, got, tt.want)
		}
	}
}

// errStop is what a Ready hook returns to stop a workflow in a test.
var errStop = errors.New("stopped by the test")

// TestRefusedBeforeRunning: a workflow that must refuse does so before
// anything runs: Ready is not called (or its error is returned as it is),
// no event is sent, and there are no results.
func TestRefusedBeforeRunning(t *testing.T) {
	g1 := Selection{Types: []vocab.Type{vocab.G1}}
	g2 := Selection{Types: []vocab.Type{vocab.G2}}
	// More than 1 MiB of estimate against 1 MiB said to be available:
	// refused before anything is allocated.
	huge := Options{N: 1 << 20, MemoryAvailable: 1 << 20}
	instances := func(sel Selection, o Options) (*results.File, error) {
		return Instances(context.Background(), testRegistry(), sel, o)
	}
	throughput := func(sel Selection, o Options) (*results.File, error) {
		return Throughput(context.Background(), testRegistry(), sel, o)
	}
	tests := []struct {
		name    string
		run     func(Selection, Options) (*results.File, error)
		sel     Selection
		opts    Options
		ready   error // what Ready returns
		readied bool  // Ready is called
		want    string
		target  any // the error's type, with usage whether IsUsage
		usage   bool
	}{
		{name: "negative N", run: instances, sel: g1, opts: Options{N: -1}, want: "N must be positive, or 0 for each case's default, got -1", target: new(*UsageError), usage: true},
		{name: "negative jobs", run: instances, sel: g1, opts: Options{Jobs: -2}, want: "jobs must be positive", target: new(*UsageError), usage: true},
		{name: "negative samples", run: throughput, sel: g1, opts: Options{Samples: -1}, want: "samples must be at least 1", target: new(*UsageError), usage: true},
		{name: "negative sample time", run: throughput, sel: g1, opts: Options{MinSample: -time.Millisecond}, want: "least sample duration must be positive", target: new(*UsageError), usage: true},
		{name: "sweep of two", run: instances, sel: g1, opts: Options{Sweep: []int{10, 20}}, want: "a sweep needs at least 3 values of N", target: new(*UsageError), usage: true},
		{name: "sweep twice the same", run: instances, sel: g1, opts: Options{Sweep: []int{10, 20, 10}}, want: "sweep: N=10 appears twice", target: new(*UsageError), usage: true},
		{name: "sweep of zero", run: instances, sel: g1, opts: Options{Sweep: []int{10, 0, 30}}, want: "sweep: N must be positive, got 0", target: new(*UsageError), usage: true},
		{name: "nothing measurable", run: instances, sel: Selection{Types: []vocab.Type{vocab.G1}, Libs: []vocab.Lib{vocab.Circl}}, want: "nothing measured: every selected case is unavailable: " + notOffered.Reason, target: new(*NothingMeasured)},
		{name: "no case", run: instances, sel: Selection{Types: []vocab.Type{vocab.PubkeyCache}}, want: "no case matches", target: new(*NoMatch), usage: true},
		{name: "operations required, none", run: instances, sel: g2, opts: Options{Throughput: ThroughputRequired}, want: "no operation matches the selection; types with operations are G1", target: new(*NoMatch), usage: true},
		{name: "operations if any, none", run: instances, sel: g2, opts: Options{Throughput: ThroughputIfAny}, ready: errStop, readied: true},
		{name: "ready refuses", run: instances, sel: g1, ready: errStop, readied: true},
		{name: "too many instances", run: instances, sel: g1, opts: huge, readied: true, want: "refusing to measure: the run would need about", target: new(*UsageError), usage: true},
		{name: "type without operations", run: throughput, sel: g2, want: "type G2 has no operations: types with operations are G1", target: new(*UsageError), usage: true},
		{name: "no operation", run: throughput, sel: Selection{Ops: []vocab.Op{vocab.Sign}}, want: "no operation matches", target: new(*NoMatch), usage: true},
		{name: "every operation unavailable", run: throughput, sel: Selection{Libs: []vocab.Lib{vocab.Blst}}, want: "nothing measured: every selected operation is unavailable: " + needsCgo.Reason, target: new(*NothingMeasured)},
		{name: "throughput ready refuses", run: throughput, sel: g1, ready: errStop, readied: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			readied, events := false, 0
			o := tt.opts
			o.Ready = func() error { readied = true; return tt.ready }
			o.Progress = func(Event) { events++ }
			rs, err := tt.run(tt.sel, o)
			if rs != nil {
				t.Errorf("got results %+v, want none", rs)
			}
			switch {
			case tt.ready != nil:
				if !errors.Is(err, tt.ready) {
					t.Errorf("got error %v, want Ready's", err)
				}
			case err == nil || !strings.Contains(err.Error(), tt.want):
				t.Errorf("got error %v, want one containing %q", err, tt.want)
			case tt.target != nil && !errors.As(err, tt.target):
				t.Errorf("got error %T, want a %T", err, tt.target)
			case IsUsage(err) != tt.usage:
				t.Errorf("IsUsage: got %v, want %v", IsUsage(err), tt.usage)
			}
			if readied != tt.readied {
				t.Errorf("Ready called: got %v, want %v", readied, tt.readied)
			}
			if events != 0 {
				t.Errorf("got %d events, want none before anything runs", events)
			}
		})
	}
}
