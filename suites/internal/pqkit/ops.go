package pqkit

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// Call is one library call a description names: API is what a reader
// looks up ("mlkem.NewDecapsulationKey768"), Do the call; or Lacks, of
// kind NotOffered, says why the library has none.
type Call[F any] struct {
	API   string
	Do    F
	Lacks vocab.Why
}

// Offers returns the call api doing do.
func Offers[F any](api string, do F) Call[F] { return Call[F]{API: api, Do: do} }

// Lacks returns the call a library does not have, for the reason given.
func Lacks[F any](lib vocab.Lib, format string, a ...any) Call[F] {
	return Call[F]{Lacks: suites.NotOffered(lib, format, a...)}
}

// ok reports whether the library has the call.
func (c Call[F]) ok() bool { return c.Lacks.IsZero() }

// row is one operation of a scheme's table: the type and representation
// it starts from, the op, what is timed (note, path), and how it is
// prepared and checked; lacks says why the library cannot do it.
type row struct {
	typ     vocab.Type
	repr    vocab.Repr
	op      vocab.Op
	note    string
	path    []string
	lacks   vocab.Why
	full    bool
	prepare func(in suites.OpInput) (suites.OpHarness, error)
	want    func() ([]byte, error)
}

// ops turns rows into the operations of lib at set: all unavailable for
// setLacks when it is set (the library has no such set).
func ops(lib vocab.Lib, set Set, setLacks vocab.Why, rows []row) []suites.Op {
	var out []suites.Op
	for _, r := range rows {
		o := suites.Op{Key: results.Key{Type: r.typ, Lib: lib, Repr: r.repr, Op: r.op, Batch: 1, Param: set.Param()}}
		switch {
		case !setLacks.IsZero():
			o.Unavailable = setLacks
		case !r.lacks.IsZero():
			o.Unavailable = r.lacks
		default:
			o.Note, o.Path, o.Prepare, o.Want, o.FullMatrix = r.note, Calls(r.path...), r.prepare, r.want, r.full
		}
		out = append(out, o)
	}
	return out
}

// lacking returns the first reason among the calls a row needs.
func lacking(whys ...vocab.Why) vocab.Why {
	for _, w := range whys {
		if !w.IsZero() {
			return w
		}
	}
	return vocab.Why{}
}

// produce is the harness of an operation that makes bytes: Run keeps what
// run returns; Result returns result of it (run's bytes when result is
// nil), not timed.
func produce[T any](run func() (T, error), result func(T) ([]byte, error)) suites.OpHarness {
	var out T
	return suites.OpHarness{
		Run:    func() (err error) { out, err = run(); return err },
		Result: func() ([]byte, error) { return result(out) },
	}
}

// same is the result of an operation whose output is the bytes.
func same(b []byte) ([]byte, error) { return b, nil }

// errRejected is what a verification's Run returns for a signature the
// library does not accept.
var errRejected = errors.New("the signature does not verify")

// verified is the harness of a verification: Run fails with errRejected
// when check is false; Result is suites.OpBool of the last outcome.
func verified(check func() (bool, error)) suites.OpHarness {
	return suites.BoolHarness(check, errRejected, suites.OpBool)
}

// wantTrue is the Want of a verification.
func wantTrue() ([]byte, error) { return suites.OpBool(true), nil }

// flip returns b with bit 0 of byte i flipped (i counts from the end when
// negative).
func flip(b []byte, i int) []byte {
	out := bytes.Clone(b)
	if i < 0 {
		i += len(out)
	}
	out[i] ^= 1
	return out
}

// short returns b without its last byte: an encoding of the wrong length.
func short(b []byte) []byte { return bytes.Clone(b[:len(b)-1]) }

// must panics on err: for values a library made in Prepare from inputs it
// was checked on.
func must[T any](v T, err error) T {
	if err != nil {
		panic(fmt.Sprintf("pqkit: %v", err))
	}
	return v
}

// fromSeed is the agreement check's FromSeed of a family whose private
// key K is made from a seed and has a public half P: the public key
// packed, the private key packed and the seed back, each nil where the
// library lacks the call.
func fromSeed[K, P any](keyGen Call[func(seed []byte) (*K, error)], publicOf func(*K) *P, packPublic Call[func(*P) []byte], packPrivate, toSeed Call[func(*K) []byte]) func(seed []byte) (public, packed, seedBack []byte, err error) {
	return func(seed []byte) (public, packed, seedBack []byte, err error) {
		k, err := keyGen.Do(seed)
		if err != nil {
			return nil, nil, nil, err
		}
		public = packPublic.Do(publicOf(k))
		if packPrivate.ok() {
			packed = packPrivate.Do(k)
		}
		if toSeed.ok() {
			seedBack = toSeed.Do(k)
		}
		return public, packed, seedBack, nil
	}
}

// packAll packs each of xs with pack.
func packAll[T any](pack Call[func(*T) []byte], xs []*T) [][]byte {
	var out [][]byte
	for _, x := range xs {
		out = append(out, pack.Do(x))
	}
	return out
}

// familyLacks says why a library lacks a key of a post-quantum family:
// all, when it lacks the set; a seed of anything but the private key; a
// parsed form of the third object (ciphertext or signature), which it
// handles as bytes only (why); a packed private key, when it cannot pack
// or parse one (packed).
type familyLacks struct {
	lib     vocab.Lib
	all     vocab.Why
	private vocab.Type
	third   vocab.Type
	why     string
	packed  vocab.Why
}

func (f familyLacks) of(k results.Key) vocab.Why {
	if !f.all.IsZero() {
		return f.all
	}
	switch {
	case k.Type != f.private && k.Repr == vocab.Seed:
		return DoesNotApply(k.Type, k.Repr)
	case k.Type == f.third && k.Repr == vocab.Parsed:
		return suites.NotOffered(f.lib, "%s", f.why)
	case k.Type == f.private && k.Repr == vocab.Packed:
		return f.packed
	}
	return vocab.Why{}
}
