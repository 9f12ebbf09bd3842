package gnark

import (
	"testing"
	"unsafe"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"

	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/suitetest"
)

// TestPreparedAgreesWithPlain checks that a prepared G2 point computes
// what the plain point does: PairFixedQ and MillerLoopFixedQ with the
// lines of Q equal Pair and MillerLoop with Q, for min-sig public keys
// and hashed points against hashed G1 points, and PairingCheckFixedQ
// decides as PairingCheck on the valid and the invalid inputs of the
// pairing-check operation.
func TestPreparedAgreesWithPlain(t *testing.T) {
	qs := append(append([]bls12381.G2Affine{}, PublicKeysG2()[:3]...), HashedG2Affine()[:2]...)
	for i, q := range qs {
		// Each use gets fresh lines: the fixed-Q functions scale the
		// lines they are given in place (see TestFixedQConsumesLines).
		lines := []Lines{bls12381.PrecomputeLines(q)}
		p := []bls12381.G1Affine{HashedG1Affine()[i%Distinct]}
		want, err := bls12381.Pair(p, []bls12381.G2Affine{q})
		if err != nil {
			t.Fatal(err)
		}
		got, err := bls12381.PairFixedQ(p, lines)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(&want) {
			t.Errorf("point %d: PairFixedQ differs from Pair", i)
		}
		wantML, err := bls12381.MillerLoop(p, []bls12381.G2Affine{q})
		if err != nil {
			t.Fatal(err)
		}
		lines[0] = bls12381.PrecomputeLines(q)
		gotML, err := bls12381.MillerLoopFixedQ(p, lines)
		if err != nil {
			t.Fatal(err)
		}
		// The Miller loops may differ by a factor the final
		// exponentiation removes.
		if a, b := bls12381.FinalExponentiation(&gotML), bls12381.FinalExponentiation(&wantML); !a.Equal(&b) {
			t.Errorf("point %d: MillerLoopFixedQ and MillerLoop differ after the final exponentiation", i)
		}
	}
	d, err := pairingInputs()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		ps   []bls12381.G1Affine
		want bool
	}{{"valid", d.ps, true}, {"other message", d.wrong, false}} {
		t.Run(tt.name, func(t *testing.T) {
			plain, err := bls12381.PairingCheck(tt.ps, d.qs)
			if err != nil {
				t.Fatal(err)
			}
			prepared, err := bls12381.PairingCheckFixedQ(tt.ps, append([]Lines(nil), d.lines...))
			if err != nil {
				t.Fatal(err)
			}
			if plain != tt.want || prepared != tt.want {
				t.Errorf("got PairingCheck %v, PairingCheckFixedQ %v; want both %v", plain, prepared, tt.want)
			}
		})
	}
}

// TestPreparedEntry measures the prepared G2 point with the engine: one
// object per instance, the size class of unsafe.Sizeof(Lines{})
// (suitetest.CheckEntry derives it from runtime.MemStats.BySize), and
// far larger than the affine point it replaces.
func TestPreparedEntry(t *testing.T) {
	e := preparedEntry()
	if e.SizeHint != unsafe.Sizeof(Lines{}) {
		t.Fatalf("got size hint %d, want unsafe.Sizeof(Lines{}) %d", e.SizeHint, unsafe.Sizeof(Lines{}))
	}
	r := suitetest.CheckEntry(t, e)
	if r == nil {
		return
	}
	if affine := float64(unsafe.Sizeof(bls12381.G2Affine{})); r.BytesPerInstance < 100*affine {
		t.Errorf("got %.0f B per prepared point, want over 100 × the %.0f B of an affine point", r.BytesPerInstance, affine)
	}
}

// TestSpeedOpsListed checks that the pairing checks and multi-scalar
// multiplications are among the suite's operations, with their paths.
func TestSpeedOpsListed(t *testing.T) {
	want := map[string]string{
		"G2/gnark/affine op=pairing-check":             "PairingCheck",
		"G2/gnark/prepared op=pairing-check":           "copy of the lines, PairingCheckFixedQ",
		"G1/gnark/affine/tasks=1 op=msm batch=64":      "(*G1Affine).MultiExp",
		"G1/gnark/affine/tasks=all op=msm batch=16384": "(*G1Affine).MultiExp",
	}
	got := map[string]suites.Op{}
	for _, o := range Suite().Ops {
		got[o.Key.String()] = o
	}
	for k, path := range want {
		o, ok := got[k]
		if !ok {
			t.Errorf("no operation %s", k)
			continue
		}
		if o.Path != path {
			t.Errorf("%s: got path %q, want %q", k, o.Path, path)
		}
		if wantCores := o.Param == "tasks=all"; o.CoresDependent != wantCores {
			t.Errorf("%s: got CoresDependent %v, want %v", k, o.CoresDependent, wantCores)
		}
	}
}

// TestFixedQConsumesLines pins the behaviour the prepared pairing check's
// harness copies the lines for: gnark-crypto's MillerLoopFixedQ scales
// the lines it is given in place, so a second use of the same lines
// computes a wrong pairing. If a new version stops doing so, the copy in
// pairingOps can go (and this test says so).
func TestFixedQConsumesLines(t *testing.T) {
	q := PublicKeysG2()[0]
	p := []bls12381.G1Affine{HashedG1Affine()[0]}
	want, err := bls12381.Pair(p, []bls12381.G2Affine{q})
	if err != nil {
		t.Fatal(err)
	}
	lines := []Lines{bls12381.PrecomputeLines(q)}
	var got [2]bool
	for i := range got {
		r, err := bls12381.PairFixedQ(p, lines)
		if err != nil {
			t.Fatal(err)
		}
		got[i] = r.Equal(&want)
	}
	if got != [2]bool{true, false} {
		t.Errorf("PairFixedQ twice on the same lines: got equal to Pair %v, want [true false] (the lines consumed by the first use)", got)
	}
}
