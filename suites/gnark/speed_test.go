package gnark

import (
	"slices"
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
	// PrecomputeLines takes about 100 µs: two small N (the figure is
	// the same at any N, which CheckEntry checks).
	r := suitetest.CheckEntry(t, e, 500, 1500)
	if r == nil {
		return
	}
	if affine := float64(unsafe.Sizeof(bls12381.G2Affine{})); r.BytesPerInstance < 100*affine {
		t.Errorf("got %.0f B per prepared point, want over 100 × the %.0f B of an affine point", r.BytesPerInstance, affine)
	}
}

// TestSpeedOpsListed checks that the pairing checks and multi-scalar
// multiplications are among the suite's operations, with their paths,
// and that only the ones with a task per core depend on the cores.
func TestSpeedOpsListed(t *testing.T) {
	ops := Suite().Ops
	for _, tt := range []struct {
		key, path string
		cores     bool
	}{
		{"G2/gnark/affine op=pairing-check", "PairingCheck", false},
		{"G2/gnark/prepared op=pairing-check", "copy of the lines, PairingCheckFixedQ", false},
		{"G1/gnark/affine/tasks=1 op=msm batch=64", "(*G1Affine).MultiExp", false},
		{"G1/gnark/affine/tasks=all op=msm batch=16384", "(*G1Affine).MultiExp", true},
	} {
		i := slices.IndexFunc(ops, func(o suites.Op) bool { return o.Key.String() == tt.key })
		if i < 0 {
			t.Errorf("no operation %s", tt.key)
		} else if o := ops[i]; o.Path != tt.path || o.CoresDependent != tt.cores {
			t.Errorf("%s: got path %q, depends on the cores %v; want %q, %v", tt.key, o.Path, o.CoresDependent, tt.path, tt.cores)
		}
	}
}
