package pqkit

import (
	"fmt"
	"unsafe"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// SigTypes are the types of a signature scheme's family: the private key,
// the public key, the signature.
type SigTypes struct{ Private, Public, Signature vocab.Type }

// The signature families' types.
var (
	DSATypes = SigTypes{vocab.MLDSAPrivateKey, vocab.MLDSAPublicKey, vocab.MLDSASignature}
	SLHTypes = SigTypes{vocab.SLHDSAPrivateKey, vocab.SLHDSAPublicKey, vocab.SLHDSASignature}
)

// List returns the types in family order.
func (t SigTypes) List() []vocab.Type { return []vocab.Type{t.Private, t.Public, t.Signature} }

// Sig is a library's description of a signature scheme (ML-DSA, SLH-DSA)
// at one parameter set: its parsed private key SK and public key PK, and
// the calls between the forms. A library without the set says why in
// Lacks, and nothing else is read.
type Sig[SK, PK any] struct {
	Lib   vocab.Lib
	Set   Set
	Lacks vocab.Why
	// Sizes the standard fixes, from the library's constants: the seed
	// (ML-DSA's ξ; SLH-DSA's SK.seed‖SK.prf‖PK.seed), the packed private
	// key (0 where the library has none), the public key, the signature.
	SeedSize, PackedSKSize, PKSize, SigSize int
	// SKName, PKName name the parsed types, SKHolds and PKHolds say what
	// they keep ("the matrix A, NTT(s1), NTT(s2), NTT(t0), tr").
	SKName, SKHolds, PKName, PKHolds string
	// MakeParsed, when set, makes each parsed instance with the library's
	// parse of the packed key (SLH-DSA's keys hold slices, which
	// pqkit.Clone does not copy); otherwise parsed keys are Clones.
	MakeParsed bool

	KeyGen  Call[func(seed []byte) (*SK, error)]
	ParseSK Call[func(packed []byte) (*SK, error)]
	PackSK  Call[func(*SK) []byte]
	ToSeed  Call[func(*SK) []byte]
	// PKOf returns the public key of sk (not timed).
	PKOf    func(*SK) *PK
	ParsePK Call[func(packed []byte) (*PK, error)]
	PackPK  Call[func(*PK) []byte]
	// Sign signs msg with the context ctx deterministically (FIPS 204's
	// and 205's deterministic variants).
	Sign Call[func(sk *SK, msg, ctx []byte) ([]byte, error)]
	// SignRandomized signs with the additional randomness given (SLH-DSA's
	// known answers have it); nil where the check does not use it.
	SignRandomized func(sk *SK, msg, ctx, random []byte) ([]byte, error)
	Verify         Call[func(pk *PK, msg, ctx, sig []byte) bool]

	// Vectors are the known answers of the set's operations.
	Vectors SigVectors
	// Values, when set, gives the values of the cases instead of keys
	// generated from Seed and signatures made in Prepare: SLH-DSA's
	// signing takes seconds, so its cases hold the known answers' keys and
	// signatures.
	Values func(Set) (Values, error)
}

// Values are the encodings a signature scheme's cases hold: seeds, packed
// private and public keys, signatures (at least one of each).
type Values struct {
	Seeds, PackedSKs, PackedPKs, Sigs [][]byte
}

// SigVectors give the known answers an operation starts from and must
// return: a key generation (seed, public key, packed private key), a
// deterministic signature (the private key's seed or packed form, message,
// context, signature) and a valid signature to verify.
type SigVectors struct {
	KeyGen func(Set) (seed, pk, sk []byte, err error)
	// Sign returns a signature's inputs: seed and sk may be nil where the
	// vector has only the other, which the library then derives.
	Sign   func(Set) (seed, sk, msg, ctx, sig []byte, err error)
	Verify func(Set) (pk, msg, ctx, sig []byte, err error)
}

type sigInputs[SK, PK any] struct {
	seeds, sigs [][]byte
	sks         []*SK
	pks         []*PK
}

func (d Sig[SK, PK]) inputs() (*sigInputs[SK, PK], error) {
	in := &sigInputs[SK, PK]{}
	if d.Values != nil {
		v, err := d.Values(d.Set)
		if err != nil {
			return nil, err
		}
		in.seeds, in.sigs = v.Seeds, v.Sigs
		for _, b := range v.PackedSKs {
			sk, err := d.ParseSK.Do(b)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %s: %w", d.Lib, d.Set, d.ParseSK.API, err)
			}
			in.sks = append(in.sks, sk)
		}
		for _, b := range v.PackedPKs {
			pk, err := d.ParsePK.Do(b)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %s: %w", d.Lib, d.Set, d.ParsePK.API, err)
			}
			in.pks = append(in.pks, pk)
		}
		return in, nil
	}
	for i := range Distinct {
		seed := Seed(i, d.SeedSize)
		sk, err := d.KeyGen.Do(seed)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %s: %w", d.Lib, d.Set, d.KeyGen.API, err)
		}
		sig, err := d.Sign.Do(sk, Message(i), Context)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %s: %w", d.Lib, d.Set, d.Sign.API, err)
		}
		in.seeds, in.sks, in.pks, in.sigs = append(in.seeds, seed), append(in.sks, sk), append(in.pks, d.PKOf(sk)), append(in.sigs, sig)
	}
	return in, nil
}

// lacks is why the library has no key k (types t).
func (d Sig[SK, PK]) lacks(t SigTypes) func(results.Key) vocab.Why {
	return familyLacks{d.Lib, d.Lacks, t.Private, t.Signature,
		"it verifies the signature's bytes and keeps no parsed signature", lacking(d.PackSK.Lacks, d.ParseSK.Lacks)}.of
}

// Entries returns the library's entries of the types t at the set.
func (d Sig[SK, PK]) Entries(t SigTypes) []suites.Entry {
	forms := map[results.Key]Form{}
	key := func(typ vocab.Type, r vocab.Repr) results.Key {
		return results.Key{Type: typ, Lib: d.Lib, Repr: r, Layout: measure.Pointer, Param: d.Set.Param()}
	}
	if d.Lacks.IsZero() {
		bytesOf := func(f func(*sigInputs[SK, PK]) [][]byte) func() memprof.Case {
			return func() memprof.Case {
				return BytesCase(func() ([][]byte, error) {
					in, err := d.inputs()
					if err != nil {
						return nil, err
					}
					return f(in), nil
				})
			}
		}
		packedSKs := func(in *sigInputs[SK, PK]) [][]byte { return packAll(d.PackSK, in.sks) }
		packedPKs := func(in *sigInputs[SK, PK]) [][]byte { return packAll(d.PackPK, in.pks) }
		made := fmt.Sprintf("%d", Distinct)
		if d.Values != nil {
			made = "the known answers' (fixtures/pq)"
		}
		forms[key(t.Private, vocab.Seed)] = Form{
			Constructor: fmt.Sprintf("a new [%d]byte holding one of %s seeds, as a program keeps it to expand with %s", d.SeedSize, made, d.KeyGen.API),
			SizeHint:    uintptr(d.SeedSize),
			Case:        bytesOf(func(in *sigInputs[SK, PK]) [][]byte { return in.seeds }),
		}
		if d.PackSK.ok() && d.ParseSK.ok() {
			forms[key(t.Private, vocab.Packed)] = Form{
				Constructor: fmt.Sprintf("a new [%d]byte holding the packed private key of the standard (one of %s keys)", d.PackedSKSize, made),
				SizeHint:    uintptr(d.PackedSKSize),
				Case:        bytesOf(packedSKs),
			}
		}
		forms[key(t.Public, vocab.Packed)] = Form{
			Constructor: fmt.Sprintf("a new [%d]byte holding a public key (one of %s keys)", d.PKSize, made),
			SizeHint:    uintptr(d.PKSize),
			Case:        bytesOf(packedPKs),
		}
		forms[key(t.Signature, vocab.Packed)] = Form{
			Constructor: fmt.Sprintf("a new [%d]byte holding a signature (one of %s signatures, made by %s)", d.SigSize, made, d.Sign.API),
			SizeHint:    uintptr(d.SigSize),
			Case:        bytesOf(func(in *sigInputs[SK, PK]) [][]byte { return in.sigs }),
		}
		if d.MakeParsed {
			forms[key(t.Private, vocab.Parsed)] = Form{
				Constructor: fmt.Sprintf("%s as %s returns it (%s), held by pointer, parsed per instance from one of %s packed keys", d.SKName, d.ParseSK.API, d.SKHolds, made),
				SizeHint:    unsafe.Sizeof(*new(SK)),
				BytesHint:   HeldSize[SK](),
				Case: func() memprof.Case {
					return MadeCase(d.loadBytes(packedSKs), func(b []byte) any { return must(d.ParseSK.Do(b)) })
				},
			}
			forms[key(t.Public, vocab.Parsed)] = Form{
				Constructor: fmt.Sprintf("%s as %s returns it (%s), held by pointer, parsed per instance from one of %s packed keys", d.PKName, d.ParsePK.API, d.PKHolds, made),
				SizeHint:    unsafe.Sizeof(*new(PK)),
				BytesHint:   HeldSize[PK](),
				Case: func() memprof.Case {
					return MadeCase(d.loadBytes(packedPKs), func(b []byte) any { return must(d.ParsePK.Do(b)) })
				},
			}
		} else {
			forms[key(t.Private, vocab.Parsed)] = Form{
				Constructor: fmt.Sprintf("%s as %s returns it (%s), held by pointer: a pqkit.Clone of one of %d keys made so", d.SKName, d.KeyGen.API, d.SKHolds, Distinct),
				SizeHint:    unsafe.Sizeof(*new(SK)),
				BytesHint:   HeldSize[SK](),
				Case: func() memprof.Case {
					return CloneCase(func() ([]*SK, error) {
						in, err := d.inputs()
						if err != nil {
							return nil, err
						}
						return in.sks, nil
					})
				},
			}
			forms[key(t.Public, vocab.Parsed)] = Form{
				Constructor: fmt.Sprintf("%s as %s returns it (%s), held by pointer: a pqkit.Clone of one of %d keys parsed so", d.PKName, d.ParsePK.API, d.PKHolds, Distinct),
				SizeHint:    unsafe.Sizeof(*new(PK)),
				BytesHint:   HeldSize[PK](),
				Case:        func() memprof.Case { return CloneCase(d.ParsedPKs) },
			}
		}
	}
	return Entries(d.Lib, t.List(), []Set{d.Set}, d.lacks(t), forms)
}

// ParsedPKs returns Distinct public keys parsed by the library from their
// packed form (the inputs of the public-key cases and scenarios).
func (d Sig[SK, PK]) ParsedPKs() ([]*PK, error) {
	in, err := d.inputs()
	if err != nil {
		return nil, err
	}
	var out []*PK
	for _, pk := range in.pks {
		p, err := d.ParsePK.Do(d.PackPK.Do(pk))
		if err != nil {
			return nil, fmt.Errorf("%s %s: %s: %w", d.Lib, d.Set, d.ParsePK.API, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// PackedPKs returns Distinct public keys packed.
func (d Sig[SK, PK]) PackedPKs() ([][]byte, error) {
	in, err := d.inputs()
	if err != nil {
		return nil, err
	}
	return packAll(d.PackPK, in.pks), nil
}

func (d Sig[SK, PK]) loadBytes(f func(*sigInputs[SK, PK]) [][]byte) func() ([][]byte, error) {
	return func() ([][]byte, error) {
		in, err := d.inputs()
		if err != nil {
			return nil, err
		}
		return f(in), nil
	}
}

// Ops returns the library's operations on the types t at the set: key
// generation from the seed; parsing and packing of both keys; the seed
// back; signing from every form of the private key (deterministic) and
// verifying from every form of the public key, each including the calls
// that bring the key to its parsed form. slow marks the signing paths
// from the seed and the packed key FullMatrix (SLH-DSA: seconds a call).
func (d Sig[SK, PK]) Ops(t SigTypes, slow bool) []suites.Op {
	rows := d.keyRows(t)
	rows = append(rows, d.signRows(t, slow)...)
	rows = append(rows, d.verifyRows(t)...)
	return ops(d.Lib, d.Set, d.Lacks, rows)
}

// keyGenVector is the set's first key-generation vector: seed, packed
// public key and packed private key.
func (d Sig[SK, PK]) keyGenVector() ([]byte, []byte, []byte, error) { return d.Vectors.KeyGen(d.Set) }

// packedPK is the packed public key of sk, the answer of the operations
// that make a private key.
func (d Sig[SK, PK]) packedPK(sk *SK) ([]byte, error) { return d.PackPK.Do(d.PKOf(sk)), nil }

// wantPK and wantSK are the packed keys of the first key-generation vector.
func (d Sig[SK, PK]) wantPK() ([]byte, error) { _, pk, _, err := d.keyGenVector(); return pk, err }

func (d Sig[SK, PK]) wantSK() ([]byte, error) { _, _, sk, err := d.keyGenVector(); return sk, err }

// keyRows are key generation, the seed back, and parsing and packing of
// both keys.
func (d Sig[SK, PK]) keyRows(t SigTypes) []row {
	return []row{
		{typ: t.Private, repr: vocab.Seed, op: vocab.KeyGen, path: []string{d.KeyGen.API}, lacks: d.KeyGen.Lacks,
			note: d.KeyGen.API + " of the seed of the set's first key-generation vector (its public key is compared, not timed)",
			prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				if in.Invalid {
					return suites.OpHarness{}, suites.ErrNoInvalidInput
				}
				seed, _, _, err := d.keyGenVector()
				if err != nil {
					return suites.OpHarness{}, err
				}
				return produce(func() (*SK, error) { return d.KeyGen.Do(seed) }, d.packedPK), nil
			}, want: d.wantPK},
		{typ: t.Private, repr: vocab.Packed, op: vocab.Parse, path: []string{d.ParseSK.API}, lacks: d.ParseSK.Lacks,
			note: d.ParseSK.API + " of the packed private key of the set's first key-generation vector; invalid input: one byte short",
			prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				_, _, b, err := d.keyGenVector()
				if err != nil {
					return suites.OpHarness{}, err
				}
				if in.Invalid {
					b = short(b)
				}
				return produce(func() (*SK, error) { return d.ParseSK.Do(b) }, d.packedPK), nil
			}, want: d.wantPK},
		{typ: t.Private, repr: vocab.Parsed, op: vocab.Pack, path: []string{d.PackSK.API}, lacks: d.PackSK.Lacks,
			note:    d.PackSK.API + " of the key of the set's first key-generation vector",
			prepare: d.fromKey(d.keyGenVector, func(sk *SK) func() ([]byte, error) { return func() ([]byte, error) { return d.PackSK.Do(sk), nil } }),
			want:    d.wantSK},
		{typ: t.Private, repr: vocab.Parsed, op: vocab.ToSeed, path: []string{d.ToSeed.API}, lacks: d.ToSeed.Lacks,
			note:    d.ToSeed.API + " of the key of the set's first key-generation vector",
			prepare: d.fromKey(d.keyGenVector, func(sk *SK) func() ([]byte, error) { return func() ([]byte, error) { return d.ToSeed.Do(sk), nil } }),
			want:    func() ([]byte, error) { seed, _, _, err := d.keyGenVector(); return seed, err }},
		{typ: t.Public, repr: vocab.Packed, op: vocab.Parse, path: []string{d.ParsePK.API}, lacks: d.ParsePK.Lacks,
			note: d.ParsePK.API + " of the public key of the set's first key-generation vector; invalid input: one byte short",
			prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				_, b, _, err := d.keyGenVector()
				if err != nil {
					return suites.OpHarness{}, err
				}
				if in.Invalid {
					b = short(b)
				}
				return produce(func() (*PK, error) { return d.ParsePK.Do(b) }, func(p *PK) ([]byte, error) { return d.PackPK.Do(p), nil }), nil
			}, want: d.wantPK},
		{typ: t.Public, repr: vocab.Parsed, op: vocab.Pack, path: []string{d.PackPK.API}, lacks: d.PackPK.Lacks,
			note: d.PackPK.API + " of the public key of the set's first key-generation vector",
			prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				if in.Invalid {
					return suites.OpHarness{}, suites.ErrNoInvalidInput
				}
				_, b, _, err := d.keyGenVector()
				if err != nil {
					return suites.OpHarness{}, err
				}
				p, err := d.ParsePK.Do(b)
				if err != nil {
					return suites.OpHarness{}, err
				}
				return produce(func() ([]byte, error) { return d.PackPK.Do(p), nil }, same), nil
			}, want: d.wantPK},
	}
}

// signRows are signing from every form of the private key; slow marks
// those from the seed and the packed key FullMatrix.
func (d Sig[SK, PK]) signRows(t SigTypes, slow bool) []row {
	var rows []row
	// Signing from every form of the private key, deterministic, of the
	// set's first signature vector; no invalid input.
	for _, from := range []struct {
		repr  vocab.Repr
		calls []string
		lacks vocab.Why
		full  bool
		load  func(seed, sk []byte) (func() (*SK, error), error)
	}{
		{vocab.Seed, []string{d.KeyGen.API}, d.KeyGen.Lacks, slow, func(seed, sk []byte) (func() (*SK, error), error) {
			if seed == nil {
				return nil, fmt.Errorf("the signature vector of %s has no seed", d.Set)
			}
			return func() (*SK, error) { return d.KeyGen.Do(seed) }, nil
		}},
		{vocab.Packed, []string{d.ParseSK.API}, lacking(d.ParseSK.Lacks, d.PackSK.Lacks), slow, func(seed, sk []byte) (func() (*SK, error), error) {
			if sk == nil {
				p, err := d.KeyGen.Do(seed)
				if err != nil {
					return nil, err
				}
				sk = d.PackSK.Do(p)
			}
			return func() (*SK, error) { return d.ParseSK.Do(sk) }, nil
		}},
		{vocab.Parsed, nil, vocab.Why{}, false, func(seed, sk []byte) (func() (*SK, error), error) {
			var p *SK
			var err error
			if seed != nil {
				p, err = d.KeyGen.Do(seed)
			} else {
				p, err = d.ParseSK.Do(sk)
			}
			return func() (*SK, error) { return p, nil }, err
		}},
	} {
		note := d.Sign.API + " (deterministic) of the message of the set's first signature vector, with its context"
		if len(from.calls) > 0 {
			note = from.calls[0] + " of the key's " + string(from.repr) + " form, then " + note
		}
		rows = append(rows, row{typ: t.Private, repr: from.repr, op: vocab.Sign, path: append(from.calls, d.Sign.API),
			lacks: lacking(from.lacks, d.Sign.Lacks), note: note, full: from.full,
			prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				if in.Invalid {
					return suites.OpHarness{}, suites.ErrNoInvalidInput
				}
				seed, sk, msg, ctx, _, err := d.Vectors.Sign(d.Set)
				if err != nil {
					return suites.OpHarness{}, err
				}
				load, err := from.load(seed, sk)
				if err != nil {
					return suites.OpHarness{}, err
				}
				return produce(func() ([]byte, error) {
					p, err := load()
					if err != nil {
						return nil, err
					}
					return d.Sign.Do(p, msg, ctx)
				}, same), nil
			},
			want: func() ([]byte, error) { _, _, _, _, sig, err := d.Vectors.Sign(d.Set); return sig, err }})
	}
	return rows
}

// verifyRows are verification from both forms of the public key.
func (d Sig[SK, PK]) verifyRows(t SigTypes) []row {
	var rows []row
	// Verification from both forms of the public key, of the set's first
	// valid verification vector; invalid input: its signature with one bit
	// flipped.
	for _, packed := range []bool{true, false} {
		r := row{typ: t.Public, repr: vocab.Parsed, op: vocab.Verify, path: []string{d.Verify.API}, lacks: d.Verify.Lacks,
			note: d.Verify.API + " of the set's first valid verification vector; invalid input: its signature with one bit flipped"}
		if packed {
			r.repr, r.path, r.lacks = vocab.Packed, []string{d.ParsePK.API, d.Verify.API}, lacking(d.ParsePK.Lacks, d.Verify.Lacks)
			r.note = d.ParsePK.API + " of the packed key, then " + r.note
		}
		r.prepare = func(in suites.OpInput) (suites.OpHarness, error) {
			pkb, msg, ctx, sig, err := d.Vectors.Verify(d.Set)
			if err != nil {
				return suites.OpHarness{}, err
			}
			if in.Invalid {
				sig = flip(sig, len(sig)/2)
			}
			var parsed *PK
			if !packed {
				if parsed, err = d.ParsePK.Do(pkb); err != nil {
					return suites.OpHarness{}, err
				}
			}
			return verified(func() (bool, error) {
				p := parsed
				if packed {
					var err error
					if p, err = d.ParsePK.Do(pkb); err != nil {
						return false, err
					}
				}
				return d.Verify.Do(p, msg, ctx, sig), nil
			}), nil
		}
		r.want = wantTrue
		rows = append(rows, r)
	}
	return rows
}

// fromKey prepares an operation on the parsed key of the set's first
// key-generation vector; it has no invalid input.
func (d Sig[SK, PK]) fromKey(keyGen func() ([]byte, []byte, []byte, error), do func(*SK) func() ([]byte, error)) func(suites.OpInput) (suites.OpHarness, error) {
	return func(in suites.OpInput) (suites.OpHarness, error) {
		if in.Invalid {
			return suites.OpHarness{}, suites.ErrNoInvalidInput
		}
		seed, _, _, err := keyGen()
		if err != nil {
			return suites.OpHarness{}, err
		}
		p, err := d.KeyGen.Do(seed)
		if err != nil {
			return suites.OpHarness{}, err
		}
		return produce(do(p), same), nil
	}
}

// SigAgree is what the ML-DSA and SLH-DSA agreement checks need from one
// library at one set, in bytes.
type SigAgree struct {
	Set Set
	// FromSeed expands seed and returns the public key, the packed private
	// key (nil where the library has none) and the seed the key gives back
	// (nil where it keeps none).
	FromSeed func(seed []byte) (pk, packed, seedBack []byte, err error)
	// Sign signs deterministically with the key of seed.
	Sign func(seed, msg, ctx []byte) ([]byte, error)
	// SignPacked signs with the packed key sk, deterministically when
	// random is nil; nil where the library has no packed key.
	SignPacked func(sk, msg, ctx, random []byte) ([]byte, error)
	// Verify verifies sig under the packed public key pk; it fails for a
	// key the library cannot parse (one of the wrong length).
	Verify func(pk, msg, ctx, sig []byte) (bool, error)
}

func (a SigAgree) at() Set { return a.Set }

// Agree returns the library's part in its family's agreement check at the
// set, or false when it lacks the set.
func (d Sig[SK, PK]) Agree() (SigAgree, bool) {
	if !d.Lacks.IsZero() {
		return SigAgree{}, false
	}
	a := SigAgree{Set: d.Set,
		FromSeed: fromSeed(d.KeyGen, d.PKOf, d.PackPK, d.PackSK, d.ToSeed),
		Sign: func(seed, msg, ctx []byte) ([]byte, error) {
			p, err := d.KeyGen.Do(seed)
			if err != nil {
				return nil, err
			}
			return d.Sign.Do(p, msg, ctx)
		},
		Verify: func(pkb, msg, ctx, sig []byte) (bool, error) {
			p, err := d.ParsePK.Do(pkb)
			if err != nil {
				return false, err
			}
			return d.Verify.Do(p, msg, ctx, sig), nil
		},
	}
	if d.ParseSK.ok() {
		a.SignPacked = func(sk, msg, ctx, random []byte) ([]byte, error) {
			p, err := d.ParseSK.Do(sk)
			if err != nil {
				return nil, err
			}
			if random != nil && d.SignRandomized != nil {
				return d.SignRandomized(p, msg, ctx, random)
			}
			return d.Sign.Do(p, msg, ctx)
		}
	}
	return a, true
}
