package secpkit

import (
	"bytes"
	"strings"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// TestSenders: the incremental derivation gives (i+1)·G for every i
// checked, across the batches that share an inversion.
func TestSenders(t *testing.T) {
	n := 2*normalizeBatch + 5
	s := Senders(n)
	if len(s) != n {
		t.Fatalf("got %d senders, want %d", len(s), n)
	}
	seen := map[[UncompressedBytes]byte]bool{}
	for i, u := range s {
		if seen[u] {
			t.Fatalf("sender %d repeats an earlier one", i)
		}
		seen[u] = true
	}
	for _, i := range []int{0, 1, 2, normalizeBatch - 1, normalizeBatch, normalizeBatch + 1, n - 1} {
		k := SenderSecretKey(i)
		want := secp256k1.PrivKeyFromBytes(k[:]).PubKey().SerializeUncompressed()
		if !bytes.Equal(s[i][:], want) {
			t.Errorf("sender %d: got %x, want %x ((%d)·G)", i, s[i], want, i+1)
		}
	}
}

// TestEthereumRule: r and s in [1, N), s at most N/2; the precompile's
// rule allows a high S.
func TestEthereumRule(t *testing.T) {
	n := Order()
	rs := func(r, s []byte) []byte { return append(append([]byte{}, r...), s...) }
	num := func(b ...byte) []byte { out := make([]byte, 32); copy(out[32-len(b):], b); return out }
	minus := func(x [32]byte, d byte) []byte { out := x; out[31] -= d; return out[:] }
	half := halfOrder
	tests := []struct {
		name              string
		rs                []byte
		ethereum, precomp bool
	}{
		{"small r and s", rs(num(1), num(1)), true, true},
		{"r = 0", rs(num(0), num(1)), false, false},
		{"s = 0", rs(num(1), num(0)), false, false},
		{"r = N", rs(n[:], num(1)), false, false},
		{"r = N-1", rs(minus(n, 1), num(1)), true, true},
		{"s = N/2", rs(num(1), half[:]), true, true},
		{"s = N/2 + 1", rs(num(1), Twin(rs(num(1), half[:]))[32:]), false, true},
		{"s = N-1", rs(num(1), minus(n, 1)), false, true},
		{"s = N", rs(num(1), n[:]), false, false},
		{"63 bytes", rs(num(1), num(1))[:63], false, false},
	}
	for _, tt := range tests {
		if got := EthereumRule(tt.rs); got != tt.ethereum {
			t.Errorf("%s: EthereumRule got %v, want %v", tt.name, got, tt.ethereum)
		}
		if got := PrecompileRule(tt.rs); got != tt.precomp {
			t.Errorf("%s: PrecompileRule got %v, want %v", tt.name, got, tt.precomp)
		}
	}
}

// TestCompact: decred's V‖R‖S (27 + recid, +4 compressed) and R‖S‖V
// convert both ways; other first bytes are refused.
func TestCompact(t *testing.T) {
	var rsv [RSVBytes]byte
	for i := range RSBytes {
		rsv[i] = byte(i)
	}
	for v := byte(0); v < 2; v++ {
		rsv[64] = v
		var c, back [RSVBytes]byte
		if err := CompactFromRSV(&c, rsv[:]); err != nil || c[0] != 27+v || !bytes.Equal(c[1:], rsv[:64]) {
			t.Fatalf("V=%d: got %x, %v", v, c, err)
		}
		if err := RSVFromCompact(&back, c[:]); err != nil || back != rsv {
			t.Errorf("V=%d: round trip got %x, %v", v, back, err)
		}
		c[0] += 4 // a compressed key's compact signature
		if err := RSVFromCompact(&back, c[:]); err != nil || back != rsv {
			t.Errorf("V=%d compressed: got %x, %v", v, back, err)
		}
	}
	for _, first := range []byte{0, 26, 35} {
		c := make([]byte, RSVBytes)
		c[0] = first
		var out [RSVBytes]byte
		if RSVFromCompact(&out, c) == nil {
			t.Errorf("first byte %d accepted", first)
		}
	}
	rsv[64] = 4
	var c [RSVBytes]byte
	if CompactFromRSV(&c, rsv[:]) == nil {
		t.Error("V=4 accepted")
	}
}

// TestDER: the reference DER of an R‖S is decred's, and its BER form is
// refused by decred's strict parser.
func TestDER(t *testing.T) {
	var r, s secp256k1.ModNScalar
	r.SetInt(0x80) // a high bit: the INTEGER needs a leading zero
	s.SetInt(5)
	var rs [RSBytes]byte
	r.PutBytesUnchecked(rs[:32])
	s.PutBytesUnchecked(rs[32:])
	der, err := DERFromRS(rs[:])
	if err != nil {
		t.Fatal(err)
	}
	if want := []byte{0x30, 0x07, 0x02, 0x02, 0x00, 0x80, 0x02, 0x01, 0x05}; !bytes.Equal(der, want) {
		t.Errorf("got %x, want %x", der, want)
	}
	if b := BER(der); b[1] != 0x81 || b[2] != der[1] || !bytes.Equal(b[3:], der[2:]) {
		t.Errorf("BER: got %x", b)
	}
}

// TestOffCurve: the encodings the decodes must refuse are refused by
// decred.
func TestOffCurve(t *testing.T) {
	k := KeyBytes(0)
	p := secp256k1.PrivKeyFromBytes(k[:]).PubKey()
	c, u := [CompressedBytes]byte(p.SerializeCompressed()), [UncompressedBytes]byte(p.SerializeUncompressed())
	oc, ou, err := offCurveEncodings(&c, &u)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range [][]byte{oc[:], ou[:]} {
		if _, err := secp256k1.ParsePubKey(e); err == nil {
			t.Errorf("%x parsed, want refused", e)
		}
	}
}

// TestTableDrift: Ops and Entries panic on an OpImpl or constructor of a
// row or key they do not offer, and on an offered one without.
func TestTableDrift(t *testing.T) {
	panics := func(name, want string, f func()) {
		t.Helper()
		defer func() {
			r := recover()
			if s, _ := r.(string); !strings.Contains(s, want) {
				t.Errorf("%s: got panic %v, want one containing %q", name, r, want)
			}
		}()
		f()
	}
	panics("missing OpImpl", "has no OpImpl", func() { Ops(LibOps{Lib: vocab.Decred}) })
	panics("OpImpl of a row that does not apply", "does not offer", func() {
		Ops(LibOps{Lib: vocab.Decred, Unavailable: vocab.Because(vocab.NeedsCgo, "x"),
			Impls: map[Row]OpImpl{{vocab.Secp256k1Signature, vocab.RS, vocab.Recover, ""}: {}}})
	})
	keys := ObjectKeys(vocab.Decred)
	panics("missing constructor", "has no constructor", func() { Entries(keys, func(results.Key) vocab.Why { return vocab.Why{} }, vocab.Why{}, nil) })
	panics("constructor of no key", "does not offer", func() {
		Entries(keys[:1], func(results.Key) vocab.Why { return vocab.Why{} }, vocab.Why{}, map[results.Key]Impl{keys[0]: {}, keys[1]: {}})
	})
}
