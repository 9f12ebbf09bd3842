// Package bn254 is the BN254 part of the agreement check: before any
// BN254 figure is printed, the libraries must compute what the vectors say,
// byte for byte. Each available library
//
//  1. runs every vector of go-ethereum's precompile tests
//     (fixtures/bn254: bn256Add.json, bn256ScalarMul.json,
//     bn256Pairing.json) through the EIP-196/197 precompiles built on it
//     (bn254kit.PrecompileAdd, ...: the input padded, split and decoded
//     with the library's checks) and returns the expected output;
//  2. rejects every input of this project's failing vectors
//     (memprof-fail-*.json, made by the EIPs' rules, since go-ethereum
//     ships none for BN254): points off the curve, coordinates not below
//     the field modulus, G2 points outside the subgroup, truncated input;
//  3. computes the G2 additions and scalar multiplications of
//     memprof-bn254G2.json where it has G2 arithmetic, and the
//     multi-scalar multiplications of memprof-bn254MSM.json (with its own
//     multi-scalar multiplication, or with scalar multiplications and
//     additions where it has none);
//  4. decodes every point of the vectors into each representation it
//     offers and encodes it back to the same bytes.
//
// The libraries work at the same time, each on its own goroutine; their
// results are compared after, in a fixed order, so that a disagreement is
// reported the same way every time.
package bn254

import (
	"bytes"
	"fmt"
	"math/big"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/agree"
	"github.com/memprof/memprof/suites/internal/bn254kit"
	"github.com/memprof/memprof/vocab"
)

// Lib is one library's part in the check (bn254kit.Curve.AgreeLib makes
// it); it is the Impl of the library's suites.FamilyAgreeLib.
type Lib = bn254kit.AgreeLib

// Check returns the family's agreement check, for the registry.
func Check() suites.FamilyCheck {
	return suites.FamilyCheck{Family: vocab.BN254, Run: Run,
		Checks: "go-ethereum's EIP-196/197 precompile vectors byte for byte; this project's failing vectors rejected; G2 arithmetic and multi-scalar multiplications; round trips", Help: help}
}

// help is the check's paragraph in verify's help (suites.FamilyCheck.Help).
const help = `BN254: gnark-crypto and go-ethereum's bn256-gnark, bn256-cloudflare and
bn256-google (all pure Go) run go-ethereum's EIP-196/197 precompile vectors
(fixtures/bn254: bn256Add, bn256ScalarMul, bn256Pairing) through the
precompiles built on each (input padded and split as the EVM reads it) and
must return every output byte for byte; refuse every input of this project's
failing vectors (points off the curve, coordinates not below the field
modulus, G2 points outside the subgroup, truncated input); compute its G2
additions and scalar multiplications and the multi-scalar multiplications;
and round-trip every point through each representation.`

// Suite is the suite that gives the registry the check; the libraries'
// suites give their parts.
func Suite() suites.Suite {
	return suites.Suite{Name: "bn254 agreement", Checks: []suites.FamilyCheck{Check()}, Families: []suites.Family{Family()}}
}

// Run is the check on the registry's BN254 libraries (Check's Run).
func Run(libs []suites.FamilyAgreeLib) (*suites.AgreeReport, error) {
	var impls []Lib
	var unavailable []suites.FamilyAgreeLib
	for _, l := range libs {
		if !l.Unavailable.IsZero() {
			unavailable = append(unavailable, l)
			continue
		}
		impl, ok := l.Impl.(Lib)
		if !ok {
			return nil, fmt.Errorf("checking BN254 agreement: library %s gives a %T, want a bn254.Lib", l.Lib, l.Impl)
		}
		impls = append(impls, impl)
	}
	rep, err := CheckLibs(impls)
	if rep != nil {
		for _, l := range unavailable {
			rep.Unavailable[l.Lib] = l.Unavailable.Reason
		}
	}
	return rep, err
}

// naiveMSMSize is the multi-scalar multiplication the libraries without
// one compute with scalar multiplications and additions: a G2 scalar
// multiplication in math/big takes milliseconds.
const naiveMSMSize = 4

// agreementMSMSizes are the multi-scalar multiplications the check runs:
// naiveMSMSize, and the sizes of the operations whose points decode in a
// fraction of a second (the largest is checked against the file when its
// operation runs).
var agreementMSMSizes = []int{naiveMSMSize, suites.OpMSMSizes[0], suites.OpMSMSizes[1]}

// testCase is one case of the check: what a library runs, and either the
// output it must return or, for a failing vector, that it must refuse.
type testCase struct {
	name  string // the file and the vector
	check string // what is compared: "bn256Add", "G2 addition", ...
	// applies reports whether the library takes part (a G2 addition needs
	// G2 arithmetic).
	applies func(l Lib) bool
	run     func(l Lib) ([]byte, error)
	want    []byte
	fails   bool
	// reason is what a failing vector breaks (its ExpectedError).
	reason string
}

func always(Lib) bool { return true }

// cases builds every case of the check from the embedded vectors.
func cases() ([]testCase, error) {
	var out []testCase
	runs := map[string]func(l Lib, in []byte) ([]byte, error){
		"bn256Add":       bn254kit.PrecompileAdd,
		"bn256ScalarMul": bn254kit.PrecompileScalarMul,
		"bn256Pairing":   bn254kit.PrecompilePairing,
	}
	for _, f := range []struct{ file, precompile string }{
		{fixtures.BN254AddFile, "bn256Add"}, {fixtures.BN254ScalarMulFile, "bn256ScalarMul"}, {fixtures.BN254PairingFile, "bn256Pairing"},
		{fixtures.BN254FailAddFile, "bn256Add"}, {fixtures.BN254FailScalarMulFile, "bn256ScalarMul"}, {fixtures.BN254FailPairingFile, "bn256Pairing"},
	} {
		file, err := fixtures.LoadPrecompileFile(fixtures.BN254Dir, f.file)
		if err != nil {
			return nil, err
		}
		run := runs[f.precompile]
		for _, v := range file.Vectors {
			input := v.Input
			out = append(out, testCase{name: f.file + ": " + v.Name, check: f.precompile, applies: always,
				run: func(l Lib) ([]byte, error) { return run(l, input) }, want: v.Expected, fails: v.Fails(), reason: v.ExpectedError})
		}
	}
	g2, err := fixtures.LoadPrecompileFile(fixtures.BN254Dir, fixtures.BN254G2File)
	if err != nil {
		return nil, err
	}
	for _, v := range g2.Vectors {
		c, err := g2Case(v)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	msm, err := fixtures.LoadBN254MSM()
	if err != nil {
		return nil, err
	}
	for _, isG2 := range []bool{false, true} {
		for _, n := range agreementMSMSizes {
			want := msm.Result(isG2, n)
			if want == nil {
				return nil, fmt.Errorf("%s/%s has no result of %d points", fixtures.BN254Dir, fixtures.BN254MSMFile, n)
			}
			out = append(out, msmCase(isG2, n, want, n == naiveMSMSize))
		}
	}
	return out, nil
}

// g2Case is a vector of fixtures.BN254G2File: an addition (256 bytes of
// input) or a scalar multiplication (160).
func g2Case(v fixtures.PrecompileVector) (testCase, error) {
	name := fixtures.BN254G2File + ": " + v.Name
	in := v.Input
	switch len(in) {
	case 2 * bn254kit.G2Size:
		return testCase{name: name, check: "G2 addition", applies: func(l Lib) bool { return l.G2Add != nil },
			run: func(l Lib) ([]byte, error) { return l.G2Add(in[:bn254kit.G2Size], in[bn254kit.G2Size:]) }, want: v.Expected}, nil
	case bn254kit.G2Size + bn254kit.ScalarSize:
		k := new(big.Int).SetBytes(in[bn254kit.G2Size:])
		return testCase{name: name, check: "G2 scalar multiplication", applies: func(l Lib) bool { return l.G2ScalarMul != nil },
			run: func(l Lib) ([]byte, error) { return l.G2ScalarMul(in[:bn254kit.G2Size], k) }, want: v.Expected}, nil
	}
	return testCase{}, fmt.Errorf("%s: %d bytes of input, want an addition's %d or a scalar multiplication's %d", name, len(in), 2*bn254kit.G2Size, bn254kit.G2Size+bn254kit.ScalarSize)
}

// msmCase is the multi-scalar multiplication of n points: with the
// library's own where it has one, else (when naive is set) as scalar
// multiplications and additions.
func msmCase(isG2 bool, n int, want []byte, naive bool) testCase {
	typ := vocab.BN254G1
	if isG2 {
		typ = vocab.BN254G2
	}
	points := bn254kit.MSMPoints(typ, n)
	scalars := make([]*big.Int, n)
	for i := range scalars {
		scalars[i] = bn254kit.MSMScalar(i)
	}
	add := func(l Lib) func(a, b []byte) ([]byte, error) {
		if isG2 {
			return l.G2Add
		}
		return l.G1Add
	}
	mul := func(l Lib) func(p []byte, k *big.Int) ([]byte, error) {
		if isG2 {
			return l.G2ScalarMul
		}
		return l.G1ScalarMul
	}
	return testCase{
		name: fmt.Sprintf("%s: %s of %d points", fixtures.BN254MSMFile, typ, n), check: "multi-scalar multiplication",
		applies: func(l Lib) bool { return l.MSM != nil || (naive && add(l) != nil && mul(l) != nil) },
		run: func(l Lib) ([]byte, error) {
			if l.MSM != nil {
				return l.MSM(isG2, points, scalars)
			}
			sum := make([]byte, len(want)) // the point at infinity
			for i := range points {
				p, err := mul(l)(points[i], scalars[i])
				if err != nil {
					return nil, err
				}
				if sum, err = add(l)(sum, p); err != nil {
					return nil, err
				}
			}
			return sum, nil
		},
		want: want,
	}
}

// outcome is what one library returned for one case.
type outcome struct {
	ran bool
	out []byte
	err error
}

// CheckLibs checks libs against the embedded vectors; see the package
// documentation. The report is returned with the error too. The error is
// an *agree.Disagreement when a library computes something else or accepts
// what it must reject, or another error when the check cannot run.
func CheckLibs(libs []Lib) (*suites.AgreeReport, error) {
	cs, err := cases()
	if err != nil {
		return nil, err
	}
	points, err := roundTripPoints()
	if err != nil {
		return nil, err
	}
	rep, avail, err := agree.Available("BN254 agreement", len(cs)+len(points), libs, func(l Lib) (vocab.Lib, vocab.Why) { return l.Lib, vocab.Why{} })
	if err != nil {
		return rep, err
	}
	results := agree.PerLib(avail, func(l Lib) []outcome {
		out := make([]outcome, len(cs))
		agree.Each(len(cs), func(i int) {
			if c := cs[i]; c.applies(l) {
				b, err := c.run(l)
				out[i] = outcome{ran: true, out: b, err: err}
			}
		})
		return out
	})
	for i, c := range cs {
		if d := compare(c, avail, results, i); d != nil {
			return rep, d
		}
	}
	for _, p := range points {
		for _, l := range avail {
			if d := roundTrip(l, p); d != nil {
				return rep, d
			}
		}
	}
	return rep, nil
}

// compare returns the disagreement of case i, or nil.
func compare(c testCase, libs []Lib, results [][]outcome, i int) *agree.Disagreement {
	var agreeing []vocab.Lib
	for j, l := range libs {
		if o := results[j][i]; o.ran && o.err == nil && !c.fails && bytes.Equal(o.out, c.want) {
			agreeing = append(agreeing, l.Lib)
		}
	}
	against := "go-ethereum's vectors (" + fixtures.BN254Dir + ")"
	if len(c.name) > 8 && c.name[:8] == "memprof-" {
		against = "this project's vectors (" + fixtures.BN254Dir + ", made by the EIP-196/197 rules)"
	}
	for j, l := range libs {
		o := results[j][i]
		switch {
		case !o.ran:
		case c.fails && o.err == nil:
			return &agree.Disagreement{Case: c.name, Check: c.check, Lib: l.Lib, Against: against, Got: o.out,
				Detail: "accepts an input the EIP-196/197 rules reject (" + c.reason + ")"}
		case !c.fails && o.err != nil:
			return &agree.Disagreement{Case: c.name, Check: c.check, Lib: l.Lib, Against: against, Detail: o.err.Error(), Agreeing: agreeing}
		case !c.fails && !bytes.Equal(o.out, c.want):
			return &agree.Disagreement{Case: c.name, Check: c.check, Lib: l.Lib, Against: against, Got: o.out, Want: c.want, Agreeing: agreeing}
		}
	}
	return nil
}

// point is a point of the vectors to round-trip.
type point struct {
	typ  vocab.Type
	enc  []byte
	from string // the vector it comes from
}

// roundTripPoints are the distinct points of go-ethereum's addition
// vectors (G1, the input padded as the precompile reads it) and pairing
// vectors (G2).
func roundTripPoints() ([]point, error) {
	var out []point
	seen := map[string]bool{}
	add := func(typ vocab.Type, enc []byte, from string) {
		if !seen[string(enc)] {
			seen[string(enc)] = true
			out = append(out, point{typ, enc, from})
		}
	}
	f, err := fixtures.LoadPrecompileFile(fixtures.BN254Dir, fixtures.BN254AddFile)
	if err != nil {
		return nil, err
	}
	for _, v := range f.Vectors {
		in := make([]byte, bn254kit.AddInputSize)
		copy(in, v.Input)
		add(vocab.BN254G1, in[:bn254kit.G1Size], v.Name)
		add(vocab.BN254G1, in[bn254kit.G1Size:], v.Name)
	}
	f, err = fixtures.LoadPrecompileFile(fixtures.BN254Dir, fixtures.BN254PairingFile)
	if err != nil {
		return nil, err
	}
	for _, v := range f.Vectors {
		_, g2s, err := bn254kit.SplitPairs(v.Input)
		if err != nil {
			return nil, fmt.Errorf("%s/%s: %s: %w", fixtures.BN254Dir, fixtures.BN254PairingFile, v.Name, err)
		}
		for _, q := range g2s {
			add(vocab.BN254G2, q, v.Name)
		}
	}
	return out, nil
}

// roundTrip decodes p with l into every representation and compares the
// encodings with p's.
func roundTrip(l Lib, p point) *agree.Disagreement {
	name := fmt.Sprintf("%s point of %s (%x...)", p.typ, p.from, p.enc[:8])
	trips, err := l.RoundTrips(p.typ, p.enc)
	if err != nil {
		return &agree.Disagreement{Case: name, Check: "round trip", Lib: l.Lib, Against: "the point's encoding", Detail: err.Error()}
	}
	if len(trips) == 0 {
		return &agree.Disagreement{Case: name, Check: "round trip", Lib: l.Lib, Against: "the point's encoding", Detail: "no representation round-tripped"}
	}
	for _, t := range trips {
		if !bytes.Equal(t.Encoding, p.enc) {
			return &agree.Disagreement{Case: name, Check: "round trip through " + string(t.Repr), Lib: l.Lib, Against: "the point's encoding", Got: t.Encoding, Want: p.enc}
		}
	}
	return nil
}
