package circl

import (
	"math"
	"sync"
	"testing"

	"github.com/cloudflare/circl/sign/bls"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/suitekit"
	"github.com/memprof/memprof/suites/internal/suitetest"
	"github.com/memprof/memprof/vocab"
)

func TestSuite(t *testing.T) { suitetest.CheckSuite(t, Suite()) }

// KeyGen's HMAC makes interface type assertions. The runtime caches their
// answers per call site but builds each cache on a random ~1/1024 of the
// misses, allocating it on the heap inside KeyGen: left to chance it would
// be charged to the instances of the measured pass (and stay live into the
// next case's profile in this test binary). warmKeyGen runs KeyGen enough
// times first that every such cache is built (the chance one is not is
// below 1e-8).
var warmKeyGen = sync.OnceFunc(func() {
	ikm := suitekit.IKM(0)
	for range 20_000 {
		if _, err := bls.KeyGen[MinPk](ikm, suitekit.KeyGenSalt, nil); err != nil {
			panic("circl suite: KeyGen: " + err.Error())
		}
	}
})

// TestCopiesAllocateLikeTheRealConstructor backs the entries whose
// instances are made by a cheaper call (a copy, UnmarshalBinary) than
// circl's real constructor, which does more work per instance (KeyGen's
// HKDF steps, a subgroup check, a field inversion): measured at a small N,
// the real constructor keeps alive exactly what the cheaper one does.
func TestCopiesAllocateLikeTheRealConstructor(t *testing.T) {
	real := map[suitekit.Key]memprof.Case{
		{Type: "SecretKey", Repr: "scalar", Layout: "pointer"}: suitekit.PointerCase(warmKeyGen, func(i int) *bls.PrivateKey[MinPk] {
			sk, err := bls.KeyGen[MinPk](suitekit.IKM(i), suitekit.KeyGenSalt, nil)
			if err != nil {
				return nil
			}
			return sk
		}),
	}
	suitekit.EachPoint(func(typ vocab.Type, scheme vocab.Scheme, group vocab.Type) {
		if group == vocab.G1 {
			g1.realConstructors(real, typ, scheme)
		} else {
			g2.realConstructors(real, typ, scheme)
		}
	})
	const n = 200
	for k, rc := range real {
		k.Lib = lib
		name := k.BenchName()
		t.Run(name, func(t *testing.T) {
			entry, ok := registry(t).Lookup(name)
			if !ok || !entry.Unavailable.IsZero() {
				t.Fatalf("entry %s: registered %v, unavailable %q; want an available entry", name, ok, entry.Unavailable.Reason)
			}
			c := entry.Case()
			c.Name = name
			got, err := memprof.Measure(c, memprof.N(n), memprof.SkipGC()) // bytes and objects only
			if err != nil {
				t.Fatal(err)
			}
			rc.Name = name + " (real constructor)"
			want, err := memprof.Measure(rc, memprof.N(n), memprof.SkipGC())
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got.BytesPerInstance-want.BytesPerInstance) > 0.01 || got.AllocsPerInstance != want.AllocsPerInstance || got.SlotBytes != want.SlotBytes || got.SizeofBytes != want.SizeofBytes {
				t.Errorf("copy: %.2f B, %.3f allocs, slot %.0f, sizeof %d; real constructor: %.2f B, %.3f allocs, slot %.0f, sizeof %d; want equal",
					got.BytesPerInstance, got.AllocsPerInstance, got.SlotBytes, got.SizeofBytes,
					want.BytesPerInstance, want.AllocsPerInstance, want.SlotBytes, want.SizeofBytes)
			}
		})
	}
}

func BenchmarkNew(b *testing.B) { suitetest.BenchmarkNew(b, Suite()) }

// registry is a registry of this suite alone.
func registry(t *testing.T) *suites.Registry {
	t.Helper()
	r, err := suites.NewRegistry(Suite())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// realConstructors adds to real the pointer-layout cases of point type
// typ that call circl's real constructors: UnmarshalBinary of a public
// key, SetBytes of a signature, and the two encoders.
func (g group[P, K, C, U, PP]) realConstructors(real map[suitekit.Key]memprof.Case, typ vocab.Type, scheme vocab.Scheme) {
	points := g.points(typ)
	compressed := suitekit.Vector(func(i int) []byte { return PP(&points()[i]).BytesCompressed() })
	key := func(repr vocab.Repr) suitekit.Key {
		return suitekit.Key{Type: typ, Repr: repr, Layout: measure.Pointer, Scheme: scheme}
	}
	switch typ {
	case vocab.PublicKey:
		real[key(vocab.Projective)] = suitekit.PointerCase(suitekit.Prepare(compressed), func(i int) *bls.PublicKey[K] {
			p := new(bls.PublicKey[K])
			if p.UnmarshalBinary(compressed()[i]) != nil {
				return nil
			}
			return p
		})
	case vocab.Signature:
		real[key(vocab.Projective)] = suitekit.PointerCase(suitekit.Prepare(compressed), func(i int) *P {
			p := new(P)
			if PP(p).SetBytes(compressed()[i]) != nil {
				return nil
			}
			return p
		})
	}
	real[key(vocab.Compressed)] = suitekit.PointerCase(suitekit.Prepare(points), func(i int) *C {
		return suitekit.ArrayOf[C](PP(&points()[i]).BytesCompressed())
	})
	real[key(vocab.Uncompressed)] = suitekit.PointerCase(suitekit.Prepare(points), func(i int) *U {
		return suitekit.ArrayOf[U](PP(&points()[i]).Bytes())
	})
}
