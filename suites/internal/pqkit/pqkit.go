// Package pqkit is what the post-quantum suites (suites/stdmlkem,
// suites/circlpq, suites/filippomldsa) share: the parameter sets and the
// matrix of types and representations each covers, one generic
// description per scheme (KEM, DSA, SLH) that a library fills in with its
// calls and that gives its entries, its operations and its part of the
// agreement check, the deterministic inputs, and the copy (Clone) that
// builds large parsed keys from a handful made once per process.
//
// Every value of a case is real: keys expanded from seeds by the library,
// signatures it made, or the known answers of fixtures/pq. What a case
// keeps does not depend on its values being distinct, so each case makes
// Distinct values in Prepare and instance i holds a copy of value
// i%Distinct.
package pqkit

import (
	"crypto/sha512"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/memprof/memprof/internal/typeptr"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// Set is a parameter set, spelled as its standard spells it: ML-KEM-768,
// ML-DSA-65, SLH-DSA-SHA2-128s.
type Set string

// Param is the set as a case's parameter: set=ML-DSA-65.
func (s Set) Param() results.Param { return results.Param("set=" + string(s)) }

// SetOf returns the set a parameter names, "" for another parameter.
func SetOf(p results.Param) Set {
	name, v := p.Split()
	if name != "set" {
		return ""
	}
	return Set(v)
}

// The parameter sets measured: FIPS 203's three, FIPS 204's three and
// FIPS 205's SHA2 and SHAKE sets at 128s and 128f.
var (
	KEMSets = []Set{"ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"}
	DSASets = []Set{"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"}
	SLHSets = []Set{"SLH-DSA-SHA2-128s", "SLH-DSA-SHAKE-128s", "SLH-DSA-SHA2-128f", "SLH-DSA-SHAKE-128f"}
)

// DefaultN is the N every single-object post-quantum case is measured at
// when none is given: the largest object, filippo.io/mldsa's private key
// (91,872 B in a 98,304-byte slot), then takes 983 MB, under the 1 GB a
// case may hold. The budgets check at this N.
const DefaultN = 10_000

// nWhy is why the post-quantum entries are measured at DefaultN.
const nWhy = "post-quantum keys and signatures are kilobytes to tens of kilobytes each, and a parsed key is made by a slow library call: a smaller N keeps a case's memory and time modest"

// Distinct is how many distinct values a case makes in Prepare; instance
// i holds a copy of value i%Distinct.
const Distinct = 16

// Reprs are the representations of the post-quantum types: the seed a key
// is expanded from, the packed encoding of the standard, the library's
// parsed object.
var Reprs = []vocab.Repr{vocab.Seed, vocab.Packed, vocab.Parsed}

// Seed returns seed i of n bytes (at most 64): the first n bytes of
// SHA-512("memprof pq seed <i>").
func Seed(i, n int) []byte {
	h := sha512.Sum512([]byte("memprof pq seed " + strconv.Itoa(i)))
	return h[:n:n]
}

// Message returns message i that the signature cases sign.
func Message(i int) []byte { return []byte("memprof pq message " + strconv.Itoa(i)) }

// Context is the context string every signature case signs with
// (FIPS 204 and 205 take one of up to 255 bytes).
var Context = []byte("memprof")

// Form is how a library keeps one type in one representation at one set.
type Form struct {
	Constructor string
	SizeHint    uintptr
	// BytesHint is what an instance keeps with the objects it points to,
	// where that is beyond SizeHint (HeldSize of a parsed key's type).
	BytesHint uint64
	Case      func() memprof.Case
}

// Entries returns one entry per type of types, representation of Reprs
// and set of sets, for lib: unavailable for lacks(key) when that is not
// zero, else made by forms[key]. Every entry is of the pointer layout and
// measured at DefaultN. It panics when an available key has no form or a
// form has no available key: a suite and its table disagree.
func Entries(lib vocab.Lib, types []vocab.Type, sets []Set, lacks func(results.Key) vocab.Why, forms map[results.Key]Form) []suites.Entry {
	used := map[results.Key]bool{}
	var out []suites.Entry
	for _, t := range types {
		for _, r := range Reprs {
			for _, s := range sets {
				k := results.Key{Type: t, Lib: lib, Repr: r, Layout: measure.Pointer, Param: s.Param()}
				e := suites.Entry{Key: k}
				if why := lacks(k); !why.IsZero() {
					e.Unavailable = why
				} else {
					f, ok := forms[k]
					if !ok {
						panic(fmt.Sprintf("pqkit: %s is available but has no form", k))
					}
					used[k] = true
					e.Constructor, e.SizeHint, e.BytesHint, e.DefaultN, e.NWhy, e.Case = f.Constructor, f.SizeHint, f.BytesHint, DefaultN, nWhy, f.Case
				}
				out = append(out, e)
			}
		}
	}
	for k := range forms {
		if !used[k] {
			panic(fmt.Sprintf("pqkit: form for %s, which is unavailable or outside the matrix", k))
		}
	}
	return out
}

// DoesNotApply is the reason of a representation a type does not have: a
// seed of a public key, a ciphertext or a signature. It says what the
// seed is and why the type has none: a public key is computed from the
// private key's seed, which it cannot give back; a ciphertext or a
// signature is an operation's output.
func DoesNotApply(t vocab.Type, r vocab.Repr) vocab.Why {
	what, why := noSeed[t][0], noSeed[t][1]
	if what == "" {
		what, why = string(t), "only a private key is expanded from a seed"
	}
	return vocab.Because(vocab.DoesNotApply, "does not apply: %s has no %s form: %s", what, r, why)
}

// noSeed names each type without a seed and says why it has none.
var noSeed = map[vocab.Type][2]string{
	vocab.MLKEMEncapsulationKey: {"an ML-KEM encapsulation key", "the 64-byte seed d‖z is the decapsulation key's, and the encapsulation key is computed from it, which cannot be undone (a public key that gave its seed would give the private key)"},
	vocab.MLDSAPublicKey:        {"an ML-DSA public key", "the 32-byte seed ξ is the private key's, and the public key is computed from it, which cannot be undone (a public key that gave its seed would give the private key)"},
	vocab.SLHDSAPublicKey:       {"an SLH-DSA public key", "its seeds (SK.seed, SK.prf, PK.seed) are the private key's, and the public key's root is computed from them, which cannot be undone"},
	vocab.MLKEMCiphertext:       {"an ML-KEM ciphertext", "it is the output of an encapsulation to a key, not expanded from a seed"},
	vocab.MLDSASignature:        {"an ML-DSA signature", "it is the output of signing a message, not expanded from a seed"},
	vocab.SLHDSASignature:       {"an SLH-DSA signature", "it is the output of signing a message, not expanded from a seed"},
}

// Bytes returns a new array of len(b) bytes holding a copy of b, as a
// program keeps an encoding whose length the standard fixes (a
// [1088]byte ciphertext): one object of exactly len(b) bytes.
func Bytes(b []byte) any { return newArray(arrayOf(len(b)), b) }

// arrayOf is the type [n]byte. reflect.ArrayOf caches the types it makes
// (a runtime allocation at the first call for each n), so cases call it
// in Prepare.
func arrayOf(n int) reflect.Type { return reflect.ArrayOf(n, reflect.TypeFor[byte]()) }

// newArray returns a new array of type t holding a copy of b.
func newArray(t reflect.Type, b []byte) any {
	p := reflect.New(t)
	reflect.Copy(p.Elem(), reflect.ValueOf(b))
	return p.Interface()
}

// BytesCase is the case whose instance i is a new array holding a copy of
// value i%len of what load returns (computed once, in Prepare).
func BytesCase(load func() ([][]byte, error)) memprof.Case {
	var vals [][]byte
	var types []reflect.Type
	return memprof.Case{
		Prepare: func(int) (err error) {
			if vals, err = load(); err != nil {
				return err
			}
			for _, v := range vals {
				types = append(types, arrayOf(len(v)))
			}
			return nil
		},
		New: func(i int) any { return newArray(types[i%len(types)], vals[i%len(vals)]) },
	}
}

// CloneCase is the case whose instance i is Clone of value i%len of what
// load returns: a library's parsed key made once per value, copied.
func CloneCase[T any](load func() ([]*T, error)) memprof.Case {
	var vals []*T
	return memprof.Case{
		Prepare: func(int) (err error) { vals, err = load(); return err },
		New:     func(i int) any { return Clone(vals[i%len(vals)]) },
	}
}

// MadeCase is the case whose instance i is what make returns for value
// i%len of what load returns (a library call that parses it).
func MadeCase[V any](load func() ([]V, error), mk func(V) any) memprof.Case {
	var vals []V
	return memprof.Case{
		Prepare: func(int) (err error) { vals, err = load(); return err },
		New:     func(i int) any { return mk(vals[i%len(vals)]) },
	}
}

// HeldSize is the size of a T with the objects its pointers point to (a
// parsed key's expanded matrix behind a pointer), from the types alone:
// each pointer reachable in T without following a slice, map or
// interface (whose lengths the type does not tell) counts its element's
// HeldSize once. It is what the memory estimate of a run reads
// (suites.Entry.BytesHint), not a measurement.
func HeldSize[T any]() uint64 { return heldSize(reflect.TypeFor[T](), nil) }

// heldSize is t's HeldSize; a type already on the path (a list's next
// pointer) counts no further.
func heldSize(t reflect.Type, path []reflect.Type) uint64 {
	if slices.Contains(path, t) {
		return 0
	}
	return uint64(t.Size()) + pointees(t, append(path, t))
}

// pointees is the HeldSize of what the pointers reachable in t point to.
func pointees(t reflect.Type, path []reflect.Type) uint64 {
	switch t.Kind() {
	case reflect.Pointer:
		return heldSize(t.Elem(), path)
	case reflect.Struct:
		var sum uint64
		for i := range t.NumField() {
			sum += pointees(t.Field(i).Type, path)
		}
		return sum
	case reflect.Array:
		return uint64(t.Len()) * pointees(t.Elem(), path)
	}
	return 0
}

// Clone returns a copy of *src that shares no memory with it: the struct
// copied, and every object a pointer in it points to copied into an
// object of its own, as the library's constructor would have allocated
// it. It panics on a type it cannot copy so (a pointer to an object that
// holds pointers, a slice, a map, an interface, a non-empty string): such
// a key is made by its library's own call instead. What a clone keeps is
// checked against the library's constructor in each suite's tests.
func Clone[T any](src *T) *T {
	dst := new(T)
	*dst = *src
	cloneIn(reflect.ValueOf(dst).Elem())
	return dst
}

// cloneIn gives every pointer reachable in v, without following one, an
// object of its own.
func cloneIn(v reflect.Value) {
	if !typeptr.Has(v.Type()) {
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			cloneIn(v.Field(i))
		}
	case reflect.Array:
		for i := range v.Len() {
			cloneIn(v.Index(i))
		}
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		elem := v.Type().Elem()
		if typeptr.Has(elem) {
			panic(fmt.Sprintf("pqkit.Clone: %s points to an object holding pointers", v.Type()))
		}
		// An unexported field's value is read-only to reflect: write it
		// through its address.
		w := reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
		p := reflect.New(elem)
		p.Elem().Set(w.Elem())
		w.Set(p)
	case reflect.String:
		if v.Len() > 0 {
			panic(fmt.Sprintf("pqkit.Clone: a string field (%q) would be shared", v.String()))
		}
	default:
		panic(fmt.Sprintf("pqkit.Clone: cannot copy a %s field", v.Type()))
	}
}

// Calls joins the names of the calls a path makes, for Op.Path.
func Calls(calls ...string) string { return strings.Join(calls, ", ") }
