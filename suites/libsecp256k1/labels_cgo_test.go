//go:build cgo

package libsecp256k1

import (
	"math/big"
	"reflect"
	"slices"
	"testing"

	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/vocab"
)

// TestLabelsFollowTheObjects: a row is go-ethereum's exactly when what
// its instance keeps reaches go-ethereum's pure-Go objects (a math/big
// Int, of an *ecdsa.PrivateKey or *ecdsa.PublicKey), which libsecp256k1's
// C code never holds; every other row keeps bytes libsecp256k1 computes or
// takes. Each instance is built, and its type walked.
func TestLabelsFollowTheObjects(t *testing.T) {
	for _, e := range Suite().Entries {
		if !e.Unavailable.IsZero() {
			continue
		}
		v := oneInstance(t, e.Case())
		holdsBig := reaches(reflect.TypeOf(v), reflect.TypeFor[big.Int](), nil)
		if want := map[bool]vocab.Lib{true: vocab.GoEthereum, false: vocab.Libsecp256k1}[holdsBig]; e.Lib != want {
			t.Errorf("%s: keeps a %T (math/big: %v), labelled %s; want %s", e.Key, v, holdsBig, e.Lib, want)
		}
	}
	for _, o := range Suite().Ops {
		if want := libOf(o.Type, o.Repr); o.Lib != want {
			t.Errorf("operation %s from %s: labelled %s, want %s, the library of the form it starts from", o.Key, o.Repr, o.Lib, want)
		}
	}
}

// oneInstance builds one instance of c (of a small population for a
// collection).
func oneInstance(t *testing.T, c memprof.Case) any {
	t.Helper()
	if c.Prepare != nil {
		if err := c.Prepare(2); err != nil {
			t.Fatal(err)
		}
	}
	switch {
	case c.New != nil:
		return c.New(0)
	case c.NewOne != nil:
		return c.NewOne()
	case c.NewAll != nil:
		return c.NewAll(2)
	case c.NewSlice != nil:
		return c.NewSlice(2)
	}
	t.Fatal("a case with no constructor")
	return nil
}

// reaches reports whether a value of type t can hold a target, by value
// or through pointers, slices, arrays, maps and struct fields.
func reaches(t, target reflect.Type, seen []reflect.Type) bool {
	if t == target {
		return true
	}
	if slices.Contains(seen, t) {
		return false
	}
	seen = append(seen, t)
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return reaches(t.Elem(), target, seen)
	case reflect.Map:
		return reaches(t.Key(), target, seen) || reaches(t.Elem(), target, seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if reaches(t.Field(i).Type, target, seen) {
				return true
			}
		}
	}
	return false
}
