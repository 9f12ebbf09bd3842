package suites

import (
	"fmt"

	"github.com/memprof/memprof/vocab"
)

// AgreeLib is what the cross-library agreement check (suites/agree) needs
// from one library. Every function takes and returns the standard
// encodings (secret keys as 32 big-endian bytes, points compressed, per
// the IETF BLS signature draft and the ZCash serialization), so that the
// check can compare libraries byte for byte. Signatures are min-pk (keys in
// G1, signatures in G2) with OpDST.
type AgreeLib struct {
	Lib vocab.Lib
	// Unavailable, when not zero, says why the library cannot take part
	// (blst without cgo); the functions are nil then.
	Unavailable vocab.Why
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
	RoundTrips func(typ vocab.Type, enc []byte) ([]AgreeRoundTrip, error)
	// EIP2537 is the library's part of the EIP-2537 precompile vectors
	// (optional: a nil function is an operation the library does not
	// offer).
	EIP2537 EIP2537
}

// EIP2537 is what the agreement check runs the EIP-2537 precompile vectors
// (fixtures/eip2537) with: each precompile's operation on the libraries'
// own encodings, which the check converts the precompiles' padded ones to
// and from. Points are the uncompressed ZCash encoding (G1 96 bytes, G2
// 192 with each Fp2 element c1‖c0; the point at infinity flagged 0x40),
// field elements 48 bytes big-endian, below the modulus once the check has
// refused those of 2^381 or more (which the encoding cannot carry), an
// element of Fp2 c1‖c0 (96 bytes). An error means the library rejects
// the input.
type EIP2537 struct {
	// G1Add and G2Add return a+b of points decoded on the curve without
	// the subgroup check: EIP-2537's addition takes any point of the
	// curve.
	G1Add, G2Add func(a, b []byte) ([]byte, error)
	// G1Mul returns k·p, p decoded with the subgroup check, k 32 bytes
	// big-endian (any 256-bit value).
	G1Mul func(p, k []byte) ([]byte, error)
	// PairingCheck reports whether the product of the pairings
	// e(g1s[i], g2s[i]) is one, the points decoded with the subgroup check.
	PairingCheck func(g1s, g2s [][]byte) (bool, error)
	// MapG1 maps a field element to G1 and MapG2 an element of Fp2 to G2:
	// RFC 9380's map_to_curve (simplified SWU and the isogeny) and
	// clear_cofactor.
	MapG1, MapG2 func(u []byte) ([]byte, error)
}

// AgreeRoundTrip is one representation's re-encoding of a point.
type AgreeRoundTrip struct {
	Repr         vocab.Repr
	Compressed   []byte
	Uncompressed []byte
}

// checkAgreeLib fails on a library that is neither complete nor
// unavailable with a reason.
func checkAgreeLib(l AgreeLib) error {
	if !vocab.BLS12381.HasLib(l.Lib) {
		return fmt.Errorf("agreement lib %q is not one of %s", l.Lib, vocab.Join(vocab.BLS12381.Libs()))
	}
	complete := l.KeyGen != nil && l.PublicKey != nil && l.Sign != nil && l.Verify != nil && l.RoundTrips != nil
	if complete == !l.Unavailable.IsZero() {
		return fmt.Errorf("agreement lib %s: set either all functions or Unavailable", l.Lib)
	}
	return nil
}

// RoundTrips is AgreeLib.RoundTrips for the points of g: it decodes enc, a
// compressed point, with the library's checked decode
// (g.DecompressChecked), and encodes it back, compressed and uncompressed,
// from every representation the library offers for it: A itself (g.Repr),
// J (when the library has Jacobian points), and A decoded again from each
// encoding (the uncompressed one with g.Deserialize).
func (g Group[A, J, C, U]) RoundTrips(enc []byte) ([]AgreeRoundTrip, error) {
	if !g.DecompressChecked.info().offered {
		return nil, fmt.Errorf("%s: no checked decode of %s to round-trip with", g.Lib, g.Type)
	}
	decode := func(p *A, enc []byte) error { return g.DecompressChecked.Do(p, enc)() }
	trip := func(repr vocab.Repr, c C, u U) AgreeRoundTrip {
		return AgreeRoundTrip{Repr: repr, Compressed: encodingBytes(&c), Uncompressed: encodingBytes(&u)}
	}
	var p A
	if err := decode(&p, enc); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", g.Lib, g.Type, err)
	}
	trips := []AgreeRoundTrip{trip(g.Repr, g.Compressed(&p), g.Uncompressed(&p))}
	if jac := g.Jacobian; jac != nil {
		var j J
		jac.FromAffine(&j, &p)
		trips = append(trips, trip(vocab.Jacobian, jac.Compressed(&j), jac.Uncompressed(&j)))
	}
	var fromC, fromU A
	if err := decode(&fromC, g.bytes(&p)); err != nil {
		return nil, fmt.Errorf("%s: %s compressed again: %w", g.Lib, g.Type, err)
	}
	u := g.Uncompressed(&p)
	if err := g.Deserialize(&fromU, encodingBytes(&u)); err != nil {
		return nil, fmt.Errorf("%s: %s uncompressed: %w", g.Lib, g.Type, err)
	}
	trips = append(trips,
		trip(vocab.Compressed, g.Compressed(&fromC), g.Uncompressed(&fromC)),
		trip(vocab.Uncompressed, g.Compressed(&fromU), g.Uncompressed(&fromU)))
	return trips, nil
}

// GroupRoundTrips returns the AgreeLib.RoundTrips of lib from the round
// trips of its PublicKey (G1) and Signature (G2) points, Group.RoundTrips.
func GroupRoundTrips(lib vocab.Lib, pk, sig func(enc []byte) ([]AgreeRoundTrip, error)) func(vocab.Type, []byte) ([]AgreeRoundTrip, error) {
	return func(t vocab.Type, enc []byte) ([]AgreeRoundTrip, error) {
		switch t {
		case vocab.PublicKey:
			return pk(enc)
		case vocab.Signature:
			return sig(enc)
		}
		return nil, fmt.Errorf("%s: no round trip for type %q", lib, t)
	}
}
