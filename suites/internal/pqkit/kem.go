package pqkit

import (
	"bytes"
	"fmt"
	"unsafe"

	"github.com/memprof/memprof/fixtures/pq"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// KEMTypes are the ML-KEM object types every ML-KEM library covers.
var KEMTypes = []vocab.Type{vocab.MLKEMDecapsulationKey, vocab.MLKEMEncapsulationKey, vocab.MLKEMCiphertext}

// KEM is a library's description of ML-KEM at one parameter set: its
// parsed decapsulation key DK and encapsulation key EK, and the calls
// between the forms. A library without the set says why in Lacks, and
// nothing else is read.
type KEM[DK, EK any] struct {
	Lib   vocab.Lib
	Set   Set
	Lacks vocab.Why
	// Sizes the standard fixes, from the library's constants: the seed
	// d‖z, the encapsulation key, the ciphertext.
	SeedSize, EKSize, CiphertextSize int
	// PackedDKSize is the packed decapsulation key's, 0 where the library
	// has none.
	PackedDKSize int
	// DKName and EKName name the parsed types ("*mlkem.DecapsulationKey768"),
	// DKHolds and EKHolds say what they keep ("the matrix Â in the NTT
	// domain, NTT(s), H(ek) and z").
	DKName, DKHolds, EKName, EKHolds string

	KeyGen  Call[func(seed []byte) (*DK, error)]
	ParseDK Call[func(packed []byte) (*DK, error)]
	PackDK  Call[func(*DK) []byte]
	ToSeed  Call[func(*DK) []byte]
	// EKOf returns the encapsulation key of dk (not timed).
	EKOf    func(*DK) *EK
	ParseEK Call[func(packed []byte) (*EK, error)]
	PackEK  Call[func(*EK) []byte]
	// Encapsulate encapsulates with the 32 bytes of randomness m (FIPS
	// 203's ML-KEM.Encaps_internal), so that its result is a known answer.
	Encapsulate Call[func(ek *EK, m []byte) (c, k []byte, err error)]
	Decapsulate Call[func(dk *DK, c []byte) ([]byte, error)]
}

// kemInputs are the values of a KEM's cases: Distinct seeds, their keys
// and ciphertexts, made once.
type kemInputs[DK, EK any] struct {
	seeds [][]byte
	dks   []*DK
	eks   []*EK
	cts   [][]byte
}

func (d KEM[DK, EK]) inputs() (*kemInputs[DK, EK], error) {
	in := &kemInputs[DK, EK]{}
	for i := range Distinct {
		seed := Seed(i, d.SeedSize)
		dk, err := d.KeyGen.Do(seed)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %s: %w", d.Lib, d.Set, d.KeyGen.API, err)
		}
		ek := d.EKOf(dk)
		c, _, err := d.Encapsulate.Do(ek, Seed(Distinct+i, 32))
		if err != nil {
			return nil, fmt.Errorf("%s %s: %s: %w", d.Lib, d.Set, d.Encapsulate.API, err)
		}
		in.seeds, in.dks, in.eks, in.cts = append(in.seeds, seed), append(in.dks, dk), append(in.eks, ek), append(in.cts, c)
	}
	return in, nil
}

// lacks is why the library has no key k.
func (d KEM[DK, EK]) lacks(k results.Key) vocab.Why {
	return familyLacks{d.Lib, d.Lacks, vocab.MLKEMDecapsulationKey, vocab.MLKEMCiphertext,
		"it decapsulates the ciphertext's bytes and keeps no parsed ciphertext", lacking(d.PackDK.Lacks, d.ParseDK.Lacks)}.of(k)
}

// Entries returns the library's entries at the set.
func (d KEM[DK, EK]) Entries() []suites.Entry {
	forms := map[results.Key]Form{}
	key := func(t vocab.Type, r vocab.Repr) results.Key {
		return results.Key{Type: t, Lib: d.Lib, Repr: r, Layout: measure.Pointer, Param: d.Set.Param()}
	}
	if d.Lacks.IsZero() {
		load := func() (*kemInputs[DK, EK], error) { return d.inputs() }
		bytesOf := func(f func(*kemInputs[DK, EK]) [][]byte) func() ([][]byte, error) {
			return func() ([][]byte, error) {
				in, err := load()
				if err != nil {
					return nil, err
				}
				return f(in), nil
			}
		}
		forms[key(vocab.MLKEMDecapsulationKey, vocab.Seed)] = Form{
			Constructor: fmt.Sprintf("a new [%d]byte holding one of %d seeds d‖z, as a program keeps it to expand with %s", d.SeedSize, Distinct, d.KeyGen.API),
			SizeHint:    uintptr(d.SeedSize),
			Case: func() memprof.Case {
				return BytesCase(bytesOf(func(in *kemInputs[DK, EK]) [][]byte { return in.seeds }))
			},
		}
		if d.PackDK.ok() && d.ParseDK.ok() {
			forms[key(vocab.MLKEMDecapsulationKey, vocab.Packed)] = Form{
				Constructor: fmt.Sprintf("a new byte array holding the packed decapsulation key of FIPS 203 (%s of one of %d keys)", d.PackDK.API, Distinct),
				SizeHint:    uintptr(d.PackedDKSize),
				Case: func() memprof.Case {
					return BytesCase(bytesOf(func(in *kemInputs[DK, EK]) [][]byte { return packAll(d.PackDK, in.dks) }))
				},
			}
		}
		forms[key(vocab.MLKEMDecapsulationKey, vocab.Parsed)] = Form{
			Constructor: fmt.Sprintf("%s as %s returns it (%s), held by pointer: a pqkit.Clone (the struct and each object it points to) of one of %d keys made so", d.DKName, d.KeyGen.API, d.DKHolds, Distinct),
			SizeHint:    unsafe.Sizeof(*new(DK)),
			BytesHint:   HeldSize[DK](),
			Case: func() memprof.Case {
				return CloneCase(func() ([]*DK, error) { in, err := load(); return in.dksOr(err) })
			},
		}
		forms[key(vocab.MLKEMEncapsulationKey, vocab.Packed)] = Form{
			Constructor: fmt.Sprintf("a new [%d]byte holding an encapsulation key (%s of one of %d keys)", d.EKSize, d.PackEK.API, Distinct),
			SizeHint:    uintptr(d.EKSize),
			Case: func() memprof.Case {
				return BytesCase(bytesOf(func(in *kemInputs[DK, EK]) [][]byte { return packAll(d.PackEK, in.eks) }))
			},
		}
		forms[key(vocab.MLKEMEncapsulationKey, vocab.Parsed)] = Form{
			Constructor: fmt.Sprintf("%s as %s returns it (%s), held by pointer: a pqkit.Clone of one of %d keys parsed so", d.EKName, d.ParseEK.API, d.EKHolds, Distinct),
			SizeHint:    unsafe.Sizeof(*new(EK)),
			BytesHint:   HeldSize[EK](),
			Case: func() memprof.Case {
				return CloneCase(func() ([]*EK, error) {
					in, err := load()
					if err != nil {
						return nil, err
					}
					var out []*EK
					for _, ek := range in.eks {
						p, err := d.ParseEK.Do(d.PackEK.Do(ek))
						if err != nil {
							return nil, err
						}
						out = append(out, p)
					}
					return out, nil
				})
			},
		}
		forms[key(vocab.MLKEMCiphertext, vocab.Packed)] = Form{
			Constructor: fmt.Sprintf("a new [%d]byte holding a ciphertext (%s to one of %d keys)", d.CiphertextSize, d.Encapsulate.API, Distinct),
			SizeHint:    uintptr(d.CiphertextSize),
			Case:        func() memprof.Case { return BytesCase(bytesOf(func(in *kemInputs[DK, EK]) [][]byte { return in.cts })) },
		}
	}
	return Entries(d.Lib, KEMTypes, []Set{d.Set}, d.lacks, forms)
}

func (in *kemInputs[DK, EK]) dksOr(err error) ([]*DK, error) {
	if err != nil {
		return nil, err
	}
	return in.dks, nil
}

// Ops returns the library's operations at the set: key generation from
// the seed; parsing and packing of both keys; the seed back; decapsulation
// from every form of the decapsulation key and encapsulation from every
// form of the encapsulation key, each including the calls that bring the
// key to its parsed form. Their known answers are circl's ACVP vectors
// (keyGen, encapsulation) and Wycheproof's (decapsulation from a seed).
func (d KEM[DK, EK]) Ops() []suites.Op {
	rows := d.keyRows()
	rows = append(rows, d.decapsulationRows()...)
	rows = append(rows, d.encapsulationRows()...)
	return ops(d.Lib, d.Set, d.Lacks, rows)
}

// keyGenVector, encapsVector and decapsVector are the set's first vector
// of each kind: circl's ACVP keyGen and encapsulation vectors, and
// Wycheproof's first valid decapsulation test.
func (d KEM[DK, EK]) keyGenVector() (pq.KEMKeyGen, error) {
	return pick(pq.KEM, func(v *pq.Vectors) []pq.KEMKeyGen { return v.KEMKeyGen }, kemKeyGenSet, d.Set, nil, "keyGen")
}

func (d KEM[DK, EK]) encapsVector() (pq.KEMEncaps, error) {
	return pick(pq.KEM, func(v *pq.Vectors) []pq.KEMEncaps { return v.KEMEncaps }, kemEncapsSet, d.Set, nil, "encapsulation")
}

func (d KEM[DK, EK]) decapsVector() (pq.KEMSeed, error) {
	return pick(pq.KEM, func(v *pq.Vectors) []pq.KEMSeed { return v.KEMSeed }, kemSeedSet, d.Set, validSeed, "decapsulation")
}

// ekBytes is the packed encapsulation key of dk, the answer of the
// operations that make a decapsulation key.
func (d KEM[DK, EK]) ekBytes(dk *DK) ([]byte, error) { return d.PackEK.Do(d.EKOf(dk)), nil }

// keyRows are key generation, the seed back, and parsing and packing of
// both keys.
func (d KEM[DK, EK]) keyRows() []row {
	dk, ek := vocab.MLKEMDecapsulationKey, vocab.MLKEMEncapsulationKey
	return []row{
		{typ: dk, repr: vocab.Seed, op: vocab.KeyGen, path: []string{d.KeyGen.API}, lacks: d.KeyGen.Lacks,
			note: d.KeyGen.API + " of the 64-byte seed d‖z of circl's first ACVP keyGen vector of the set (its encapsulation key is compared, not timed)",
			prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				k, err := suites.ValidInputs(in, d.keyGenVector)
				if err != nil {
					return suites.OpHarness{}, err
				}
				seed := k.Seed()
				return produce(func() (*DK, error) { return d.KeyGen.Do(seed) }, d.ekBytes), nil
			},
			want: func() ([]byte, error) { k, err := d.keyGenVector(); return k.EK, err }},
		{typ: dk, repr: vocab.Packed, op: vocab.Parse, path: []string{d.ParseDK.API}, lacks: d.ParseDK.Lacks,
			note: d.ParseDK.API + " of the packed decapsulation key of the first ACVP keyGen vector; invalid input: one byte short",
			prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				k, err := d.keyGenVector()
				if err != nil {
					return suites.OpHarness{}, err
				}
				b := k.DK
				if in.Invalid {
					b = short(b)
				}
				return produce(func() (*DK, error) { return d.ParseDK.Do(b) }, d.ekBytes), nil
			},
			want: func() ([]byte, error) { k, err := d.keyGenVector(); return k.EK, err }},
		{typ: dk, repr: vocab.Parsed, op: vocab.Pack, path: []string{d.PackDK.API}, lacks: d.PackDK.Lacks,
			note:    d.PackDK.API + " of the key of the first ACVP keyGen vector",
			prepare: d.fromKey(d.keyGenVector, func(p *DK) func() ([]byte, error) { return func() ([]byte, error) { return d.PackDK.Do(p), nil } }),
			want:    func() ([]byte, error) { k, err := d.keyGenVector(); return k.DK, err }},
		{typ: dk, repr: vocab.Parsed, op: vocab.ToSeed, path: []string{d.ToSeed.API}, lacks: d.ToSeed.Lacks,
			note:    d.ToSeed.API + " of the key of the first ACVP keyGen vector",
			prepare: d.fromKey(d.keyGenVector, func(p *DK) func() ([]byte, error) { return func() ([]byte, error) { return d.ToSeed.Do(p), nil } }),
			want:    func() ([]byte, error) { k, err := d.keyGenVector(); return k.Seed(), err }},
		{typ: ek, repr: vocab.Packed, op: vocab.Parse, path: []string{d.ParseEK.API}, lacks: d.ParseEK.Lacks,
			note: d.ParseEK.API + " of the encapsulation key of the first ACVP keyGen vector (it checks every coefficient is below q); invalid input: its first coefficient set to 4095",
			prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				k, err := d.keyGenVector()
				if err != nil {
					return suites.OpHarness{}, err
				}
				b := k.EK
				if in.Invalid {
					b = overflow(b)
				}
				return produce(func() (*EK, error) { return d.ParseEK.Do(b) }, func(p *EK) ([]byte, error) { return d.PackEK.Do(p), nil }), nil
			},
			want: func() ([]byte, error) { k, err := d.keyGenVector(); return k.EK, err }},
		{typ: ek, repr: vocab.Parsed, op: vocab.Pack, path: []string{d.PackEK.API}, lacks: d.PackEK.Lacks,
			note: d.PackEK.API + " of the encapsulation key of the first ACVP keyGen vector",
			prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				k, err := suites.ValidInputs(in, d.keyGenVector)
				if err != nil {
					return suites.OpHarness{}, err
				}
				p, err := d.ParseEK.Do(k.EK)
				if err != nil {
					return suites.OpHarness{}, err
				}
				return produce(func() ([]byte, error) { return d.PackEK.Do(p), nil }, same), nil
			},
			want: func() ([]byte, error) { k, err := d.keyGenVector(); return k.EK, err }},
	}
}

// decapsulationRows are decapsulation from every form of the key.
func (d KEM[DK, EK]) decapsulationRows() []row {
	dk := vocab.MLKEMDecapsulationKey
	var rows []row
	// Decapsulation from every form of the key: the first valid
	// Wycheproof test of the set (seed, ciphertext, shared key); invalid
	// input: the ciphertext one byte short, an error in every library.
	for _, from := range []struct {
		repr  vocab.Repr
		calls []string
		lacks vocab.Why
		load  func(seed []byte) (func() (*DK, error), error)
	}{
		{vocab.Seed, []string{d.KeyGen.API}, d.KeyGen.Lacks, func(seed []byte) (func() (*DK, error), error) {
			return func() (*DK, error) { return d.KeyGen.Do(seed) }, nil
		}},
		{vocab.Packed, []string{d.ParseDK.API}, lacking(d.ParseDK.Lacks, d.PackDK.Lacks), func(seed []byte) (func() (*DK, error), error) {
			p, err := d.KeyGen.Do(seed)
			if err != nil {
				return nil, err
			}
			b := d.PackDK.Do(p)
			return func() (*DK, error) { return d.ParseDK.Do(b) }, nil
		}},
		{vocab.Parsed, nil, vocab.Why{}, func(seed []byte) (func() (*DK, error), error) {
			p, err := d.KeyGen.Do(seed)
			return func() (*DK, error) { return p, nil }, err
		}},
	} {
		note := d.Decapsulate.API + " of the ciphertext of the first valid Wycheproof test of the set"
		if len(from.calls) > 0 {
			note = from.calls[0] + " of the key's " + string(from.repr) + " form, then " + note
		}
		rows = append(rows, row{typ: dk, repr: from.repr, op: vocab.Decapsulate, path: append(from.calls, d.Decapsulate.API),
			lacks: lacking(from.lacks, d.Decapsulate.Lacks), note: note + "; invalid input: the ciphertext one byte short",
			prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				t, err := d.decapsVector()
				if err != nil {
					return suites.OpHarness{}, err
				}
				load, err := from.load(t.Seed)
				if err != nil {
					return suites.OpHarness{}, err
				}
				c := t.C
				if in.Invalid {
					c = short(c)
				}
				return produce(func() ([]byte, error) {
					p, err := load()
					if err != nil {
						return nil, err
					}
					return d.Decapsulate.Do(p, c)
				}, same), nil
			},
			want: func() ([]byte, error) { t, err := d.decapsVector(); return t.K, err }})
	}
	return rows
}

// encapsulationRows are encapsulation from both forms of the key.
func (d KEM[DK, EK]) encapsulationRows() []row {
	ek := vocab.MLKEMEncapsulationKey
	var rows []row
	// Encapsulation from both forms of the encapsulation key, with the
	// first ACVP encapsulation vector's randomness m; from packed, the
	// invalid input is a key with a coefficient of 4095 (not below q).
	for _, packed := range []bool{true, false} {
		r := row{typ: ek, repr: vocab.Parsed, op: vocab.Encapsulate, path: []string{d.Encapsulate.API},
			lacks: d.Encapsulate.Lacks, note: d.Encapsulate.API + " with the key and randomness m of the first ACVP encapsulation vector of the set"}
		if packed {
			r.repr, r.path, r.lacks = vocab.Packed, []string{d.ParseEK.API, d.Encapsulate.API}, lacking(d.ParseEK.Lacks, d.Encapsulate.Lacks)
			r.note = d.ParseEK.API + " of the packed key, then " + r.note + "; invalid input: a key whose first coefficient is 4095 (the TLS server's cost per X25519MLKEM768 handshake, but X25519)"
		}
		r.prepare = func(in suites.OpInput) (suites.OpHarness, error) {
			var t pq.KEMEncaps
			var err error
			if packed {
				t, err = d.encapsVector()
			} else {
				t, err = suites.ValidInputs(in, d.encapsVector)
			}
			if err != nil {
				return suites.OpHarness{}, err
			}
			b := t.EK
			if in.Invalid {
				b = overflow(b)
			}
			var parsed *EK
			if !packed {
				if parsed, err = d.ParseEK.Do(b); err != nil {
					return suites.OpHarness{}, err
				}
			}
			return produce(func() ([]byte, error) {
				p := parsed
				if packed {
					if p, err = d.ParseEK.Do(b); err != nil {
						return nil, err
					}
				}
				c, k, err := d.Encapsulate.Do(p, t.M)
				return append(c, k...), err
			}, same), nil
		}
		r.want = func() ([]byte, error) { t, err := d.encapsVector(); return append(bytes.Clone(t.C), t.K...), err }
		rows = append(rows, r)
	}
	return rows
}

// fromKey prepares an operation on the parsed key of the first ACVP
// keyGen vector (made from its seed, outside the timing); it has no
// invalid input.
func (d KEM[DK, EK]) fromKey(keyGen func() (pq.KEMKeyGen, error), do func(*DK) func() ([]byte, error)) func(suites.OpInput) (suites.OpHarness, error) {
	return func(in suites.OpInput) (suites.OpHarness, error) {
		k, err := suites.ValidInputs(in, keyGen)
		if err != nil {
			return suites.OpHarness{}, err
		}
		p, err := d.KeyGen.Do(k.Seed())
		if err != nil {
			return suites.OpHarness{}, err
		}
		return produce(do(p), same), nil
	}
}

// overflow returns the encapsulation key ek with its first 12-bit
// coefficient set to 4095, which is not below q = 3329: FIPS 203's input
// check (the modulus check) must refuse it.
func overflow(ek []byte) []byte {
	out := bytes.Clone(ek)
	out[0] = 0xff
	out[1] |= 0x0f
	return out
}

// KEMAgree is what the ML-KEM agreement check needs from one library at
// one set, in bytes.
type KEMAgree struct {
	Set Set
	// FromSeed expands seed and returns the encapsulation key, the packed
	// decapsulation key (nil where the library has none) and the seed the
	// key gives back (nil where it keeps none). It fails for a seed of the
	// wrong length.
	FromSeed func(seed []byte) (ek, packed, seedBack []byte, err error)
	// Encapsulate encapsulates to ek with the randomness m.
	Encapsulate func(ek, m []byte) (c, k []byte, err error)
	// Decapsulate decapsulates c with the key of seed; it fails for a
	// ciphertext of the wrong length.
	Decapsulate func(seed, c []byte) ([]byte, error)
	// DecapsulatePacked decapsulates c with the packed key dk; nil where
	// the library has no packed key.
	DecapsulatePacked func(dk, c []byte) ([]byte, error)
}

func (a KEMAgree) at() Set { return a.Set }

// Agree returns the library's part in the ML-KEM agreement check at the
// set, or false when it lacks the set.
func (d KEM[DK, EK]) Agree() (KEMAgree, bool) {
	if !d.Lacks.IsZero() {
		return KEMAgree{}, false
	}
	a := KEMAgree{Set: d.Set,
		FromSeed: fromSeed(d.KeyGen, d.EKOf, d.PackEK, d.PackDK, d.ToSeed),
		Encapsulate: func(ekb, m []byte) ([]byte, []byte, error) {
			p, err := d.ParseEK.Do(ekb)
			if err != nil {
				return nil, nil, err
			}
			return d.Encapsulate.Do(p, m)
		},
		Decapsulate: func(seed, c []byte) ([]byte, error) {
			p, err := d.KeyGen.Do(seed)
			if err != nil {
				return nil, err
			}
			return d.Decapsulate.Do(p, c)
		},
	}
	if d.ParseDK.ok() {
		a.DecapsulatePacked = func(dk, c []byte) ([]byte, error) {
			p, err := d.ParseDK.Do(dk)
			if err != nil {
				return nil, err
			}
			return d.Decapsulate.Do(p, c)
		}
	}
	return a, true
}
