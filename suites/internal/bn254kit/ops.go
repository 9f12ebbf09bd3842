package bn254kit

import (
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"strings"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/suitekit"
	"github.com/memprof/memprof/vocab"
)

// The operations of a library are one table: for each group, add,
// scalar-mul and marshal from every point representation, unmarshal from
// every encoding, the precompile's path (decode, compute, encode) from
// the EIP encoding, and the pairing check from every form of the G2
// points. Each runs on the vectors of vectors.go and must return their
// known result, the EIP encoding of what it computed (the pairing check:
// the precompile's 32-byte output).

// ErrPairingFalse is what a pairing check's Run returns when the product
// of the pairings is not one.
var ErrPairingFalse = errors.New("the pairing check failed")

// offered reports whether impl has a function to call.
func offered[F any](impl suites.Impl[F]) bool {
	do := reflect.ValueOf(&impl.Do).Elem()
	return impl.Lacks.IsZero() && !(do.Kind() == reflect.Func && do.IsNil())
}

// op makes the operation k: unavailable for the reason the first of
// lacking gives, else prepared by prepare with note and the path of the
// calls.
func op(k results.Key, note string, calls []string, lacking []vocab.Why, prepare func(suites.OpInput) (suites.OpHarness, error), want func(*opVectors) []byte) suites.Op {
	o := suites.Op{Key: k}
	for _, why := range lacking {
		if !why.IsZero() {
			o.Unavailable = why
			return o
		}
	}
	o.Note, o.Path, o.Prepare = note, strings.Join(calls, ", "), prepare
	o.Want = func() ([]byte, error) {
		v, err := loadOpVectors()
		if err != nil {
			return nil, err
		}
		return want(v), nil
	}
	return o
}

// lacks is why impl cannot be called: its Lacks, or, for an Impl with
// neither a function nor a reason, a reason naming what is missing (a
// programming error the suite's tests report).
func lacks[F any](lib vocab.Lib, what string, impl suites.Impl[F]) vocab.Why {
	switch {
	case !impl.Lacks.IsZero():
		return impl.Lacks
	case !offered(impl):
		return suites.NotOffered(lib, "%s is not described", what)
	}
	return vocab.Why{}
}

// withInputs returns the Prepare of an operation whose inputs come from
// the vectors: build makes the harness from them, invalid says whether
// the operation has inputs it must reject (build then gets invalid set).
func withInputs(invalid bool, build func(v *opVectors, invalid bool) (suites.OpHarness, error)) func(suites.OpInput) (suites.OpHarness, error) {
	return func(in suites.OpInput) (suites.OpHarness, error) {
		if in.Invalid && !invalid {
			return suites.OpHarness{}, suites.ErrNoInvalidInput
		}
		v, err := loadOpVectors()
		if err != nil {
			return suites.OpHarness{}, err
		}
		return build(v, in.Invalid)
	}
}

// points is what the rows on one point type F need: the key's type and
// representation, how the vectors' encodings become F (not timed), and
// the library's calls on F.
type points[F any] struct {
	lib     vocab.Lib
	typ     vocab.Type
	repr    vocab.Repr
	name    string
	decode  func(enc []byte) (*F, error)
	marshal suites.Impl[func(p *F) []byte]
	add     suites.Impl[func(dst, a, b *F)]
	mul     suites.Impl[func(dst, a *F, k *big.Int)]
}

func (p points[F]) key(o vocab.Op) results.Key {
	return results.Key{Type: p.typ, Lib: p.lib, Repr: p.repr, Op: o, Batch: 1}
}

// ops are the rows of a point type: add, scalar-mul, marshal.
func (p points[F]) ops() []suites.Op {
	noMarshal := lacks(p.lib, "Marshal", p.marshal)
	result := func(dst *F) func() ([]byte, error) {
		return func() ([]byte, error) { return p.marshal.Do(dst), nil }
	}
	return []suites.Op{
		op(p.key(vocab.Add), fmt.Sprintf("%s into a reused %s (the vector's two points decoded beforehand)", p.add.Note, p.name), p.add.Calls,
			[]vocab.Why{lacks(p.lib, "Add", p.add), noMarshal},
			withInputs(false, func(v *opVectors, _ bool) (suites.OpHarness, error) {
				a, err := p.decode(v.add[p.typ].a)
				if err != nil {
					return suites.OpHarness{}, err
				}
				b, err := p.decode(v.add[p.typ].b)
				if err != nil {
					return suites.OpHarness{}, err
				}
				var dst F
				return suites.OpHarness{Run: func() error { p.add.Do(&dst, a, b); return nil }, Result: result(&dst)}, nil
			}), func(v *opVectors) []byte { return v.add[p.typ].want }),
		op(p.key(vocab.ScalarMul), fmt.Sprintf("%s into a reused %s, by the vector's 256-bit scalar", p.mul.Note, p.name), p.mul.Calls,
			[]vocab.Why{lacks(p.lib, "ScalarMul", p.mul), noMarshal},
			withInputs(false, func(v *opVectors, _ bool) (suites.OpHarness, error) {
				a, err := p.decode(v.mul[p.typ].a)
				if err != nil {
					return suites.OpHarness{}, err
				}
				k := v.mul[p.typ].k
				var dst F
				return suites.OpHarness{Run: func() error { p.mul.Do(&dst, a, k); return nil }, Result: result(&dst)}, nil
			}), func(v *opVectors) []byte { return v.mul[p.typ].want }),
		op(p.key(vocab.Marshal), fmt.Sprintf("%s of a %s to its %s encoding", p.marshal.Note, p.name, eip(p.typ)), p.marshal.Calls,
			[]vocab.Why{noMarshal},
			withInputs(false, func(v *opVectors, _ bool) (suites.OpHarness, error) {
				a, err := p.decode(v.marshalWant(p.typ))
				if err != nil {
					return suites.OpHarness{}, err
				}
				var out []byte
				return suites.OpHarness{Run: func() error { out = p.marshal.Do(a); return nil }, Result: func() ([]byte, error) { return out, nil }}, nil
			}), func(v *opVectors) []byte { return v.marshalWant(p.typ) }),
	}
}

// groupPoints is the point type of g itself.
func groupPoints[P any](lib vocab.Lib, g *Group[P]) points[P] {
	return points[P]{lib: lib, typ: g.Type, repr: g.Repr, name: g.Name, decode: g.decode, marshal: g.Marshal, add: g.Add, mul: g.ScalarMul}
}

// encodedOps are the rows of g from its EIP encoding: unmarshal, and the
// precompile's path of add and scalar-mul (decode the inputs with the
// library's checks, compute, encode the result), all rejecting an input
// the library must refuse (OpRejectG1, OpRejectG2).
func encodedOps[P any](lib vocab.Lib, g *Group[P]) []suites.Op {
	key := func(o vocab.Op) results.Key {
		return results.Key{Type: g.Type, Lib: lib, Repr: vocab.Uncompressed, Op: o, Batch: 1}
	}
	un, noUnmarshal, noMarshal := g.Unmarshal, lacks(lib, "Unmarshal", g.Unmarshal), lacks(lib, "Marshal", g.Marshal)
	checks := "checking " + un.Note
	return []suites.Op{
		op(key(vocab.Unmarshal), fmt.Sprintf("%s of the %s encoding into a reused %s, %s; must reject: %s", callName(un.Calls, "Unmarshal"), eip(g.Type), g.Name, checks, rejectWhat(g.Type)),
			un.Calls, []vocab.Why{noUnmarshal, noMarshal},
			withInputs(true, func(v *opVectors, invalid bool) (suites.OpHarness, error) {
				enc := v.marshalWant(g.Type)
				if invalid {
					enc = v.reject[g.Type]
				}
				var dst P
				return suites.OpHarness{
					Run:    func() error { return un.Do(&dst, enc) },
					Result: func() ([]byte, error) { return g.Marshal.Do(&dst), nil },
				}, nil
			}), func(v *opVectors) []byte { return v.marshalWant(g.Type) }),
		op(key(vocab.Add), fmt.Sprintf("the precompile's path: %s of both %s encodings (%s), %s, %s of the sum; must reject: %s", callName(un.Calls, "Unmarshal"), eip(g.Type), checks, callName(g.Add.Calls, "Add"), callName(g.Marshal.Calls, "Marshal"), rejectWhat(g.Type)),
			concat(un.Calls, un.Calls, g.Add.Calls, g.Marshal.Calls), []vocab.Why{noUnmarshal, lacks(lib, "Add", g.Add), noMarshal},
			withInputs(true, func(v *opVectors, invalid bool) (suites.OpHarness, error) {
				encA, encB := v.add[g.Type].a, v.add[g.Type].b
				if invalid {
					encA = v.reject[g.Type]
				}
				var a, b, dst P
				var out []byte
				return suites.OpHarness{
					Run: func() error {
						if err := un.Do(&a, encA); err != nil {
							return err
						}
						if err := un.Do(&b, encB); err != nil {
							return err
						}
						g.Add.Do(&dst, &a, &b)
						out = g.Marshal.Do(&dst)
						return nil
					},
					Result: func() ([]byte, error) { return out, nil },
				}, nil
			}), func(v *opVectors) []byte { return v.add[g.Type].want }),
		op(key(vocab.ScalarMul), fmt.Sprintf("the precompile's path: %s of the %s encoding (%s), %s by the 256-bit scalar, %s of the product; must reject: %s", callName(un.Calls, "Unmarshal"), eip(g.Type), checks, callName(g.ScalarMul.Calls, "ScalarMul"), callName(g.Marshal.Calls, "Marshal"), rejectWhat(g.Type)),
			concat(un.Calls, g.ScalarMul.Calls, g.Marshal.Calls), []vocab.Why{noUnmarshal, lacks(lib, "ScalarMul", g.ScalarMul), noMarshal},
			withInputs(true, func(v *opVectors, invalid bool) (suites.OpHarness, error) {
				enc, k := v.mul[g.Type].a, v.mul[g.Type].k
				if invalid {
					enc = v.reject[g.Type]
				}
				var a, dst P
				var out []byte
				return suites.OpHarness{
					Run: func() error {
						if err := un.Do(&a, enc); err != nil {
							return err
						}
						g.ScalarMul.Do(&dst, &a, k)
						out = g.Marshal.Do(&dst)
						return nil
					},
					Result: func() ([]byte, error) { return out, nil },
				}, nil
			}), func(v *opVectors) []byte { return v.mul[g.Type].want }),
	}
}

// rejectWhat says what the invalid input of typ's decoding rows is.
func rejectWhat(typ vocab.Type) string {
	if typ == vocab.BN254G2 {
		return "a point on the twist outside the subgroup (" + OpRejectG2 + ")"
	}
	return "a point off the curve (" + OpRejectG1 + ")"
}

func callName(calls []string, fallback string) string {
	if len(calls) == 0 {
		return fallback
	}
	return strings.Join(calls, " then ")
}

func concat(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// pairingOps are the pairing checks from the decoded G2 points, and the
// precompile's path from the encodings, on two pairs: OpPairingVector
// (output 1) and, as the input it must reject, OpPairingFalse (output 0).
func (c Curve[P1, P2]) pairingOps() []suites.Op {
	key := func(r vocab.Repr) results.Key {
		return results.Key{Type: vocab.BN254G2, Lib: c.Lib, Repr: r, Op: vocab.PairingCheck, Batch: 1}
	}
	want := func(v *opVectors) []byte { return v.pairingWant }
	noPairing := lacks(c.Lib, "the pairing check", c.Pairing)
	un1, un2 := c.G1.Unmarshal, c.G2.Unmarshal
	return []suites.Op{
		op(key(c.G2.Repr), fmt.Sprintf("%s of two pairs (%s, output 1; must reject %s, output 0), the points decoded beforehand", c.Pairing.Note, OpPairingVector, OpPairingFalse), c.Pairing.Calls,
			[]vocab.Why{noPairing},
			withInputs(true, func(v *opVectors, invalid bool) (suites.OpHarness, error) {
				g1s, g2s, err := decodedPairs(v, invalid, c.G1, c.G2)
				if err != nil {
					return suites.OpHarness{}, err
				}
				return pairingHarness(c.Pairing.Do(g1s, g2s)), nil
			}), want),
		op(key(vocab.Uncompressed), fmt.Sprintf("the precompile's path: %s of each pair's encodings (checking %s; %s), then %s, of two pairs (%s; must reject %s)", callName(concat(un1.Calls, un2.Calls), "Unmarshal"), un1.Note, un2.Note, c.Pairing.Note, OpPairingVector, OpPairingFalse),
			concat(un1.Calls, un2.Calls, c.Pairing.Calls), []vocab.Why{lacks(c.Lib, "Unmarshal", un1), lacks(c.Lib, "Unmarshal", un2), noPairing},
			withInputs(true, func(v *opVectors, invalid bool) (suites.OpHarness, error) {
				e1, e2, err := v.pairs(invalid)
				if err != nil {
					return suites.OpHarness{}, err
				}
				g1s, g2s := make([]P1, len(e1)), make([]P2, len(e2))
				check := c.Pairing.Do(g1s, g2s)
				h := pairingHarness(check)
				run := h.Run
				h.Run = func() error {
					for i := range e1 {
						if err := un1.Do(&g1s[i], e1[i]); err != nil {
							return err
						}
						if err := un2.Do(&g2s[i], e2[i]); err != nil {
							return err
						}
					}
					return run()
				}
				return h, nil
			}), want),
	}
}

// pairingHarness times check: Run fails with ErrPairingFalse when the
// product of the pairings is not one; Result is the precompile's output.
func pairingHarness(check func() (bool, error)) suites.OpHarness {
	return suites.BoolHarness(check, ErrPairingFalse, Bool)
}

// Ops returns the library's operations: the rows of its groups and forms,
// the pairing checks, and, when the library has none, an unavailable
// multi-scalar multiplication per group.
func (c Curve[P1, P2]) Ops() []suites.Op {
	var out []suites.Op
	out = append(out, groupPoints(c.Lib, c.G1).ops()...)
	out = append(out, encodedOps(c.Lib, c.G1)...)
	out = append(out, groupPoints(c.Lib, c.G2).ops()...)
	out = append(out, encodedOps(c.Lib, c.G2)...)
	out = append(out, c.pairingOps()...)
	for _, f := range c.Forms {
		out = append(out, f.ops(c.Lib)...)
	}
	if !c.MSMLacks.IsZero() {
		for _, g := range []struct {
			typ  vocab.Type
			repr vocab.Repr
		}{{c.G1.Type, c.G1.Repr}, {c.G2.Type, c.G2.Repr}} {
			out = append(out, suites.Op{Key: results.Key{Type: g.typ, Lib: c.Lib, Repr: g.repr, Op: vocab.MSM, Batch: suites.OpMSMSizes[0]}, Unavailable: c.MSMLacks})
		}
	}
	return out
}

func (f *PointForm[P, F]) ops(lib vocab.Lib) []suites.Op {
	return points[F]{lib: lib, typ: f.Group.Type, repr: f.Repr, name: f.Name, marshal: f.Marshal, add: f.Add, mul: f.ScalarMul,
		decode: func(enc []byte) (*F, error) {
			p, err := f.Group.decode(enc)
			if err != nil {
				return nil, err
			}
			var out F
			f.From(&out, p)
			return &out, nil
		}}.ops()
}

func (f *EncodingForm[P, E]) ops(lib vocab.Lib) []suites.Op {
	g := f.Group
	k := results.Key{Type: g.Type, Lib: lib, Repr: f.Repr, Op: vocab.Unmarshal, Batch: 1}
	un := f.Unmarshal
	return []suites.Op{op(k, fmt.Sprintf("%s of the %d-byte %s encoding into a reused %s, checking %s; must reject an encoding whose x has no point on the curve", callName(un.Calls, "Unmarshal"), len(suitekit.Bytes(new(E))), f.Repr, g.Name, un.Note),
		un.Calls, []vocab.Why{lacks(lib, "Unmarshal", un), lacks(lib, "Marshal", g.Marshal)},
		withInputs(true, func(v *opVectors, invalid bool) (suites.OpHarness, error) {
			p, err := g.decode(v.marshalWant(g.Type))
			if err != nil {
				return suites.OpHarness{}, err
			}
			e := f.Encode(p)
			enc := suitekit.Bytes(&e)
			if invalid {
				enc = f.Reject()
			}
			var dst P
			return suites.OpHarness{
				Run:    func() error { return un.Do(&dst, enc) },
				Result: func() ([]byte, error) { return g.Marshal.Do(&dst), nil },
			}, nil
		}), func(v *opVectors) []byte { return v.marshalWant(g.Type) })}
}

func (f *PreparedForm[P1, P2, L]) ops(lib vocab.Lib) []suites.Op {
	k := results.Key{Type: vocab.BN254G2, Lib: lib, Repr: vocab.Prepared, Op: vocab.PairingCheck, Batch: 1}
	return []suites.Op{op(k, fmt.Sprintf("%s of two pairs (%s; must reject %s), the G2 points prepared beforehand (%s)", f.Pairing.Note, OpPairingVector, OpPairingFalse, f.PrepareCall),
		f.Pairing.Calls, []vocab.Why{lacks(lib, "the prepared pairing check", f.Pairing)},
		withInputs(true, func(v *opVectors, invalid bool) (suites.OpHarness, error) {
			g1s, g2s, err := decodedPairs(v, invalid, f.G1, f.G2)
			if err != nil {
				return suites.OpHarness{}, err
			}
			lines := make([]L, len(g2s))
			for i := range g2s {
				lines[i] = f.Prepare(&g2s[i])
			}
			return pairingHarness(f.Pairing.Do(g1s, lines)), nil
		}), func(v *opVectors) []byte { return v.pairingWant })}
}
