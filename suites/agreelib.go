package suites

import (
	"fmt"
	"slices"
	"sync"
)

// AgreeLib is what the cross-library agreement check (suites/agree) needs
// from one library. Every function takes and returns the standard
// encodings (secret keys as 32 big-endian bytes, points compressed, per
// the IETF BLS signature draft and the ZCash serialization), so that the
// check can compare libraries byte for byte. Signatures are min-pk (keys in
// G1, signatures in G2) with OpDST.
type AgreeLib struct {
	Lib string
	// Unavailable, when not empty, says why the library cannot take part
	// (blst without cgo); the functions are nil then.
	Unavailable string
	// KeyGen derives the secret key from ikm with KeyGen of the IETF draft
	// (salt "BLS-SIG-KEYGEN-SALT-", empty key info).
	KeyGen func(ikm []byte) (sk []byte, err error)
	// PublicKey returns sk·G1, compressed.
	PublicKey func(sk []byte) (pk []byte, err error)
	// Sign returns the signature of msg, compressed.
	Sign func(sk, msg []byte) (sig []byte, err error)
	// Verify decodes pk and sig (with the library's subgroup checks) and
	// verifies sig on msg. ok is false for a signature that does not
	// verify; err is for input the library could not decode.
	Verify func(pk, msg, sig []byte) (ok bool, err error)
	// RoundTrips decodes the compressed point enc (a PublicKey in G1 or a
	// Signature in G2, after typ) into every representation the library
	// offers for it, and encodes each back, compressed and uncompressed.
	RoundTrips func(typ string, enc []byte) ([]AgreeRoundTrip, error)
}

// AgreeRoundTrip is one representation's re-encoding of a point.
type AgreeRoundTrip struct {
	Repr         string
	Compressed   []byte
	Uncompressed []byte
}

var (
	agreeMu   sync.Mutex
	agreeLibs = map[string]AgreeLib{}
)

// RegisterAgreeLib adds a library to the agreement check; it panics on a
// duplicate or an unknown library.
func RegisterAgreeLib(l AgreeLib) {
	agreeMu.Lock()
	defer agreeMu.Unlock()
	if !slices.Contains(Libs, l.Lib) {
		panic(fmt.Sprintf("suites: agreement lib %q is not one of %v", l.Lib, Libs))
	}
	if _, dup := agreeLibs[l.Lib]; dup {
		panic("suites: duplicate agreement lib " + l.Lib)
	}
	if (l.Unavailable == "") == (l.KeyGen == nil || l.PublicKey == nil || l.Sign == nil || l.Verify == nil || l.RoundTrips == nil) {
		panic("suites: agreement lib " + l.Lib + ": set either all functions or Unavailable")
	}
	agreeLibs[l.Lib] = l
}

// AgreeLibs returns the registered libraries in Libs order.
func AgreeLibs() []AgreeLib {
	agreeMu.Lock()
	defer agreeMu.Unlock()
	var out []AgreeLib
	for _, name := range Libs {
		if l, ok := agreeLibs[name]; ok {
			out = append(out, l)
		}
	}
	return out
}
