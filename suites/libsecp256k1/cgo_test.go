//go:build cgo

package libsecp256k1

import (
	"crypto/ecdsa"
	"math/big"
	"reflect"
	"testing"
	"unsafe"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites/internal/secpkit"
	"github.com/memprof/memprof/suites/internal/secptest"
	"github.com/memprof/memprof/vocab"
)

// bigInt is what one *big.Int of a 32-byte value keeps: the big.Int and
// its words, in the capacity math/big gave them (read from the value).
func bigInt(t *testing.T, x *big.Int) secptest.Kept {
	t.Helper()
	return secptest.Slot(t, unsafe.Sizeof(big.Int{})).Plus(secptest.Slot(t, uintptr(cap(x.Bits()))*unsafe.Sizeof(big.Word(0))))
}

// keptByValue returns what each value's instance keeps by construction,
// and fails unless every value keeps the same (a value with fewer words
// would change the average).
func keptByValue(t *testing.T, of func(i int) secptest.Kept) secptest.Kept {
	t.Helper()
	k := of(0)
	for i := range secpkit.Distinct {
		if o := of(i); o != k {
			t.Fatalf("value %d keeps %v, value 0 %v: the figures would depend on N", i, o, k)
		}
	}
	return k
}

// kept is what an instance of each entry keeps, by construction: a byte
// array one object of its size class; an *ecdsa.PublicKey the struct and
// two big.Ints with their words; an *ecdsa.PrivateKey the struct and
// three.
func kept(t *testing.T, k results.Key) secptest.Kept {
	v := values()
	switch string(k.Type) + "/" + string(k.Repr) {
	case "Secp256k1SecretKey/bytes":
		return secptest.Slot(t, 32)
	case "Secp256k1SecretKey/decoded":
		return keptByValue(t, func(i int) secptest.Kept {
			p := privateKey(&v.SecretKeys[i], &v.Uncompressed[i])
			return secptest.Slot(t, unsafe.Sizeof(ecdsa.PrivateKey{})).Plus(bigInt(t, p.D), bigInt(t, p.X), bigInt(t, p.Y))
		})
	case "Secp256k1PublicKey/compressed":
		return secptest.Slot(t, 33)
	case "Secp256k1PublicKey/uncompressed", "Secp256k1Signature/rsv":
		return secptest.Slot(t, 65)
	case "Secp256k1PublicKey/decoded":
		return keptByValue(t, func(i int) secptest.Kept {
			p := publicKey(&v.Uncompressed[i])
			return secptest.Slot(t, unsafe.Sizeof(ecdsa.PublicKey{})).Plus(bigInt(t, p.X), bigInt(t, p.Y))
		})
	case "Secp256k1PublicKey/address":
		return secptest.Slot(t, unsafe.Sizeof(common.Address{}))
	case "Secp256k1Signature/rs":
		return secptest.Slot(t, 64)
	}
	t.Fatalf("no construction known for %s", k)
	return secptest.Kept{}
}

// TestObjects measures every available entry: exactly what its
// construction keeps.
func TestObjects(t *testing.T) {
	if n := secptest.CheckObjects(t, Suite(), kept); n != 8 {
		t.Errorf("measured %d entries, want 8 (2 secret keys, 4 public keys, 2 signatures)", n)
	}
}

// TestCheapConstructorsKeepWhatTheRealOnesKeep: the entries that stand
// in for a slow call keep what it keeps: crypto.ToECDSA (a scalar
// multiplication) and crypto.Sign.
func TestCheapConstructorsKeepWhatTheRealOnesKeep(t *testing.T) {
	v := values()
	real := func(newInstance func(i int) any) memprof.Case {
		return memprof.Case{Prepare: func(int) error { values(); return nil }, New: func(i int) any { return newInstance(i % secpkit.Distinct) }}
	}
	t.Run("ToECDSA", func(t *testing.T) {
		secptest.Same(t, 300, secptest.EntryCase(t, Suite(), vocab.Secp256k1SecretKey, vocab.Decoded), real(func(i int) any {
			k, err := crypto.ToECDSA(v.SecretKeys[i][:])
			if err != nil {
				t.Fatal(err)
			}
			return k
		}))
	})
	t.Run("Sign", func(t *testing.T) {
		keys := make([]*ecdsa.PrivateKey, secpkit.Distinct)
		for i := range keys {
			keys[i], _ = crypto.ToECDSA(v.SecretKeys[i][:])
		}
		secptest.Same(t, 300, secptest.EntryCase(t, Suite(), vocab.Secp256k1Signature, vocab.RSV), real(func(i int) any {
			h := secpkit.Hash(i)
			s, err := crypto.Sign(h[:], keys[i])
			if err != nil {
				t.Fatal(err)
			}
			return (*[65]byte)(s)
		}))
	})
}

// TestSigCacheLayout: the sigcache form's sigCache is go-ethereum's
// core/types.sigCache field for field (read by reflection through
// Transaction.from, an atomic.Pointer[sigCache]), and pooledTx's field is
// that one.
func TestSigCacheLayout(t *testing.T) {
	f, ok := reflect.TypeFor[types.Transaction]().FieldByName("from")
	if !ok {
		t.Fatal("types.Transaction has no field from")
	}
	ours, _ := reflect.TypeFor[pooledTx]().FieldByName("from")
	if f.Type.Name() != "Pointer[github.com/ethereum/go-ethereum/core/types.sigCache]" || ours.Type.Size() != f.Type.Size() {
		t.Fatalf("Transaction.from is %s (%d B), pooledTx.from %s (%d B): want atomic.Pointer[sigCache] both", f.Type, f.Type.Size(), ours.Type, ours.Type.Size())
	}
	// atomic.Pointer[T] holds a [0]*T to carry T.
	geth := f.Type.Field(0).Type.Elem().Elem()
	mine := reflect.TypeFor[sigCache]()
	if geth.Size() != mine.Size() || geth.NumField() != mine.NumField() {
		t.Fatalf("sigCache: go-ethereum's %d B in %d fields, ours %d B in %d", geth.Size(), geth.NumField(), mine.Size(), mine.NumField())
	}
	for i := range geth.NumField() {
		g, m := geth.Field(i), mine.Field(i)
		if g.Name != m.Name || g.Type != m.Type || g.Offset != m.Offset {
			t.Errorf("field %d: go-ethereum's %s %s at %d, ours %s %s at %d", i, g.Name, g.Type, g.Offset, m.Name, m.Type, m.Offset)
		}
	}
}

// TestSenderCaches: every form holds its population, each sender the
// address of the key the scenario derives.
func TestSenderCaches(t *testing.T) {
	secptest.CheckSenderCaches(t, Suite(), 3000, func(t *testing.T, form vocab.Repr, v reflect.Value) [20]byte {
		switch x := v.Interface().(type) {
		case common.Address:
			return x
		case *ecdsa.PublicKey:
			return crypto.PubkeyToAddress(*x)
		case *pooledTx:
			return x.from.Load().from
		}
		t.Fatalf("%s: unknown value %T", form, v.Interface())
		return [20]byte{}
	})
}

// TestSenderCacheScan: the collector scans nothing per entry of the
// address map; per entry of the key map at least the map's pointer, the
// struct's interface and two pointers, and the two big.Ints' word
// slices; per entry of the sigcache form at least the map's pointer, the
// atomic pointer and the sigCache's interface.
func TestSenderCacheScan(t *testing.T) {
	word := float64(unsafe.Sizeof(uintptr(0)))
	secptest.CheckSenderCacheScan(t, Suite(), 5_000,
		map[vocab.Repr]float64{vocab.MapPointer: 1*word + 4*word + 2*word, vocab.SigCache: 1*word + 1*word + 2*word},
		map[vocab.Repr]float64{vocab.MapAddress: word / 8})
}
