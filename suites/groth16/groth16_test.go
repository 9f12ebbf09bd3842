package groth16

import (
	"reflect"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/suitekit"
	"github.com/memprof/memprof/suites/internal/suitetest"
	"github.com/memprof/memprof/vocab"
)

// TestEntries: every library has its plain key in both layouts and a
// prepared one or the reason it has none; the IC entries hold ICPoints
// points, in the BN254G1 slice forms of the libraries.
func TestEntries(t *testing.T) {
	es := Entries()
	if _, err := suites.NewRegistry(suites.Suite{Name: "groth16", Entries: es}); err != nil {
		t.Fatal(err)
	}
	ic := 0
	for _, e := range es {
		switch {
		case e.Type != vocab.Groth16VerifyingKey:
			t.Errorf("%s: not a %s", e.Key, vocab.Groth16VerifyingKey)
		case e.Layout == measure.Slice:
			ic++
			if e.FixedN != ICPoints {
				t.Errorf("%s: FixedN %d, want %d", e.Key, e.FixedN, ICPoints)
			}
			c := e.Case()
			if err := c.Prepare(ICPoints); err != nil {
				t.Fatal(err)
			}
			if got := reflect.ValueOf(c.NewSlice(e.FixedN)).Len(); got != ICPoints {
				t.Errorf("%s: got %d points, want %d", e.Key, got, ICPoints)
			}
		case e.Layout == measure.Single && e.FixedN != 1:
			t.Errorf("%s: FixedN %d, want 1", e.Key, e.FixedN)
		}
	}
	// gnark: affine, jacobian, compressed, uncompressed; each go-ethereum
	// package: its point and uncompressed.
	if ic != 4+3*2 {
		t.Errorf("got %d IC entries, want 10", ic)
	}
}

// slowKeys is the number of keys measured of a library whose keys take
// milliseconds each (bn256-google's three G2 Unmarshal).
const slowKeys = 2

// TestHeld measures every available entry and checks its figures against
// what it holds by construction, and the keys of gnark-crypto against
// their types: each one object, pointer-free, in its slot (the prepared
// key's lines in whole pages).
func TestHeld(t *testing.T) {
	held := map[results.Key]suitetest.Held{}
	for _, e := range Entries() {
		if !e.Unavailable.IsZero() {
			continue
		}
		t.Run(e.BenchName(), func(t *testing.T) {
			n := suitekit.Distinct
			switch {
			case e.FixedN > 0:
				n = e.FixedN
			case e.DefaultN < KeysDefaultN:
				n = slowKeys // three G2 decodes of milliseconds per key
			}
			_, h := suitetest.CheckHeld(t, e, n)
			held[e.Key] = h
		})
	}
	type gnarkPlain = Plain[bn254.G1Affine, bn254.G2Affine]
	for _, c := range []struct {
		repr vocab.Repr
		size uintptr
	}{{vocab.Affine, suitekit.SizeOf[gnarkPlain]()}, {vocab.Prepared, suitekit.SizeOf[Prepared]()}} {
		for _, l := range []measure.Layout{measure.Single, measure.Pointer} {
			k := results.Key{Type: vocab.Groth16VerifyingKey, Lib: vocab.Gnark, Repr: c.repr, Layout: l}
			slot, err := suitetest.Slot(int64(c.size), false)
			if err != nil {
				t.Fatal(err)
			}
			if h := held[k]; h.Objects != 1 || h.Bytes != slot {
				t.Errorf("%s: holds %d objects, %d bytes (%v); want one %d-byte object in its %d-byte slot", k, h.Objects, h.Bytes, h.Sizes, c.size, slot)
			}
		}
	}
}
