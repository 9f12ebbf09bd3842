package gate

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// TestRowIndexAgreesWithMatches: the rows Check looks at through the
// index are exactly those Selector.Matches selects, in row order, for
// selectors of every key, several values, names in another case
// (Unicode's foldings included) and values no row has.
func TestRowIndexAgreesWithMatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(vs ...string) string { return vs[rng.IntN(len(vs))] }
	var rows []results.Key
	for i := range 500 {
		k := results.Key{Type: vocab.Type(pick("G1", "G2", "Signature", "PublicKey")), Lib: vocab.Lib(pick("blst", "gnark", "circl")),
			Repr: vocab.Repr(pick("affine", "jacobian", "compressed")), Param: results.Param(pick("", "row=1", "row=2", "k=\u212a", "k=s"))}
		if i%3 == 0 {
			k.Op, k.Batch = vocab.Op(pick("verify", "sign")), 1
		} else {
			k.Layout, k.Scheme = measure.Layout(pick("pointer", "slice")), vocab.Scheme(pick("", "min-pk", "min-sig"))
		}
		rows = append(rows, k)
	}
	selectors := []Selector{
		{},
		{Type: []string{"G1"}},
		{Type: []string{"g1", "SIGNATURE"}, Lib: []string{"blst"}},
		{Lib: []string{"gnark", "Gnark"}},
		{Repr: []string{"affine"}, Layout: []string{"slice"}},
		{Op: []string{"verify"}},
		{Type: []string{"Signature"}, Scheme: []string{"min-sig"}},
		{Param: []string{"row=1"}},
		{Param: []string{"K=K"}},      // the Kelvin sign folds to k
		{Param: []string{"k=\u017f"}}, // the long s folds to s
		{Type: []string{"G1"}, Param: []string{"row=9"}},
		{Layout: []string{""}},
	}
	ix := newRowIndex(rows, func(k *results.Key) results.Key { return *k }, byType, byLib, byRepr, byLayout, byOp, byParam)
	for _, s := range selectors {
		t.Run(s.String(), func(t *testing.T) {
			var want, got []int
			for i, k := range rows {
				if s.Matches(k) {
					want = append(want, i)
				}
			}
			for _, i := range ix.candidates(s) {
				if s.Matches(rows[i]) {
					got = append(got, i)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("got rows %v, want %v", got, want)
			}
		})
	}
}

// TestFold: fold(a) == fold(b) exactly when strings.EqualFold(a, b).
func TestFold(t *testing.T) {
	words := []string{"", "a", "A", "k", "K", "\u212a", "s", "S", "\u017f", "ß", "SS", "ǅ", "ǆ", "Ǆ", "Σ", "σ", "ς", "row=1", "ROW=1", "é", "É"}
	for _, a := range words {
		for _, b := range words {
			if got, want := fold(a) == fold(b), strings.EqualFold(a, b); got != want {
				t.Errorf("fold(%q) == fold(%q) is %v, want %v (EqualFold)", a, b, got, want)
			}
		}
	}
	if t.Failed() {
		t.Log(fmt.Sprint(words))
	}
}
