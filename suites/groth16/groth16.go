// Package groth16 is the scenario of a Groth16 verifying key on BN254
// (the type Groth16VerifyingKey), the object a verifier keeps for each
// circuit it checks proofs of:
//
//   - its fixed points, one key per process (the single layout) and one
//     per circuit of a verifier of many (the pointer layout, 1,000 keys by
//     default, where the collector's figures per key resolve): plain,
//     α in G1 and β, γ, δ in G2 as each library keeps points (gnark-crypto
//     and bn256-gnark affine, bn256-cloudflare and bn256-google their
//     wrappers), against prepared, what gnark-crypto's verifier keeps
//     instead of β, γ and δ: e(α, β) in GT and the Miller-loop lines of -γ
//     and -δ (PairingCheckFixedQ's input), which spare each verification
//     the Miller loop's G2 arithmetic for the lines' bytes (two
//     [2][66]LineEvaluationAff per key; the BN254G2 pairing checks from
//     affine and from prepared points time what that buys);
//   - its IC (the G1 points K_i, one per public input and one more) of a
//     circuit with 999 public inputs, 1,000 points in one slice (the slice
//     layout), in every representation of BN254G1 each library offers: the
//     BN254 suites' own slice cases, at the key's size.
//
// The figures per entry are the Go heap bytes, the collector's scan bytes
// and its mark time, so a verifier's memory for many circuits, and what
// each form makes every collection do, can be read off. The proof
// verification itself is timed by the BN254G2 pairing checks from affine
// and from prepared points.
package groth16

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc/bn254"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/bn256cloudflare"
	"github.com/memprof/memprof/suites/bn256gnark"
	"github.com/memprof/memprof/suites/bn256google"
	"github.com/memprof/memprof/suites/gnarkbn254"
	"github.com/memprof/memprof/suites/internal/bn254kit"
	"github.com/memprof/memprof/vocab"
)

// ICPoints is the number of IC points of the key's slice entries: a
// circuit with 999 public inputs.
const ICPoints = 1_000

// Suite returns the scenario's entries.
func Suite() suites.Suite {
	return suites.Suite{Name: "groth16", Entries: Entries()}
}

// Plain is a verifying key's fixed points as a library keeps its points:
// α in G1, β, γ and δ in G2.
type Plain[P1, P2 any] struct {
	Alpha              P1
	Beta, Gamma, Delta P2
}

// Prepared is what gnark-crypto's verifier keeps of the fixed points
// instead: e(α, β), and the lines of -γ and -δ, which the pairing check
// with the proof's points takes (PairingCheckFixedQ, MillerLoopFixedQ).
type Prepared struct {
	AlphaBeta          bn254.GT
	GammaNeg, DeltaNeg gnarkbn254.Lines
}

// keyPoints returns the indices in bn254kit.Points of key i's α (in G1)
// and β, γ, δ (in G2): i, i+1, i+2 and i+3 modulo the Distinct points, the
// same in every library.
func keyPoints(i int) (alpha, beta, gamma, delta int) {
	d := bn254kit.Distinct
	return i % d, (i + 1) % d, (i + 2) % d, (i + 3) % d
}

// KeysDefaultN is the number of keys the pointer layout holds when the
// user gives none: a verifier of many circuits (an aggregator, a bridge);
// the collector's figures per key resolve there, not at one key.
const KeysDefaultN = 1_000

// keysNWhy is why the pointer layout holds KeysDefaultN keys.
const keysNWhy = "a verifier of many circuits (an aggregator, a bridge) keeps one key per circuit; the collector's figures per key resolve there, not at one key"

// plainEntries are the entries of a library's plain keys: one key (the
// single layout) and one per circuit (the pointer layout), each point
// decoded by the library's Unmarshal into a new key (the G2 points copied
// from decoded ones where the library copies, as its G2 entries are).
func plainEntries[P1, P2 any](c bn254kit.Curve[P1, P2]) []suites.Entry {
	g1, g2 := c.G1, c.G2
	how := fmt.Sprintf("a new Plain{Alpha %s; Beta, Gamma, Delta %s}, each point set by Unmarshal of its EIP-196/197 encoding (%s; %s)",
		g1.Name, g2.Name, g1.Holds, g2.Holds)
	setG2 := func(dst *P2, i int) error { return g2.Unmarshal.Do(dst, bn254kit.Points(vocab.BN254G2)[i]) }
	keysN := KeysDefaultN
	if cp := g2.Copy; cp != nil {
		how += fmt.Sprintf("; in the pointer layout the G2 points are set by %s of points decoded beforehand (%s)", cp.Call, cp.Why)
		setG2 = func(dst *P2, i int) error { cp.Set(dst, &g2.Values()[i]); return nil }
	} else if g2.DefaultN > 0 {
		keysN = max(g2.DefaultN/3, 1) // three G2 points per key
	}
	keysWhy := keysNWhy
	if keysN != KeysDefaultN {
		keysWhy = fmt.Sprintf("three G2 points per key, each decoded by Unmarshal as the %s entries are at N = %d: a third of their N", g2.Type, g2.DefaultN)
	}
	key := func(i int, g2Set func(*P2, int) error) any {
		k := new(Plain[P1, P2])
		a, b, g, d := keyPoints(i)
		for _, err := range []error{g1.Unmarshal.Do(&k.Alpha, bn254kit.Points(vocab.BN254G1)[a]), g2Set(&k.Beta, b), g2Set(&k.Gamma, g), g2Set(&k.Delta, d)} {
			if err != nil {
				panic(fmt.Sprintf("groth16: %s: decoding key %d's points: %v", c.Lib, i, err))
			}
		}
		return k
	}
	prepare := func(int) error {
		bn254kit.Points(vocab.BN254G1)
		g2.Values()
		return nil
	}
	unmarshalG2 := func(dst *P2, i int) error { return g2.Unmarshal.Do(dst, bn254kit.Points(vocab.BN254G2)[i]) }
	k := results.Key{Type: vocab.Groth16VerifyingKey, Lib: c.Lib, Repr: g1.Repr, Layout: measure.Single}
	one := suites.Entry{Key: k, Constructor: how, SizeHint: unsafe.Sizeof(Plain[P1, P2]{}), FixedN: 1,
		Case: func() memprof.Case {
			return memprof.Case{Prepare: prepare, NewOne: func() any { return key(0, unmarshalG2) }}
		}}
	k.Layout = measure.Pointer
	many := suites.Entry{Key: k, Constructor: "one key per circuit, each " + how, SizeHint: unsafe.Sizeof(Plain[P1, P2]{}), DefaultN: keysN, NWhy: keysWhy,
		Case: func() memprof.Case {
			return memprof.Case{Prepare: prepare, New: func(i int) any { return key(i, setG2) }}
		}}
	return []suites.Entry{one, many}
}

// preparedKeys are the Distinct prepared keys, computed once: key i of
// points keyPoints(i).
var preparedKeys = sync.OnceValues(func() ([]Prepared, error) {
	e1, e2 := bn254kit.Points(vocab.BN254G1), bn254kit.Points(vocab.BN254G2)
	out := make([]Prepared, bn254kit.Distinct)
	for i := range out {
		var a bn254.G1Affine
		var b, g, d bn254.G2Affine
		ia, ib, ig, id := keyPoints(i)
		for _, err := range []error{set(&a, e1[ia]), set(&b, e2[ib]), set(&g, e2[ig]), set(&d, e2[id])} {
			if err != nil {
				return nil, fmt.Errorf("groth16: decoding key %d's points: %w", i, err)
			}
		}
		if err := prepare(&out[i], &a, &b, &g, &d); err != nil {
			return nil, err
		}
	}
	return out, nil
})

// prepare sets k to the prepared form of the key (α, β, γ, δ).
func prepare(k *Prepared, a *bn254.G1Affine, b, g, d *bn254.G2Affine) error {
	ab, err := bn254.Pair([]bn254.G1Affine{*a}, []bn254.G2Affine{*b})
	if err != nil {
		return fmt.Errorf("groth16: e(α, β): %w", err)
	}
	k.AlphaBeta = ab
	var ng, nd bn254.G2Affine
	ng.Neg(g)
	nd.Neg(d)
	k.GammaNeg, k.DeltaNeg = bn254.PrecomputeLines(ng), bn254.PrecomputeLines(nd)
	return nil
}

// preparedEntries are gnark-crypto's prepared keys: one key made by
// bn254.Pair and bn254.PrecomputeLines (the single layout), and one per
// circuit, each a copy of one made beforehand (the pointer layout: a
// Prepared holds no pointer, so the copy is the object).
func preparedEntries() []suites.Entry {
	how := "a new Prepared{AlphaBeta bn254.GT; GammaNeg, DeltaNeg Lines}: bn254.Pair of α and β, bn254.PrecomputeLines of -γ and -δ, the points decoded by SetBytes beforehand"
	k := results.Key{Type: vocab.Groth16VerifyingKey, Lib: vocab.Gnark, Repr: vocab.Prepared, Layout: measure.Single}
	one := suites.Entry{Key: k, Constructor: how, SizeHint: unsafe.Sizeof(Prepared{}), FixedN: 1,
		Case: func() memprof.Case {
			var a bn254.G1Affine
			var b, g, d bn254.G2Affine
			return memprof.Case{
				Prepare: func(int) error {
					e1, e2 := bn254kit.Points(vocab.BN254G1), bn254kit.Points(vocab.BN254G2)
					ia, ib, ig, id := keyPoints(0)
					return errors.Join(set(&a, e1[ia]), set(&b, e2[ib]), set(&g, e2[ig]), set(&d, e2[id]))
				},
				NewOne: func() any {
					p := new(Prepared)
					if err := prepare(p, &a, &b, &g, &d); err != nil {
						panic(err)
					}
					return p
				},
			}
		}}
	k.Layout = measure.Pointer
	many := suites.Entry{Key: k, SizeHint: unsafe.Sizeof(Prepared{}), DefaultN: KeysDefaultN, NWhy: keysNWhy,
		Constructor: "one key per circuit, each a new Prepared set to a copy of one of 64 made as in the single layout (a Prepared holds no pointer: the copy is the object)",
		Case: func() memprof.Case {
			return memprof.Case{
				Prepare: func(int) error { _, err := preparedKeys(); return err },
				New: func(i int) any {
					ks, _ := preparedKeys()
					p := new(Prepared)
					*p = ks[i%len(ks)]
					return p
				},
			}
		}}
	return []suites.Entry{one, many}
}

func set[P interface{ SetBytes([]byte) (int, error) }](p P, enc []byte) error {
	_, err := p.SetBytes(enc)
	return err
}

// notPrepared are the entries of a library that keeps no prepared form.
func notPrepared(lib vocab.Lib) []suites.Entry {
	why := suites.NotOffered(lib, "PairingCheck takes the points and computes their lines anew: no prepared G2 form or Miller loop of fixed points is exported")
	k := results.Key{Type: vocab.Groth16VerifyingKey, Lib: lib, Repr: vocab.Prepared, Layout: measure.Single}
	one := suites.Entry{Key: k, FixedN: 1, Unavailable: why}
	k.Layout = measure.Pointer
	return []suites.Entry{one, {Key: k, Unavailable: why}}
}

// icEntries are the key's IC in every BN254G1 slice form of s: the suite's
// own slice cases, at ICPoints.
func icEntries(s suites.Suite) []suites.Entry {
	var out []suites.Entry
	for _, e := range s.Entries {
		if e.Type != vocab.BN254G1 || e.Layout != measure.Slice || !e.Unavailable.IsZero() {
			continue
		}
		e.Type = vocab.Groth16VerifyingKey
		e.DefaultN, e.FixedN = ICPoints, ICPoints
		e.NWhy = fmt.Sprintf("the IC of a circuit with %d public inputs has %d points", ICPoints-1, ICPoints)
		e.Constructor = fmt.Sprintf("the key's IC, %d G1 points (a circuit with %d public inputs) in one slice: %s", ICPoints, ICPoints-1, e.Constructor)
		out = append(out, e)
	}
	return out
}

// Entries returns the scenario's entries: each library's plain key and
// prepared key (or why it has none), then its IC forms.
func Entries() []suites.Entry {
	gn, cf, gg, bg := gnarkbn254.Curve(), bn256cloudflare.Curve(), bn256google.Curve(), bn256gnark.Curve()
	out := slices.Concat(
		plainEntries(gn), preparedEntries(),
		plainEntries(cf), notPrepared(cf.Lib),
		plainEntries(gg), notPrepared(gg.Lib),
		plainEntries(bg), notPrepared(bg.Lib))
	for _, s := range []suites.Suite{gnarkbn254.Suite(), bn256cloudflare.Suite(), bn256google.Suite(), bn256gnark.Suite()} {
		out = append(out, icEntries(s)...)
	}
	return out
}
