//go:build cgo

package blst

import (
	"unsafe"

	blst "github.com/supranational/blst/bindings/go"

	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/suitekit"
)

// entries returns every blst entry of the matrix, with its constructor.
func entries() []suites.Entry {
	return suitekit.Entries(lib, blstLacks, model.Why{}, blstImpls())
}

// haveCgo tells the tests which variant made the entries.
const haveCgo = true

// blstImpls returns the constructor of every combination blst offers.
func blstImpls() map[suitekit.Key]suitekit.Impl {
	m := map[suitekit.Key]suitekit.Impl{
		{Type: "SecretKey", Repr: "scalar", Layout: "pointer"}: {
			Constructor: "blst.KeyGen of a 32-byte IKM (it attaches a finalizer that zeroes the key)",
			SizeHint:    unsafe.Sizeof(blst.SecretKey{}),
			Case: func() memprof.Case {
				ikm := make([][]byte, Distinct)
				for i := range ikm {
					ikm[i] = suitekit.IKM(i)
				}
				return suitekit.PointerCase(nil, func(i int) *blst.SecretKey { return blst.KeyGen(ikm[i]) })
			},
		},
		{Type: "SecretKey", Repr: "scalar", Layout: "slice"}: {
			Constructor: "[]blst.SecretKey, each filled by (*blst.SecretKey).Deserialize of 32 big-endian bytes",
			SizeHint:    unsafe.Sizeof(blst.SecretKey{}),
			Case: func() memprof.Case {
				return suitekit.SliceCase(suitekit.Prepare(SecretKeyBytes), func(dst *blst.SecretKey, i int) {
					dst.Deserialize(SecretKeyBytes()[i])
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

// addG1 adds the G1 constructors of a point type: affine, jacobian,
// compressed and uncompressed, in both layouts.
func addG1(m map[suitekit.Key]suitekit.Impl, typ model.Type, scheme model.Scheme) {
	key := func(repr model.Repr, layout model.Layout) suitekit.Key {
		return suitekit.Key{Type: typ, Repr: repr, Layout: layout, Scheme: scheme}
	}
	values := g1Values(typ)
	ser := serializedG1(values)
	v := what(typ, scheme)
	raw := typ == "G1"
	affine, jac := unsafe.Sizeof(blst.P1Affine{}), unsafe.Sizeof(blst.P1{})

	m[key("affine", "pointer")] = suitekit.Impl{
		Constructor: "(*blst.P1Affine).Deserialize of " + v + "'s 96-byte uncompressed encoding (Uncompress of 48 bytes adds a square root, ~15 µs)",
		SizeHint:    affine,
		Case: func() memprof.Case {
			return suitekit.PointerCase(suitekit.Prepare(ser), func(i int) *blst.P1Affine { return new(blst.P1Affine).Deserialize(ser()[i]) })
		},
	}
	if raw {
		m[key("affine", "slice")] = suitekit.Impl{
			Constructor: "blst.P1s.ToAffine of n Jacobian hash-to-curve points (the library allocates the []P1Affine)",
			SizeHint:    affine,
			Case: func() memprof.Case {
				var in blst.P1s
				return suitekit.BatchSliceCase(suitekit.Prepare(HashedG1), func(n int) {
					in = make(blst.P1s, n)
					for i := range in {
						in[i] = HashedG1()[i%Distinct]
					}
				}, func(n int) []blst.P1Affine { return in[:n].ToAffine() })
			},
		}
		m[key("jacobian", "pointer")] = suitekit.Impl{
			Constructor: "(*blst.P1).Add of two hash-to-curve points (the library allocates the sum)",
			SizeHint:    jac,
			Case: func() memprof.Case {
				return suitekit.PointerCase(suitekit.Prepare(HashedG1Affine), func(i int) *blst.P1 {
					return HashedG1()[i].Add(&HashedG1Affine()[(i+1)%Distinct])
				})
			},
		}
	} else {
		m[key("affine", "slice")] = suitekit.Impl{
			Constructor: "[]blst.P1Affine, each filled by Deserialize of " + v + "'s 96-byte uncompressed encoding",
			SizeHint:    affine,
			Case: func() memprof.Case {
				return suitekit.SliceCase(suitekit.Prepare(ser), func(dst *blst.P1Affine, i int) { dst.Deserialize(ser()[i]) })
			},
		}
		m[key("jacobian", "pointer")] = suitekit.Impl{
			Constructor: "new(blst.P1) filled by (*blst.P1).FromAffine of " + v,
			SizeHint:    jac,
			Case: func() memprof.Case {
				return suitekit.PointerCase(suitekit.Prepare(values), func(i int) *blst.P1 {
					p := new(blst.P1)
					p.FromAffine(&values()[i])
					return p
				})
			},
		}
	}
	m[key("jacobian", "slice")] = suitekit.Impl{
		Constructor: "[]blst.P1, each filled by FromAffine of " + v,
		SizeHint:    jac,
		Case: func() memprof.Case {
			return suitekit.SliceCase(suitekit.Prepare(values), func(dst *blst.P1, i int) { dst.FromAffine(&values()[i]) })
		},
	}
	m[key("compressed", "pointer")] = suitekit.Impl{
		Constructor: "(*blst.P1Affine).Compress of " + v + ", kept as *[48]byte (the library allocates the 48 bytes)",
		SizeHint:    blst.BLST_P1_COMPRESS_BYTES,
		Case: func() memprof.Case {
			return suitekit.PointerCase(suitekit.Prepare(values), func(i int) *[blst.BLST_P1_COMPRESS_BYTES]byte {
				return (*[blst.BLST_P1_COMPRESS_BYTES]byte)(values()[i].Compress())
			})
		},
	}
	m[key("compressed", "slice")] = suitekit.Impl{
		Constructor: "[][48]byte, each copied from (*blst.P1Affine).Compress of " + v,
		SizeHint:    blst.BLST_P1_COMPRESS_BYTES,
		Case: func() memprof.Case {
			return suitekit.SliceCase(suitekit.Prepare(values), func(dst *[blst.BLST_P1_COMPRESS_BYTES]byte, i int) {
				copy(dst[:], values()[i].Compress())
			})
		},
	}
	m[key("uncompressed", "pointer")] = suitekit.Impl{
		Constructor: "(*blst.P1Affine).Serialize of " + v + ", kept as *[96]byte (the library allocates the 96 bytes)",
		SizeHint:    blst.BLST_P1_SERIALIZE_BYTES,
		Case: func() memprof.Case {
			return suitekit.PointerCase(suitekit.Prepare(values), func(i int) *[blst.BLST_P1_SERIALIZE_BYTES]byte {
				return (*[blst.BLST_P1_SERIALIZE_BYTES]byte)(values()[i].Serialize())
			})
		},
	}
	m[key("uncompressed", "slice")] = suitekit.Impl{
		Constructor: "[][96]byte, each copied from (*blst.P1Affine).Serialize of " + v,
		SizeHint:    blst.BLST_P1_SERIALIZE_BYTES,
		Case: func() memprof.Case {
			return suitekit.SliceCase(suitekit.Prepare(values), func(dst *[blst.BLST_P1_SERIALIZE_BYTES]byte, i int) {
				copy(dst[:], values()[i].Serialize())
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
	ser := serializedG2(values)
	v := what(typ, scheme)
	raw := typ == "G2"
	affine, jac := unsafe.Sizeof(blst.P2Affine{}), unsafe.Sizeof(blst.P2{})

	m[key("affine", "pointer")] = suitekit.Impl{
		Constructor: "(*blst.P2Affine).Deserialize of " + v + "'s 192-byte uncompressed encoding (Uncompress of 96 bytes adds a square root, ~27 µs)",
		SizeHint:    affine,
		Case: func() memprof.Case {
			return suitekit.PointerCase(suitekit.Prepare(ser), func(i int) *blst.P2Affine { return new(blst.P2Affine).Deserialize(ser()[i]) })
		},
	}
	if raw {
		m[key("affine", "slice")] = suitekit.Impl{
			Constructor: "blst.P2s.ToAffine of n Jacobian hash-to-curve points (the library allocates the []P2Affine)",
			SizeHint:    affine,
			Case: func() memprof.Case {
				var in blst.P2s
				return suitekit.BatchSliceCase(suitekit.Prepare(HashedG2), func(n int) {
					in = make(blst.P2s, n)
					for i := range in {
						in[i] = HashedG2()[i%Distinct]
					}
				}, func(n int) []blst.P2Affine { return in[:n].ToAffine() })
			},
		}
		m[key("jacobian", "pointer")] = suitekit.Impl{
			Constructor: "(*blst.P2).Add of two hash-to-curve points (the library allocates the sum)",
			SizeHint:    jac,
			Case: func() memprof.Case {
				return suitekit.PointerCase(suitekit.Prepare(HashedG2Affine), func(i int) *blst.P2 {
					return HashedG2()[i].Add(&HashedG2Affine()[(i+1)%Distinct])
				})
			},
		}
	} else {
		m[key("affine", "slice")] = suitekit.Impl{
			Constructor: "[]blst.P2Affine, each filled by Deserialize of " + v + "'s 192-byte uncompressed encoding",
			SizeHint:    affine,
			Case: func() memprof.Case {
				return suitekit.SliceCase(suitekit.Prepare(ser), func(dst *blst.P2Affine, i int) { dst.Deserialize(ser()[i]) })
			},
		}
		m[key("jacobian", "pointer")] = suitekit.Impl{
			Constructor: "new(blst.P2) filled by (*blst.P2).FromAffine of " + v,
			SizeHint:    jac,
			Case: func() memprof.Case {
				return suitekit.PointerCase(suitekit.Prepare(values), func(i int) *blst.P2 {
					p := new(blst.P2)
					p.FromAffine(&values()[i])
					return p
				})
			},
		}
	}
	m[key("jacobian", "slice")] = suitekit.Impl{
		Constructor: "[]blst.P2, each filled by FromAffine of " + v,
		SizeHint:    jac,
		Case: func() memprof.Case {
			return suitekit.SliceCase(suitekit.Prepare(values), func(dst *blst.P2, i int) { dst.FromAffine(&values()[i]) })
		},
	}
	m[key("compressed", "pointer")] = suitekit.Impl{
		Constructor: "(*blst.P2Affine).Compress of " + v + ", kept as *[96]byte (the library allocates the 96 bytes)",
		SizeHint:    blst.BLST_P2_COMPRESS_BYTES,
		Case: func() memprof.Case {
			return suitekit.PointerCase(suitekit.Prepare(values), func(i int) *[blst.BLST_P2_COMPRESS_BYTES]byte {
				return (*[blst.BLST_P2_COMPRESS_BYTES]byte)(values()[i].Compress())
			})
		},
	}
	m[key("compressed", "slice")] = suitekit.Impl{
		Constructor: "[][96]byte, each copied from (*blst.P2Affine).Compress of " + v,
		SizeHint:    blst.BLST_P2_COMPRESS_BYTES,
		Case: func() memprof.Case {
			return suitekit.SliceCase(suitekit.Prepare(values), func(dst *[blst.BLST_P2_COMPRESS_BYTES]byte, i int) {
				copy(dst[:], values()[i].Compress())
			})
		},
	}
	m[key("uncompressed", "pointer")] = suitekit.Impl{
		Constructor: "(*blst.P2Affine).Serialize of " + v + ", kept as *[192]byte (the library allocates the 192 bytes)",
		SizeHint:    blst.BLST_P2_SERIALIZE_BYTES,
		Case: func() memprof.Case {
			return suitekit.PointerCase(suitekit.Prepare(values), func(i int) *[blst.BLST_P2_SERIALIZE_BYTES]byte {
				return (*[blst.BLST_P2_SERIALIZE_BYTES]byte)(values()[i].Serialize())
			})
		},
	}
	m[key("uncompressed", "slice")] = suitekit.Impl{
		Constructor: "[][192]byte, each copied from (*blst.P2Affine).Serialize of " + v,
		SizeHint:    blst.BLST_P2_SERIALIZE_BYTES,
		Case: func() memprof.Case {
			return suitekit.SliceCase(suitekit.Prepare(values), func(dst *[blst.BLST_P2_SERIALIZE_BYTES]byte, i int) {
				copy(dst[:], values()[i].Serialize())
			})
		},
	}
}
