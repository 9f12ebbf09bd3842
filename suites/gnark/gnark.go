package gnark

import (
	"bytes"
	"sync"
	"unsafe"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/suitekit"
)

// lib is the library name in the registry.
const lib = model.Gnark

// Module is gnark-crypto's module path, whose version results record.
const Module = "github.com/consensys/gnark-crypto"

// Suite returns gnark-crypto's instance entries, operations and agreement
// library.
func Suite() suites.Suite {
	ops := operations()
	return suites.Suite{
		Name:    string(lib),
		Modules: []string{Module},
		Entries: suitekit.Entries(lib, gnarkLacks, model.Why{}, gnarkImpls()),
		Ops:     append(ops, suites.ConversionAliases(ops)...),
		Agree:   []suites.AgreeLib{agreeLib()},
	}
}

// gnarkLacks says why gnark-crypto has no such representation, or
// nothing.
func gnarkLacks(k suitekit.Key) model.Why {
	if k.Repr == model.Projective {
		return model.Because(model.NotOffered, "gnark-crypto has no exported homogeneous projective point type: G1Jac/G2Jac are Jacobian; g1JacExtended and g2Proj are unexported")
	}
	return model.Why{}
}

// gnarkImpls returns the constructor of every combination gnark offers.
func gnarkImpls() map[suitekit.Key]suitekit.Impl {
	m := map[suitekit.Key]suitekit.Impl{
		{Type: "SecretKey", Repr: "scalar", Layout: "pointer"}: {
			Constructor: "new(fr.Element) set by SetBytesCanonical of a 32-byte big-endian key from the IETF KeyGen (gnark-crypto has no KeyGen)",
			SizeHint:    unsafe.Sizeof(fr.Element{}),
			Case: func() memprof.Case {
				return suitekit.PointerCase(suitekit.Prepare(SecretKeyBytes), func(i int) *fr.Element {
					e := new(fr.Element)
					if err := e.SetBytesCanonical(SecretKeyBytes()[i]); err != nil {
						return nil
					}
					return e
				})
			},
		},
		{Type: "SecretKey", Repr: "scalar", Layout: "slice"}: {
			Constructor: "[]fr.Element, each set by SetBytesCanonical of a 32-byte big-endian key",
			SizeHint:    unsafe.Sizeof(fr.Element{}),
			Case: func() memprof.Case {
				return suitekit.SliceCase(suitekit.Prepare(SecretKeyBytes), func(dst *fr.Element, i int) {
					if err := dst.SetBytesCanonical(SecretKeyBytes()[i]); err != nil {
						panic(err)
					}
				})
			},
		},
	}
	suitekit.EachPoint(func(t model.Type, s model.Scheme, group model.Type) {
		if group == model.G1 {
			addG1(m, t, s)
		} else {
			addG2(m, t, s)
		}
	})
	return m
}

// prepareDecode is prepare for the cases that decode: it also warms the
// decoder's type-assertion cache.
func prepareDecode[T any](f func() T) func() { return func() { f(); warmDecoder() } }

// what names the values of a point type in constructor sentences.
func what(typ model.Type, scheme model.Scheme) string {
	switch typ {
	case "PublicKey":
		return "a " + string(scheme) + " public key"
	case "Signature":
		return "a " + string(scheme) + " signature"
	}
	return "a hash-to-curve point"
}

// Decoder.Decode asserts its argument to io.ReaderFrom. The runtime
// caches the answer per call site, but builds that cache on a random
// ~1/1024 of the misses, allocating it on the heap inside Decode: left to
// chance it would be charged once to the instances of the measured pass.
// warmDecoder decodes enough points before measuring (from Prepare) that
// the cache holds both point types (the chance it does not is below 1e-9).
var warmDecoder = sync.OnceFunc(func() {
	g1 := rawG1(HashedG1Affine)()
	g2 := rawG2(HashedG2Affine)()
	var p1 bls12381.G1Affine
	var p2 bls12381.G2Affine
	for i := range 40_000 {
		decodeG1(&p1, g1[i%Distinct])
		decodeG2(&p2, g2[i%Distinct])
	}
})

// pointDecoder is one gnark Decoder without subgroup checks, reused for
// every point as a program reading a stream of points would: decodeG1 and
// decodeG2 point its reader at the next encoding. Cases run one at a time
// (instances are made sequentially), so sharing it is safe.
var pointDecoder = sync.OnceValues(func() (*bytes.Reader, *bls12381.Decoder) {
	r := bytes.NewReader(nil)
	return r, bls12381.NewDecoder(r, bls12381.NoSubgroupChecks())
})

// decodeG1 sets dst from an encoding with the shared Decoder.
func decodeG1(dst *bls12381.G1Affine, enc []byte) *bls12381.G1Affine {
	r, dec := pointDecoder()
	r.Reset(enc)
	if err := dec.Decode(dst); err != nil {
		return nil
	}
	return dst
}

// decodeG2 is decodeG1 for G2.
func decodeG2(dst *bls12381.G2Affine, enc []byte) *bls12381.G2Affine {
	r, dec := pointDecoder()
	r.Reset(enc)
	if err := dec.Decode(dst); err != nil {
		return nil
	}
	return dst
}

// addG1 adds the G1 constructors of a point type: affine, jacobian,
// compressed and uncompressed, in both layouts.
func addG1(m map[suitekit.Key]suitekit.Impl, typ model.Type, scheme model.Scheme) {
	key := func(repr model.Repr, layout model.Layout) suitekit.Key {
		return suitekit.Key{Type: typ, Repr: repr, Layout: layout, Scheme: scheme}
	}
	values := g1Values(typ)
	raw := rawG1(values)
	v := what(typ, scheme)
	affine, jac := unsafe.Sizeof(bls12381.G1Affine{}), unsafe.Sizeof(bls12381.G1Jac{})

	m[key("affine", "pointer")] = suitekit.Impl{
		Constructor: "new(bls12381.G1Affine) set by a reused Decoder (NoSubgroupChecks) decoding " + v + "'s 96-byte uncompressed encoding (SetBytes always checks the subgroup, ~36 µs)",
		SizeHint:    affine,
		Case: func() memprof.Case {
			return suitekit.PointerCase(prepareDecode(raw), func(i int) *bls12381.G1Affine {
				return decodeG1(new(bls12381.G1Affine), raw()[i])
			})
		},
	}
	if typ == "G1" {
		m[key("affine", "slice")] = suitekit.Impl{
			Constructor: "bls12381.BatchJacobianToAffineG1 of n Jacobian hash-to-curve points (the library allocates the []G1Affine)",
			SizeHint:    affine,
			Case: func() memprof.Case {
				var in []bls12381.G1Jac
				return suitekit.BatchSliceCase(suitekit.Prepare(HashedG1), func(n int) {
					in = make([]bls12381.G1Jac, n)
					for i := range in {
						in[i] = HashedG1()[i%Distinct]
					}
				}, func(n int) []bls12381.G1Affine { return bls12381.BatchJacobianToAffineG1(in[:n]) })
			},
		}
	} else {
		m[key("affine", "slice")] = suitekit.Impl{
			Constructor: "[]bls12381.G1Affine, each set by a reused Decoder (NoSubgroupChecks) decoding " + v + "'s 96-byte uncompressed encoding",
			SizeHint:    affine,
			Case: func() memprof.Case {
				return suitekit.SliceCase(prepareDecode(raw), func(dst *bls12381.G1Affine, i int) {
					if decodeG1(dst, raw()[i]) == nil {
						panic("gnark suite: decoding a G1 point failed")
					}
				})
			},
		}
	}
	m[key("jacobian", "pointer")] = suitekit.Impl{
		Constructor: "new(bls12381.G1Jac) set by FromAffine of " + v,
		SizeHint:    jac,
		Case: func() memprof.Case {
			return suitekit.PointerCase(suitekit.Prepare(values), func(i int) *bls12381.G1Jac {
				return new(bls12381.G1Jac).FromAffine(&values()[i])
			})
		},
	}
	m[key("jacobian", "slice")] = suitekit.Impl{
		Constructor: "[]bls12381.G1Jac, each set by FromAffine of " + v,
		SizeHint:    jac,
		Case: func() memprof.Case {
			return suitekit.SliceCase(suitekit.Prepare(values), func(dst *bls12381.G1Jac, i int) { dst.FromAffine(&values()[i]) })
		},
	}
	m[key("compressed", "pointer")] = suitekit.Impl{
		Constructor: "(*bls12381.G1Affine).Bytes of " + v + " (a [48]byte returned by value), kept on the heap as *[48]byte",
		SizeHint:    bls12381.SizeOfG1AffineCompressed,
		Case: func() memprof.Case {
			return suitekit.PointerCase(suitekit.Prepare(values), func(i int) *[bls12381.SizeOfG1AffineCompressed]byte {
				b := values()[i].Bytes()
				return &b
			})
		},
	}
	m[key("compressed", "slice")] = suitekit.Impl{
		Constructor: "[][48]byte, each set to (*bls12381.G1Affine).Bytes of " + v,
		SizeHint:    bls12381.SizeOfG1AffineCompressed,
		Case: func() memprof.Case {
			return suitekit.SliceCase(suitekit.Prepare(values), func(dst *[bls12381.SizeOfG1AffineCompressed]byte, i int) {
				*dst = values()[i].Bytes()
			})
		},
	}
	m[key("uncompressed", "pointer")] = suitekit.Impl{
		Constructor: "(*bls12381.G1Affine).RawBytes of " + v + " (a [96]byte returned by value), kept on the heap as *[96]byte",
		SizeHint:    bls12381.SizeOfG1AffineUncompressed,
		Case: func() memprof.Case {
			return suitekit.PointerCase(suitekit.Prepare(values), func(i int) *[bls12381.SizeOfG1AffineUncompressed]byte {
				b := values()[i].RawBytes()
				return &b
			})
		},
	}
	m[key("uncompressed", "slice")] = suitekit.Impl{
		Constructor: "[][96]byte, each set to (*bls12381.G1Affine).RawBytes of " + v,
		SizeHint:    bls12381.SizeOfG1AffineUncompressed,
		Case: func() memprof.Case {
			return suitekit.SliceCase(suitekit.Prepare(values), func(dst *[bls12381.SizeOfG1AffineUncompressed]byte, i int) {
				*dst = values()[i].RawBytes()
			})
		},
	}
}

// addG2 adds the G2 constructors of a point type: affine, jacobian,
// compressed and uncompressed, in both layouts.
func addG2(m map[suitekit.Key]suitekit.Impl, typ model.Type, scheme model.Scheme) {
	key := func(repr model.Repr, layout model.Layout) suitekit.Key {
		return suitekit.Key{Type: typ, Repr: repr, Layout: layout, Scheme: scheme}
	}
	values := g2Values(typ)
	raw := rawG2(values)
	v := what(typ, scheme)
	affine, jac := unsafe.Sizeof(bls12381.G2Affine{}), unsafe.Sizeof(bls12381.G2Jac{})

	m[key("affine", "pointer")] = suitekit.Impl{
		Constructor: "new(bls12381.G2Affine) set by a reused Decoder (NoSubgroupChecks) decoding " + v + "'s 192-byte uncompressed encoding (SetBytes always checks the subgroup, ~47 µs)",
		SizeHint:    affine,
		Case: func() memprof.Case {
			return suitekit.PointerCase(prepareDecode(raw), func(i int) *bls12381.G2Affine {
				return decodeG2(new(bls12381.G2Affine), raw()[i])
			})
		},
	}
	m[key("affine", "slice")] = suitekit.Impl{
		Constructor: "[]bls12381.G2Affine, each set by a reused Decoder (NoSubgroupChecks) decoding " + v + "'s 192-byte uncompressed encoding",
		SizeHint:    affine,
		Case: func() memprof.Case {
			return suitekit.SliceCase(prepareDecode(raw), func(dst *bls12381.G2Affine, i int) {
				if decodeG2(dst, raw()[i]) == nil {
					panic("gnark suite: decoding a G2 point failed")
				}
			})
		},
	}
	m[key("jacobian", "pointer")] = suitekit.Impl{
		Constructor: "new(bls12381.G2Jac) set by FromAffine of " + v,
		SizeHint:    jac,
		Case: func() memprof.Case {
			return suitekit.PointerCase(suitekit.Prepare(values), func(i int) *bls12381.G2Jac {
				return new(bls12381.G2Jac).FromAffine(&values()[i])
			})
		},
	}
	m[key("jacobian", "slice")] = suitekit.Impl{
		Constructor: "[]bls12381.G2Jac, each set by FromAffine of " + v,
		SizeHint:    jac,
		Case: func() memprof.Case {
			return suitekit.SliceCase(suitekit.Prepare(values), func(dst *bls12381.G2Jac, i int) { dst.FromAffine(&values()[i]) })
		},
	}
	m[key("compressed", "pointer")] = suitekit.Impl{
		Constructor: "(*bls12381.G2Affine).Bytes of " + v + " (a [96]byte returned by value), kept on the heap as *[96]byte",
		SizeHint:    bls12381.SizeOfG2AffineCompressed,
		Case: func() memprof.Case {
			return suitekit.PointerCase(suitekit.Prepare(values), func(i int) *[bls12381.SizeOfG2AffineCompressed]byte {
				b := values()[i].Bytes()
				return &b
			})
		},
	}
	m[key("compressed", "slice")] = suitekit.Impl{
		Constructor: "[][96]byte, each set to (*bls12381.G2Affine).Bytes of " + v,
		SizeHint:    bls12381.SizeOfG2AffineCompressed,
		Case: func() memprof.Case {
			return suitekit.SliceCase(suitekit.Prepare(values), func(dst *[bls12381.SizeOfG2AffineCompressed]byte, i int) {
				*dst = values()[i].Bytes()
			})
		},
	}
	m[key("uncompressed", "pointer")] = suitekit.Impl{
		Constructor: "(*bls12381.G2Affine).RawBytes of " + v + " (a [192]byte returned by value), kept on the heap as *[192]byte",
		SizeHint:    bls12381.SizeOfG2AffineUncompressed,
		Case: func() memprof.Case {
			return suitekit.PointerCase(suitekit.Prepare(values), func(i int) *[bls12381.SizeOfG2AffineUncompressed]byte {
				b := values()[i].RawBytes()
				return &b
			})
		},
	}
	m[key("uncompressed", "slice")] = suitekit.Impl{
		Constructor: "[][192]byte, each set to (*bls12381.G2Affine).RawBytes of " + v,
		SizeHint:    bls12381.SizeOfG2AffineUncompressed,
		Case: func() memprof.Case {
			return suitekit.SliceCase(suitekit.Prepare(values), func(dst *[bls12381.SizeOfG2AffineUncompressed]byte, i int) {
				*dst = values()[i].RawBytes()
			})
		},
	}
}
