package secpkit

import (
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// Reprs are the representations of each secp256k1 object type, in matrix
// order: a secret key as its 32 bytes and as the library's object; a public
// key compressed (33 B), uncompressed (65 B), as the library's decoded
// point and as its 20-byte address; a signature as R‖S‖V (65 B), R‖S
// (64 B), DER and the library's decoded signature.
var Reprs = map[vocab.Type][]vocab.Repr{
	vocab.Secp256k1SecretKey: {vocab.ByteForm, vocab.Decoded},
	vocab.Secp256k1PublicKey: {vocab.Compressed, vocab.Uncompressed, vocab.Decoded, vocab.Address},
	vocab.Secp256k1Signature: {vocab.RSV, vocab.RS, vocab.DER, vocab.Decoded},
}

// ObjectTypes are the family's single-object types, in vocabulary order.
var ObjectTypes = []vocab.Type{vocab.Secp256k1SecretKey, vocab.Secp256k1PublicKey, vocab.Secp256k1Signature}

// ObjectKeys returns lib's single-object entries' keys: every
// representation of every type, in the pointer layout (each instance its
// own heap object).
func ObjectKeys(lib vocab.Lib) []results.Key {
	var out []results.Key
	for _, t := range ObjectTypes {
		for _, r := range Reprs[t] {
			out = append(out, results.Key{Type: t, Lib: lib, Repr: r, Layout: measure.Pointer})
		}
	}
	return out
}

// Impl is how a suite makes one available entry.
type Impl struct {
	// Constructor is a short, honest sentence of how one instance is made.
	Constructor string
	// SizeHint is unsafe.Sizeof of the representation (the case's SizeOf
	// when it sets one).
	SizeHint uintptr
	// DefaultN and FixedN are the entry's (a scenario's population).
	DefaultN, FixedN int
	// Case builds the case; called only when the entry is measured.
	Case func() memprof.Case
}

// Entries returns one entry per key: unavailable for lacks(key) when that
// is not zero (the library has no such form), else for build (this build
// cannot run the library: no cgo), else made by impls[key]. It panics
// when an available key has no Impl or an Impl has no available key: the
// suite's table and its constructors have drifted apart.
func Entries(keys []results.Key, lacks func(results.Key) vocab.Why, build vocab.Why, impls map[results.Key]Impl) []suites.Entry {
	return suites.EntriesOf("secpkit", keys,
		func(k results.Key) suites.Entry {
			e := suites.Entry{Key: k}
			if k.Type == vocab.SenderCache {
				e.DefaultN, e.FixedN = populationOf(k), populationOf(k)
			}
			return e
		},
		func(k results.Key) vocab.Why {
			if why := lacks(k); !why.IsZero() {
				return why
			}
			return build
		},
		impls, func(e *suites.Entry, im Impl) {
			e.Constructor, e.SizeHint, e.Case = im.Constructor, im.SizeHint, im.Case
			if im.DefaultN != 0 {
				e.DefaultN = im.DefaultN
			}
		})
}

// Pointer is a pointer-layout case: Prepare computes the library's values
// (profiling is off then), and instance i is what newInstance makes from
// value i%Distinct.
func Pointer[T any](values func() *Values, newInstance func(v *Values, i int) *T) memprof.Case {
	var v *Values
	return memprof.Case{
		Prepare: func(int) error { v = values(); return nil },
		New:     func(i int) any { return newInstance(v, i%Distinct) },
	}
}

// NotOffered returns the reason of a representation lib lacks, of kind
// NotOffered: "not offered by <lib>: " and the formatted reason.
func NotOffered(lib vocab.Lib, format string, a ...any) vocab.Why {
	return suites.NotOffered(lib, format, a...)
}
