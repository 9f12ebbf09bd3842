package circl

import (
	"strconv"
	"unsafe"

	bls12381 "github.com/cloudflare/circl/ecc/bls12381"
	"github.com/cloudflare/circl/sign/bls"

	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/suitekit"
)

// lib is the library name in the registry.
const lib = model.Circl

// Module is circl's module path, whose version results record.
const Module = "github.com/cloudflare/circl"

// Suite returns circl's instance entries, operations and agreement
// library.
func Suite() suites.Suite {
	return suites.Suite{
		Name:    string(lib),
		Modules: []string{Module},
		Entries: suitekit.Entries(lib, circlLacks, model.Why{}, circlImpls()),
		Ops:     operations(),
		Agree:   []suites.AgreeLib{agreeLib()},
	}
}

// circlLacks says why circl has no such representation, or nothing.
func circlLacks(k suitekit.Key) model.Why {
	switch k.Repr {
	case model.Affine:
		return model.Because(model.NotOffered, "circl has no affine point type: ecc/bls12381 G1/G2 are homogeneous projective (X:Y:Z); affine coordinates exist only inside its encoders")
	case model.Jacobian:
		return model.Because(model.NotOffered, "circl has no Jacobian point type: ecc/bls12381 G1/G2 use homogeneous projective coordinates (x = X/Z, y = Y/Z)")
	}
	return model.Why{}
}

// Sizes of the encodings circl's points produce.
const (
	g1Compressed   = bls12381.G1SizeCompressed
	g1Uncompressed = bls12381.G1Size
	g2Compressed   = bls12381.G2SizeCompressed
	g2Uncompressed = bls12381.G2Size
)

// circlImpls returns the constructor of every combination circl offers.
func circlImpls() map[suitekit.Key]suitekit.Impl {
	m := map[suitekit.Key]suitekit.Impl{
		{Type: "SecretKey", Repr: "scalar", Layout: "pointer"}: {
			Constructor: "new(bls.PrivateKey[KeyG1SigG2]) set by UnmarshalBinary of a bls.KeyGen key (KeyGen keeps the same one object but makes ~10 HKDF temporaries, too slow to profile at N=100,000)",
			SizeHint:    unsafe.Sizeof(bls.PrivateKey[MinPk]{}),
			Case: func() memprof.Case {
				return suitekit.PointerCase(suitekit.Prepare(SecretKeyBytes), func(i int) *bls.PrivateKey[MinPk] {
					sk := new(bls.PrivateKey[MinPk])
					if sk.UnmarshalBinary(SecretKeyBytes()[i]) != nil {
						return nil
					}
					return sk
				})
			},
		},
		{Type: "SecretKey", Repr: "scalar", Layout: "slice"}: {
			Constructor: "[]bls.PrivateKey[KeyG1SigG2], each set by UnmarshalBinary of 32 big-endian bytes",
			SizeHint:    unsafe.Sizeof(bls.PrivateKey[MinPk]{}),
			Case: func() memprof.Case {
				return suitekit.SliceCase(suitekit.Prepare(SecretKeyBytes), func(dst *bls.PrivateKey[MinPk], i int) {
					if err := dst.UnmarshalBinary(SecretKeyBytes()[i]); err != nil {
						panic(err)
					}
				})
			},
		},
	}
	addPublicKey(m, "min-pk", PublicKeysMinPk)
	addPublicKey(m, "min-sig", PublicKeysMinSig)
	addSignatureG2(m)
	addSignatureG1(m)
	addRawG1(m)
	addRawG2(m)
	suitekit.EachPoint(func(t model.Type, s model.Scheme, group model.Type) {
		if group == model.G1 {
			addEncodings[[g1Compressed]byte, [g1Uncompressed]byte](m, t, s, g1Points(t))
		} else {
			addEncodings[[g2Compressed]byte, [g2Uncompressed]byte](m, t, s, g2Points(t))
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

// addPublicKey adds bls.PublicKey[K], circl's public key type, in both
// layouts.
func addPublicKey[K bls.KeyGroup](m map[suitekit.Key]suitekit.Impl, scheme model.Scheme, keys func() []bls.PublicKey[K]) {
	name := "bls.PublicKey[KeyG1SigG2]"
	if scheme == "min-sig" {
		name = "bls.PublicKey[KeyG2SigG1]"
	}
	size := unsafe.Sizeof(bls.PublicKey[K]{})
	m[suitekit.Key{Type: "PublicKey", Repr: "projective", Layout: "pointer", Scheme: scheme}] = suitekit.Impl{
		Constructor: "new(" + name + ") set to a copy of a real key (UnmarshalBinary, which allocates nothing more, takes >100 µs with its subgroup check)",
		SizeHint:    size,
		Case: func() memprof.Case {
			return suitekit.PointerCase(suitekit.Prepare(keys), func(i int) *bls.PublicKey[K] {
				p := new(bls.PublicKey[K])
				*p = keys()[i]
				return p
			})
		},
	}
	m[suitekit.Key{Type: "PublicKey", Repr: "projective", Layout: "slice", Scheme: scheme}] = suitekit.Impl{
		Constructor: "[]" + name + ", each set to a copy of a real key",
		SizeHint:    size,
		Case: func() memprof.Case {
			return suitekit.SliceCase(suitekit.Prepare(keys), func(dst *bls.PublicKey[K], i int) { *dst = keys()[i] })
		},
	}
}

// addSignatureG2 adds the min-pk signature as a bls12381.G2 point.
func addSignatureG2(m map[suitekit.Key]suitekit.Impl) {
	size := unsafe.Sizeof(bls12381.G2{})
	m[suitekit.Key{Type: "Signature", Repr: "projective", Layout: "pointer", Scheme: "min-pk"}] = suitekit.Impl{
		Constructor: "new(bls12381.G2) set to a copy of a signature decoded by SetBytes (which allocates nothing more, but takes >100 µs)",
		SizeHint:    size,
		Case: func() memprof.Case {
			return suitekit.PointerCase(suitekit.Prepare(SignaturePointsG2), func(i int) *bls12381.G2 {
				p := new(bls12381.G2)
				*p = SignaturePointsG2()[i]
				return p
			})
		},
	}
	m[suitekit.Key{Type: "Signature", Repr: "projective", Layout: "slice", Scheme: "min-pk"}] = suitekit.Impl{
		Constructor: "[]bls12381.G2, each set to a copy of a signature decoded by SetBytes",
		SizeHint:    size,
		Case: func() memprof.Case {
			return suitekit.SliceCase(suitekit.Prepare(SignaturePointsG2), func(dst *bls12381.G2, i int) { *dst = SignaturePointsG2()[i] })
		},
	}
}

// addSignatureG1 adds the min-sig signature as a bls12381.G1 point.
func addSignatureG1(m map[suitekit.Key]suitekit.Impl) {
	size := unsafe.Sizeof(bls12381.G1{})
	m[suitekit.Key{Type: "Signature", Repr: "projective", Layout: "pointer", Scheme: "min-sig"}] = suitekit.Impl{
		Constructor: "new(bls12381.G1) set to a copy of a signature decoded by SetBytes (which allocates nothing more, but takes >100 µs)",
		SizeHint:    size,
		Case: func() memprof.Case {
			return suitekit.PointerCase(suitekit.Prepare(SignaturePointsG1), func(i int) *bls12381.G1 {
				p := new(bls12381.G1)
				*p = SignaturePointsG1()[i]
				return p
			})
		},
	}
	m[suitekit.Key{Type: "Signature", Repr: "projective", Layout: "slice", Scheme: "min-sig"}] = suitekit.Impl{
		Constructor: "[]bls12381.G1, each set to a copy of a signature decoded by SetBytes",
		SizeHint:    size,
		Case: func() memprof.Case {
			return suitekit.SliceCase(suitekit.Prepare(SignaturePointsG1), func(dst *bls12381.G1, i int) { *dst = SignaturePointsG1()[i] })
		},
	}
}

// addRawG1 adds raw G1 elements, made by point addition.
func addRawG1(m map[suitekit.Key]suitekit.Impl) {
	size := unsafe.Sizeof(bls12381.G1{})
	m[suitekit.Key{Type: "G1", Repr: "projective", Layout: "pointer"}] = suitekit.Impl{
		Constructor: "new(bls12381.G1) set by (*G1).Add of two hash-to-curve points",
		SizeHint:    size,
		Case: func() memprof.Case {
			return suitekit.PointerCase(suitekit.Prepare(HashedG1), func(i int) *bls12381.G1 {
				p := new(bls12381.G1)
				p.Add(&HashedG1()[i], &HashedG1()[(i+1)%Distinct])
				return p
			})
		},
	}
	m[suitekit.Key{Type: "G1", Repr: "projective", Layout: "slice"}] = suitekit.Impl{
		Constructor: "[]bls12381.G1, each set by (*G1).Add of two hash-to-curve points",
		SizeHint:    size,
		Case: func() memprof.Case {
			return suitekit.SliceCase(suitekit.Prepare(HashedG1), func(dst *bls12381.G1, i int) {
				dst.Add(&HashedG1()[i], &HashedG1()[(i+1)%Distinct])
			})
		},
	}
}

// addRawG2 adds raw G2 elements, made by point addition.
func addRawG2(m map[suitekit.Key]suitekit.Impl) {
	size := unsafe.Sizeof(bls12381.G2{})
	m[suitekit.Key{Type: "G2", Repr: "projective", Layout: "pointer"}] = suitekit.Impl{
		Constructor: "new(bls12381.G2) set by (*G2).Add of two hash-to-curve points",
		SizeHint:    size,
		Case: func() memprof.Case {
			return suitekit.PointerCase(suitekit.Prepare(HashedG2), func(i int) *bls12381.G2 {
				p := new(bls12381.G2)
				p.Add(&HashedG2()[i], &HashedG2()[(i+1)%Distinct])
				return p
			})
		},
	}
	m[suitekit.Key{Type: "G2", Repr: "projective", Layout: "slice"}] = suitekit.Impl{
		Constructor: "[]bls12381.G2, each set by (*G2).Add of two hash-to-curve points",
		SizeHint:    size,
		Case: func() memprof.Case {
			return suitekit.SliceCase(suitekit.Prepare(HashedG2), func(dst *bls12381.G2, i int) {
				dst.Add(&HashedG2()[i], &HashedG2()[(i+1)%Distinct])
			})
		},
	}
}

// byteArray is a fixed-size encoding as a program keeps it.
type byteArray interface {
	~[g1Compressed]byte | ~[g1Uncompressed]byte | ~[g2Uncompressed]byte
}

// addEncodings adds the compressed (C) and uncompressed (U) encodings of
// a point type, in both layouts. circl's encoders (BytesCompressed, Bytes,
// and through them PublicKey.MarshalBinary and Sign) first convert the
// point to affine, a field inversion of ~20 µs: instances are copies of
// encodings made by them in Prepare, into arrays of the same size as the
// slices they return.
func addEncodings[C, U byteArray, P encoder](m map[suitekit.Key]suitekit.Impl, typ model.Type, scheme model.Scheme, points func() []P) {
	v := what(typ, scheme)
	compressed := encodings(points, true)
	uncompressed := encodings(points, false)
	addEncoding[C](m, suitekit.Key{Type: typ, Repr: "compressed", Scheme: scheme}, "BytesCompressed", v, compressed)
	addEncoding[U](m, suitekit.Key{Type: typ, Repr: "uncompressed", Scheme: scheme}, "Bytes", v, uncompressed)
}

func addEncoding[A byteArray](m map[suitekit.Key]suitekit.Impl, k suitekit.Key, encoder, v string, enc func() [][]byte) {
	var zero A
	size := unsafe.Sizeof(zero)
	arr := "[" + strconv.Itoa(int(size)) + "]byte"
	k.Layout = "pointer"
	m[k] = suitekit.Impl{
		Constructor: "new(" + arr + ") holding a copy of " + encoder + " of " + v + ", encoded in Prepare (" + encoder + " allocates one " + strconv.Itoa(int(size)) + "-byte slice but inverts Z, ~20 µs)",
		SizeHint:    size,
		Case: func() memprof.Case {
			return suitekit.PointerCase(suitekit.Prepare(enc), func(i int) *A {
				p := new(A)
				*p = A(enc()[i])
				return p
			})
		},
	}
	k.Layout = "slice"
	m[k] = suitekit.Impl{
		Constructor: "[]" + arr + ", each a copy of " + encoder + " of " + v,
		SizeHint:    size,
		Case: func() memprof.Case {
			return suitekit.SliceCase(suitekit.Prepare(enc), func(dst *A, i int) { *dst = A(enc()[i]) })
		},
	}
}
