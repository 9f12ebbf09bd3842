package bn254kit

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/memprof/memprof/vocab"
)

// AgreeLib is what the BN254 agreement check (suites/agree/bn254) needs
// from one library: its operations on EIP-196/197 encodings, each
// decoding its inputs with the library's checks and encoding its result.
// Curve.AgreeLib makes it from a library's description.
type AgreeLib struct {
	Lib vocab.Lib
	// G1Add returns a+b; G1ScalarMul k·p. An error means the library
	// rejects an input.
	G1Add       func(a, b []byte) ([]byte, error)
	G1ScalarMul func(p []byte, k *big.Int) ([]byte, error)
	// PairingCheck reports whether the product of the pairings
	// e(g1s[i], g2s[i]) is one.
	PairingCheck func(g1s, g2s [][]byte) (bool, error)
	// G2Add and G2ScalarMul are nil for a library that has no G2
	// arithmetic (go-ethereum's bn256-gnark).
	G2Add       func(a, b []byte) ([]byte, error)
	G2ScalarMul func(p []byte, k *big.Int) ([]byte, error)
	// MSM returns the multi-scalar multiplication of the points (of G1,
	// or of G2 when g2 is set) by the scalars; nil for a library without
	// one, whose results the check computes with the scalar
	// multiplications and additions instead.
	MSM func(g2 bool, points [][]byte, scalars []*big.Int) ([]byte, error)
	// RoundTrips decodes enc, a point of typ (BN254G1 or BN254G2), into
	// every representation the library offers for it and encodes each
	// back.
	RoundTrips func(typ vocab.Type, enc []byte) ([]RoundTrip, error)
}

// RoundTrip is one representation's re-encoding of a point.
type RoundTrip struct {
	Repr vocab.Repr
	// Encoding is the EIP-196/197 encoding made from the representation.
	Encoding []byte
}

// The precompiles' input errors (go-ethereum's words).
var (
	// ErrPairingInput is the pairing check's error for an input whose
	// length is not a multiple of PairSize.
	ErrPairingInput = errors.New("bad elliptic curve pairing size")
)

// padded returns input cut or padded with zeros to n bytes, as the
// precompiles read their input: missing bytes are zeros, extra bytes are
// ignored (EIP-196).
func padded(input []byte, n int) []byte {
	out := make([]byte, n)
	copy(out, input)
	return out
}

// PrecompileAdd is the EIP-196 addition precompile (address 0x06) run with
// l: the input padded to two 64-byte points, their sum encoded.
func PrecompileAdd(l AgreeLib, input []byte) ([]byte, error) {
	in := padded(input, AddInputSize)
	return l.G1Add(in[:G1Size], in[G1Size:])
}

// PrecompileScalarMul is the EIP-196 scalar multiplication precompile
// (0x07) run with l: the input padded to a 64-byte point and a 32-byte
// big-endian scalar (any 256-bit value, reduced by the library or not).
func PrecompileScalarMul(l AgreeLib, input []byte) ([]byte, error) {
	in := padded(input, MulInputSize)
	return l.G1ScalarMul(in[:G1Size], new(big.Int).SetBytes(in[G1Size:]))
}

// PrecompilePairing is the EIP-197 pairing check precompile (0x08) run
// with l: the input a sequence of pairs (a 64-byte G1 point, a 128-byte
// G2 point), its length a multiple of PairSize (none: the check passes),
// the output 32 bytes, 1 or 0.
func PrecompilePairing(l AgreeLib, input []byte) ([]byte, error) {
	g1s, g2s, err := SplitPairs(input)
	if err != nil {
		return nil, err
	}
	ok, err := l.PairingCheck(g1s, g2s)
	if err != nil {
		return nil, err
	}
	return Bool(ok), nil
}

// SplitPairs splits a pairing input into its G1 and G2 encodings, which
// share input's memory.
func SplitPairs(input []byte) (g1s, g2s [][]byte, err error) {
	if len(input)%PairSize != 0 {
		return nil, nil, fmt.Errorf("%w: %d bytes", ErrPairingInput, len(input))
	}
	for i := 0; i < len(input); i += PairSize {
		g1s = append(g1s, input[i:i+G1Size])
		g2s = append(g2s, input[i+G1Size:i+PairSize])
	}
	return g1s, g2s, nil
}

// Bool is the pairing check's output for ok: 32 bytes, 1 or 0.
func Bool(ok bool) []byte {
	out := make([]byte, BoolSize)
	if ok {
		out[BoolSize-1] = 1
	}
	return out
}
