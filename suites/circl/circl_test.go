package circl

import (
	"math"
	"sync"
	"testing"

	bls12381 "github.com/cloudflare/circl/ecc/bls12381"
	"github.com/cloudflare/circl/sign/bls"

	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/suitekit"
	"github.com/memprof/memprof/suites/internal/suitetest"
)

func TestCoverage(t *testing.T) { suitetest.CheckCoverage(t, Suite()) }

func TestSchemes(t *testing.T) { suitetest.CheckSchemes(t, Suite()) }

func TestMeasurements(t *testing.T) { suitetest.CheckMeasurements(t, Suite(), 1000, 2000) }

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
// circl's real constructor, which is too slow to profile for 100,000
// instances: measured at a small N, the real constructor keeps alive
// exactly what the cheaper one does.
func TestCopiesAllocateLikeTheRealConstructor(t *testing.T) {
	pkG1 := encodings(PublicKeyPointsG1, true)
	pkG2 := encodings(PublicKeyPointsG2, true)
	real := map[suitekit.Key]memprof.Case{
		{Type: "SecretKey", Repr: "scalar", Layout: "pointer"}: suitekit.PointerCase(warmKeyGen, func(i int) *bls.PrivateKey[MinPk] {
			sk, err := bls.KeyGen[MinPk](suitekit.IKM(i), suitekit.KeyGenSalt, nil)
			if err != nil {
				return nil
			}
			return sk
		}),
		{Type: "PublicKey", Repr: "projective", Layout: "pointer", Scheme: "min-pk"}: suitekit.PointerCase(suitekit.Prepare(pkG1), func(i int) *bls.PublicKey[MinPk] {
			p := new(bls.PublicKey[MinPk])
			if p.UnmarshalBinary(pkG1()[i]) != nil {
				return nil
			}
			return p
		}),
		{Type: "PublicKey", Repr: "projective", Layout: "pointer", Scheme: "min-sig"}: suitekit.PointerCase(suitekit.Prepare(pkG2), func(i int) *bls.PublicKey[MinSig] {
			p := new(bls.PublicKey[MinSig])
			if p.UnmarshalBinary(pkG2()[i]) != nil {
				return nil
			}
			return p
		}),
		{Type: "Signature", Repr: "projective", Layout: "pointer", Scheme: "min-pk"}: suitekit.PointerCase(suitekit.Prepare(SignaturesMinPk), func(i int) *bls12381.G2 {
			p := new(bls12381.G2)
			if p.SetBytes(SignaturesMinPk()[i]) != nil {
				return nil
			}
			return p
		}),
		{Type: "Signature", Repr: "projective", Layout: "pointer", Scheme: "min-sig"}: suitekit.PointerCase(suitekit.Prepare(SignaturesMinSig), func(i int) *bls12381.G1 {
			p := new(bls12381.G1)
			if p.SetBytes(SignaturesMinSig()[i]) != nil {
				return nil
			}
			return p
		}),
	}
	for _, typ := range suitekit.PointTypes {
		for _, scheme := range suitekit.SchemesOf(typ) {
			switch suitekit.Group(typ, scheme) {
			case "G1":
				points := g1Points(typ)
				real[suitekit.Key{Type: typ, Repr: "compressed", Layout: "pointer", Scheme: scheme}] = suitekit.PointerCase(suitekit.Prepare(points), func(i int) *[g1Compressed]byte {
					return (*[g1Compressed]byte)(points()[i].BytesCompressed())
				})
				real[suitekit.Key{Type: typ, Repr: "uncompressed", Layout: "pointer", Scheme: scheme}] = suitekit.PointerCase(suitekit.Prepare(points), func(i int) *[g1Uncompressed]byte {
					return (*[g1Uncompressed]byte)(points()[i].Bytes())
				})
			case "G2":
				points := g2Points(typ)
				real[suitekit.Key{Type: typ, Repr: "compressed", Layout: "pointer", Scheme: scheme}] = suitekit.PointerCase(suitekit.Prepare(points), func(i int) *[g2Compressed]byte {
					return (*[g2Compressed]byte)(points()[i].BytesCompressed())
				})
				real[suitekit.Key{Type: typ, Repr: "uncompressed", Layout: "pointer", Scheme: scheme}] = suitekit.PointerCase(suitekit.Prepare(points), func(i int) *[g2Uncompressed]byte {
					return (*[g2Uncompressed]byte)(points()[i].Bytes())
				})
			}
		}
	}
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
			got, err := memprof.Measure(c, memprof.N(n))
			if err != nil {
				t.Fatal(err)
			}
			rc.Name = name + " (real constructor)"
			want, err := memprof.Measure(rc, memprof.N(n))
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
