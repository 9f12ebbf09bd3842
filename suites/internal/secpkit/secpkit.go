// Package secpkit is what the two secp256k1 suites (suites/libsecp256k1,
// go-ethereum's cgo binding, and suites/decred, pure Go) share: the matrix
// of representations they cover (entries.go), the table of operations
// with their inputs and known results (ops.go), the agreement library
// they each give the family's check (agree.go), the sender-cache scenario
// (sendercache.go), and the rules and encodings that are the harness's own
// rather than a library's: Ethereum's low-S rule, decred's compact form
// converted to R‖S‖V, the Ethereum address.
//
// A suite describes how its library makes each available entry and does
// each operation, and why the others are absent; Entries and Ops turn that
// into one suites.Entry or suites.Op per combination and panic if the two
// disagree, so no combination is dropped silently.
package secpkit

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"math/big"
	"strconv"
	"sync"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"golang.org/x/crypto/sha3"
)

// The byte lengths of the forms, fixed by SEC 1 and Ethereum.
const (
	SecretKeyBytes    = 32
	CompressedBytes   = secp256k1.PubKeyBytesLenCompressed
	UncompressedBytes = secp256k1.PubKeyBytesLenUncompressed
	AddressBytes      = 20
	RSBytes           = 64
	RSVBytes          = RSBytes + 1
	// MaxDERBytes is the longest DER signature of secp256k1: a SEQUENCE
	// of two INTEGERs of at most 33 bytes each, with their tags and
	// lengths.
	MaxDERBytes = 2 + 2*(2+33)
)

// Distinct is how many distinct real values the instance cases make
// their instances from: instance i is a new object made from value
// i%Distinct, so construction stays cheap at large N while every instance
// is a real object of a real library call.
const Distinct = 64

// KeyBytes returns secret key i of the instance cases and of the
// agreement check: SHA-256 of "memprof secp256k1 key <i>" (below the group
// order N, which Valid checks).
func KeyBytes(i int) [32]byte {
	return sha256.Sum256([]byte("memprof secp256k1 key " + strconv.Itoa(i)))
}

// Message returns message i: "memprof secp256k1 message <i>".
func Message(i int) []byte { return []byte("memprof secp256k1 message " + strconv.Itoa(i)) }

// Keccak256 is Ethereum's hash (the original Keccak, not SHA3-256), of
// golang.org/x/crypto/sha3.
func Keccak256(data ...[]byte) [32]byte {
	h := sha3.NewLegacyKeccak256()
	for _, d := range data {
		h.Write(d)
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// Hash returns the 32-byte digest message i is signed as: its
// Keccak-256, as Ethereum hashes what it signs.
func Hash(i int) [32]byte { return Keccak256(Message(i)) }

// Address returns the Ethereum address of an uncompressed public key
// (0x04‖X‖Y): the last 20 bytes of the Keccak-256 of X‖Y. It does not
// check that the point is on the curve.
func Address(uncompressed []byte) [AddressBytes]byte {
	h := Keccak256(uncompressed[1:])
	return [AddressBytes]byte(h[32-AddressBytes:])
}

// order is N, the order of the group, and halfOrder ⌊N/2⌋, 32 bytes
// big-endian each.
var order, halfOrder = func() ([32]byte, [32]byte) {
	n := secp256k1.Params().N // decred's own: not to be modified
	var o, h [32]byte
	n.FillBytes(o[:])
	new(big.Int).Rsh(n, 1).FillBytes(h[:])
	return o, h
}()

// Order returns N, 32 bytes big-endian.
func Order() [32]byte { return order }

// ErrRule is what a verification returns for a signature Ethereum's rule
// refuses before any curve arithmetic: r or s outside [1, N), or s above
// N/2.
var ErrRule = errors.New("signature values refused by Ethereum's rule (r, s in [1, N), s <= N/2)")

// ErrNotVerified is what a verification returns when the library says the
// signature does not verify.
var ErrNotVerified = errors.New("the signature does not verify")

// inRange reports whether the 32-byte big-endian x is in [1, N).
func inRange(x []byte) bool {
	return bytes.Compare(x, order[:]) < 0 && !bytes.Equal(x, make([]byte, 32))
}

// EthereumRule reports whether the R‖S signature rs passes the check
// go-ethereum makes of a transaction's signature before recovering its
// sender, crypto.ValidateSignatureValues(v, r, s, homestead=true) without
// V: r and s in [1, N) and s at most N/2 (low S, EIP-2). It compares the
// bytes; nothing is allocated.
func EthereumRule(rs []byte) bool {
	return len(rs) == RSBytes && inRange(rs[:32]) && inRange(rs[32:]) && bytes.Compare(rs[32:], halfOrder[:]) <= 0
}

// PrecompileRule reports whether r and s pass the ecRecover precompile's
// check, crypto.ValidateSignatureValues(v, r, s, homestead=false): both in
// [1, N), a high S allowed.
func PrecompileRule(rs []byte) bool {
	return len(rs) == RSBytes && inRange(rs[:32]) && inRange(rs[32:])
}

// IsHighS reports whether the S of rs is above N/2.
func IsHighS(rs []byte) bool { return bytes.Compare(rs[32:64], halfOrder[:]) > 0 }

// Twin returns the other signature of the same R: S replaced by N − S and,
// for R‖S‖V, V flipped. Both verify under plain ECDSA and recover the same
// key; Ethereum's rule accepts only the one with the low S. sig is R‖S or
// R‖S‖V; the result is new.
func Twin(sig []byte) []byte {
	out := bytes.Clone(sig)
	var s secp256k1.ModNScalar
	s.SetByteSlice(sig[32:64])
	s.Negate()
	b := s.Bytes()
	copy(out[32:64], b[:])
	if len(out) == RSVBytes {
		out[64] ^= 1
	}
	return out
}

// compactMagic is what decred adds to the recovery id in the first byte
// of its compact signature (27, as Bitcoin's signed messages do), and
// compactCompressed what it adds beside for a key serialized compressed.
const (
	compactMagic      = 27
	compactCompressed = 4
)

// ErrCompact is returned for a compact signature whose first byte is not
// 27 + a recovery id (+ 4).
var ErrCompact = errors.New("compact signature: the first byte is not 27 + recovery id (+4 for a compressed key)")

// RSVFromCompact converts decred's 65-byte compact signature V‖R‖S, V =
// 27 + recid (+4 when the key is compressed), to Ethereum's R‖S‖V with V
// = recid in {0, 1}, into dst.
func RSVFromCompact(dst *[RSVBytes]byte, compact []byte) error {
	if len(compact) != RSVBytes || compact[0] < compactMagic || compact[0] >= compactMagic+2*compactCompressed {
		return ErrCompact
	}
	v := (compact[0] - compactMagic) &^ compactCompressed
	copy(dst[:RSBytes], compact[1:])
	dst[RSBytes] = v
	return nil
}

// CompactFromRSV converts R‖S‖V (V in {0, 1, 2, 3}) to decred's compact
// V‖R‖S for an uncompressed key (V + 27), into dst, as go-ethereum's
// build without cgo does before decred's RecoverCompact.
func CompactFromRSV(dst *[RSVBytes]byte, rsv []byte) error {
	if len(rsv) != RSVBytes || rsv[RSBytes] >= 4 {
		return ErrCompact
	}
	dst[0] = rsv[RSBytes] + compactMagic
	copy(dst[1:], rsv[:RSBytes])
	return nil
}

// Values are the Distinct values of one library that its instance cases
// copy and convert: the secret keys KeyBytes(i), their public keys, and
// their signatures of Hash(i), each in the byte forms. A library computes
// them with its own calls (ValuesOf); the agreement check shows that the
// two compute the same bytes.
type Values struct {
	SecretKeys   [][SecretKeyBytes]byte
	Compressed   [][CompressedBytes]byte
	Uncompressed [][UncompressedBytes]byte
	Addresses    [][AddressBytes]byte
	RSV          [][RSVBytes]byte
	DER          [][]byte // nil for a library without DER
}

// Make is how a library computes one value: the public key of sk in both
// encodings and the signature of hash, R‖S‖V, and in DER where it has it.
type Make func(sk *[SecretKeyBytes]byte, hash *[32]byte) (compressed [CompressedBytes]byte, uncompressed [UncompressedBytes]byte, rsv [RSVBytes]byte, der []byte, err error)

// ValuesOf returns the values make computes, once: the returned function
// computes them at its first call (a suite's Prepare) and panics if the
// library fails, which the agreement check would have reported.
func ValuesOf(lib string, make Make) func() *Values {
	return sync.OnceValue(func() *Values {
		v := &Values{}
		for i := range Distinct {
			sk, h := KeyBytes(i), Hash(i)
			c, u, rsv, der, err := make(&sk, &h)
			if err != nil {
				panic("secpkit: " + lib + ": value " + strconv.Itoa(i) + ": " + err.Error())
			}
			v.SecretKeys = append(v.SecretKeys, sk)
			v.Compressed = append(v.Compressed, c)
			v.Uncompressed = append(v.Uncompressed, u)
			v.Addresses = append(v.Addresses, Address(u[:]))
			v.RSV = append(v.RSV, rsv)
			if der != nil {
				v.DER = append(v.DER, der)
			}
		}
		return v
	})
}
