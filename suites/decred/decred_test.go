package decred

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"

	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites/internal/secpkit"
	"github.com/memprof/memprof/suites/internal/secptest"
	"github.com/memprof/memprof/suites/internal/suitetest"
	"github.com/memprof/memprof/vocab"
)

// TestSuite: every key is registered once and available (decred is pure
// Go and has every form), and every row of the operations table is an
// operation computing its known result.
func TestSuite(t *testing.T) {
	s := Suite()
	keys := append(secpkit.ObjectKeys(lib), secpkit.SenderCacheKeys(lib, senderForms...)...)
	suitetest.CheckCoverage(t, s.Entries, keys, secptest.CheckUnavailable(s.Name))
	for _, e := range s.Entries {
		if !e.Unavailable.IsZero() {
			t.Errorf("%s: unavailable (%s), want every decred entry available", e.Key, e.Unavailable.Reason)
		}
	}
	applies := 0
	for _, r := range secpkit.Rows() {
		if r.Applies {
			applies++
		}
	}
	if n := secptest.CheckOps(t, s); n != applies {
		t.Errorf("%d operations available, want every row that applies (%d)", n, applies)
	}
}

// kept is what an instance of each entry keeps by construction: one
// object of its type's size class (decred's keys and signatures hold
// their scalars and field elements by value, byte arrays are arrays), a
// DER signature the array of its length.
func kept(t *testing.T, k results.Key) secptest.Kept {
	switch string(k.Type) + "/" + string(k.Repr) {
	case "Secp256k1SecretKey/bytes":
		return secptest.Slot(t, 32)
	case "Secp256k1SecretKey/decoded":
		return secptest.Slot(t, unsafe.Sizeof(secp256k1.PrivateKey{}))
	case "Secp256k1PublicKey/compressed":
		return secptest.Slot(t, secp256k1.PubKeyBytesLenCompressed)
	case "Secp256k1PublicKey/uncompressed", "Secp256k1Signature/rsv":
		return secptest.Slot(t, secp256k1.PubKeyBytesLenUncompressed)
	case "Secp256k1PublicKey/decoded":
		return secptest.Slot(t, unsafe.Sizeof(secp256k1.PublicKey{}))
	case "Secp256k1PublicKey/address":
		return secptest.Slot(t, 20)
	case "Secp256k1Signature/rs":
		return secptest.Slot(t, 64)
	case "Secp256k1Signature/decoded":
		return secptest.Slot(t, unsafe.Sizeof(ecdsa.Signature{}))
	case "Secp256k1Signature/der":
		v := values()
		k := secptest.Slot(t, uintptr(len(v.DER[0])))
		for i, d := range v.DER {
			if o := secptest.Slot(t, uintptr(len(d))); o != k {
				t.Fatalf("DER %d of %d bytes keeps %v, DER 0 of %d bytes %v: the figure would depend on N", i, len(d), o, len(v.DER[0]), k)
			}
		}
		return k
	}
	t.Fatalf("no construction known for %s", k)
	return secptest.Kept{}
}

// TestObjects measures every entry: exactly what its construction keeps.
func TestObjects(t *testing.T) {
	if n := secptest.CheckObjects(t, Suite(), kept); n != 10 {
		t.Errorf("measured %d entries, want 10 (2 secret keys, 4 public keys, 4 signatures)", n)
	}
}

// TestCheapConstructorsKeepWhatTheRealOnesKeep: the R‖S‖V entry, a copy,
// keeps what ecdsa.SignCompact's own 65-byte result does.
func TestCheapConstructorsKeepWhatTheRealOnesKeep(t *testing.T) {
	cheap := secptest.EntryCase(t, Suite(), vocab.Secp256k1Signature, vocab.RSV)
	v := values()
	keys := make([]*secp256k1.PrivateKey, secpkit.Distinct)
	for i := range keys {
		keys[i] = secp256k1.PrivKeyFromBytes(v.SecretKeys[i][:])
	}
	secptest.Same(t, 300, cheap, memprof.Case{New: func(i int) any {
		h := secpkit.Hash(i % secpkit.Distinct)
		return (*[65]byte)(ecdsa.SignCompact(keys[i%secpkit.Distinct], h[:], false))
	}})
}

// TestSenderCaches: every form holds its population, each sender the
// address of the key the scenario derives.
func TestSenderCaches(t *testing.T) {
	secptest.CheckSenderCaches(t, Suite(), 3000, func(t *testing.T, form vocab.Repr, v reflect.Value) [20]byte {
		switch x := v.Interface().(type) {
		case [20]byte:
			return x
		case *secp256k1.PublicKey:
			return secpkit.Address(x.SerializeUncompressed())
		}
		t.Fatalf("%s: unknown value %T", form, v.Interface())
		return [20]byte{}
	})
}

// TestSenderCacheScan: the collector scans nothing per entry of the
// address map (a [32]byte key, a [20]byte value) and at least the map's
// pointer per entry of the key map.
func TestSenderCacheScan(t *testing.T) {
	word := float64(unsafe.Sizeof(uintptr(0)))
	secptest.CheckSenderCacheScan(t, Suite(), 5_000,
		map[vocab.Repr]float64{vocab.MapPointer: word},
		map[vocab.Repr]float64{vocab.MapAddress: word / 8})
}
