package pqscenarios

import (
	"crypto/ecdh"
	"crypto/mlkem"
	"math"
	"slices"
	"testing"
	"unsafe"

	"github.com/cloudflare/circl/sign/mldsa/mldsa65"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/kzgtest"
	"github.com/memprof/memprof/suites/internal/pqkit"
	"github.com/memprof/memprof/suites/internal/pqtest"
	"github.com/memprof/memprof/suites/internal/suitetest"
	"github.com/memprof/memprof/suites/stdmlkem"
	"github.com/memprof/memprof/vocab"
)

const n = 1_000

// TestShareSize checks the key share X25519MLKEM768 sends: the ML-KEM-768
// encapsulation key, then the X25519 public key (1,216 bytes).
func TestShareSize(t *testing.T) {
	xk, err := ecdh.X25519().NewPrivateKey(alicePriv)
	if err != nil {
		t.Fatal(err)
	}
	v, err := tlsValues(stdmlkem.KEM768())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(v.shares[0]), mlkem.EncapsulationKeySize768+len(xk.PublicKey().Bytes()); got != want || want != 1216 {
		t.Errorf("key share of %d bytes, want %d (the encapsulation key and the X25519 public key: 1,216)", got, want)
	}
}

// measureKey measures the entry k of the suite in process at n.
func measureKey(t *testing.T, k results.Key, opts ...memprof.Option) *memprof.Result {
	t.Helper()
	s := Suite()
	i := slices.IndexFunc(s.Entries, func(e suites.Entry) bool { return e.Key == k })
	if i < 0 || s.Entries[i].Case == nil {
		t.Fatalf("no available entry %s", k)
	}
	c := s.Entries[i].Case()
	c.Name = k.BenchName()
	r, err := memprof.Measure(c, append([]memprof.Option{memprof.N(n)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// slicePerEntry is what a slice of n pointers sized up front, held by
// pointer, costs per entry: the backing array's slot and the slice header.
func slicePerEntry(t *testing.T) float64 {
	return (kzgtest.Slot(t, unsafe.Sizeof(uintptr(0))*n, false) + kzgtest.Slot(t, unsafe.Sizeof([]byte{}), true)) / n
}

// TestHandshakes checks that a handshake keeps the sum of its parts: its
// struct, the ML-KEM key in its form (by construction), the X25519 key
// (measured alone, through the same constructor), the key share's slot
// and its pointer in the connection table.
func TestHandshakes(t *testing.T) {
	x, err := memprof.Measure(memprof.Case{Name: "x25519", New: func(i int) any {
		k, err := ecdh.X25519().NewPrivateKey(pqkit.Seed(pqkit.Distinct+i%pqkit.Distinct, 32))
		if err != nil {
			panic(err)
		}
		return k
	}}, memprof.N(n), memprof.SkipGC())
	if err != nil {
		t.Fatal(err)
	}
	dk, err := mlkem.NewDecapsulationKey768(pqkit.Seed(0, mlkem.SeedSize))
	if err != nil {
		t.Fatal(err)
	}
	dkBytes, dkObjects := pqtest.Footprint(t, dk)
	share := kzgtest.Slot(t, 1216, false)
	for _, c := range []struct {
		repr           vocab.Repr
		bytes, objects float64
	}{
		{vocab.Parsed, kzgtest.Slot(t, unsafe.Sizeof(Handshake[*mlkem.DecapsulationKey768]{}), true) + dkBytes, 1 + dkObjects},
		{vocab.Seed, kzgtest.Slot(t, unsafe.Sizeof(Handshake[[64]byte]{}), true), 1},
	} {
		k := results.Key{Type: vocab.TLSHandshakes, Lib: vocab.Stdlib, Repr: c.repr, Layout: measure.Collection, Param: "set=ML-KEM-768"}
		r := measureKey(t, k, memprof.SkipGC())
		want := c.bytes + x.BytesPerInstance + share + slicePerEntry(t)
		if math.Abs(r.BytesPerInstance-want) > 0.01 {
			t.Errorf("%s: got %.3f B per handshake, want %.3f (handshake and ML-KEM key %.0f, X25519 key %.3f, share %.0f, table %.3f)", k, r.BytesPerInstance, want, c.bytes, x.BytesPerInstance, share, slicePerEntry(t))
		}
	}
}

// TestCache checks the public-key cache: packed, N keys of the standard's
// size in one pointer-free slice (nothing for the collector to scan);
// parsed, a pointer per key and the parsed key, which the collector scans.
func TestCache(t *testing.T) {
	k := func(r vocab.Repr) results.Key {
		return results.Key{Type: vocab.MLDSAPubkeyCache, Lib: vocab.Circl, Repr: r, Layout: measure.Collection, Param: "set=ML-DSA-65"}
	}
	packed := measureKey(t, k(vocab.Packed))
	// One large object of n keys: whole pages, under a page per n.
	if lo, hi := float64(mldsa65.PublicKeySize), float64(mldsa65.PublicKeySize)+8192.0/n+1; packed.BytesPerInstance < lo || packed.BytesPerInstance > hi {
		t.Errorf("packed: got %.3f B per key, want %v to %v (the keys in one slice)", packed.BytesPerInstance, lo, hi)
	}
	if math.Abs(packed.ScanBytesPerInstance) > packed.ScanResolution {
		t.Errorf("packed: the collector scans %.3f B per key (resolution %.3f), want 0: the slice holds no pointers", packed.ScanBytesPerInstance, packed.ScanResolution)
	}
	pk, _ := mldsa65.NewKeyFromSeed(new([32]byte))
	b, _ := pqtest.Footprint(t, pk)
	parsed := measureKey(t, k(vocab.Parsed), memprof.SkipGC())
	if want := b + slicePerEntry(t); math.Abs(parsed.BytesPerInstance-want) > 0.01 {
		t.Errorf("parsed: got %.3f B per key, want %.3f (the key %.0f and its pointer)", parsed.BytesPerInstance, want, b)
	}
}

func TestOps(t *testing.T) { suitetest.CheckOps(t, Suite()) }
