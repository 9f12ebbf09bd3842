package bn254kit

import (
	"fmt"
	"math/big"
	"sync"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/vocab"
)

// The vectors the operations run on, by name: go-ethereum's where its
// files have them (G1 and the pairing check), this project's otherwise
// (G2 arithmetic, which no precompile has; the inputs decoding must
// reject, which go-ethereum's BN254 files lack).
const (
	OpG1AddVector       = "chfast1" // bn256Add.json: two distinct points
	OpG1ScalarMulVector = "chfast1" // bn256ScalarMul.json
	OpPairingVector     = "jeff1"   // bn256Pairing.json: two pairs, output 1
	OpPairingFalse      = "jeff6"   // bn256Pairing.json: two pairs, output 0
	OpG2AddVector       = "memprof_g2add_p_q"
	OpG2ScalarMulVector = "memprof_g2mul_p_k"
	// OpRejectG1 and OpRejectG2 are the encodings unmarshal must reject:
	// a G1 point off the curve, a G2 point on the twist outside the
	// subgroup.
	OpRejectG1 = "memprof_g1_not_on_curve"    // memprof-fail-bn256Add.json: its first point
	OpRejectG2 = "memprof_g2_not_in_subgroup" // memprof-fail-bn256Pairing.json: its G2 point
)

// binaryVector is an operation's two operands and its known result.
type binaryVector struct {
	a, b []byte   // the points; b is nil for a scalar multiplication
	k    *big.Int // the scalar of a scalar multiplication
	want []byte
}

// opVectors are the operations' inputs, read once from the fixtures.
type opVectors struct {
	add, mul         map[vocab.Type]binaryVector
	pairing, falsely []byte // pairing inputs: output 1, output 0
	pairingWant      []byte
	reject           map[vocab.Type][]byte
}

var loadOpVectors = sync.OnceValues(func() (*opVectors, error) {
	v := &opVectors{add: map[vocab.Type]binaryVector{}, mul: map[vocab.Type]binaryVector{}, reject: map[vocab.Type][]byte{}}
	vector := func(file, name string) (fixtures.PrecompileVector, error) {
		f, err := fixtures.LoadPrecompileFile(fixtures.BN254Dir, file)
		if err != nil {
			return fixtures.PrecompileVector{}, err
		}
		return f.MustVector(name)
	}
	pair := func(file, name string, size int) (binaryVector, error) {
		x, err := vector(file, name)
		if err != nil {
			return binaryVector{}, err
		}
		if len(x.Input) != 2*size {
			return binaryVector{}, fmt.Errorf("%s/%s: vector %s has %d bytes of input, want %d", fixtures.BN254Dir, file, name, len(x.Input), 2*size)
		}
		return binaryVector{a: x.Input[:size], b: x.Input[size:], want: x.Expected}, nil
	}
	scaled := func(file, name string, size int) (binaryVector, error) {
		x, err := vector(file, name)
		if err != nil {
			return binaryVector{}, err
		}
		if len(x.Input) != size+ScalarSize {
			return binaryVector{}, fmt.Errorf("%s/%s: vector %s has %d bytes of input, want %d", fixtures.BN254Dir, file, name, len(x.Input), size+ScalarSize)
		}
		return binaryVector{a: x.Input[:size], k: new(big.Int).SetBytes(x.Input[size:]), want: x.Expected}, nil
	}
	var err error
	if v.add[vocab.BN254G1], err = pair(fixtures.BN254AddFile, OpG1AddVector, G1Size); err != nil {
		return nil, err
	}
	if v.add[vocab.BN254G2], err = pair(fixtures.BN254G2File, OpG2AddVector, G2Size); err != nil {
		return nil, err
	}
	if v.mul[vocab.BN254G1], err = scaled(fixtures.BN254ScalarMulFile, OpG1ScalarMulVector, G1Size); err != nil {
		return nil, err
	}
	if v.mul[vocab.BN254G2], err = scaled(fixtures.BN254G2File, OpG2ScalarMulVector, G2Size); err != nil {
		return nil, err
	}
	p, err := vector(fixtures.BN254PairingFile, OpPairingVector)
	if err != nil {
		return nil, err
	}
	f, err := vector(fixtures.BN254PairingFile, OpPairingFalse)
	if err != nil {
		return nil, err
	}
	if string(p.Expected) != string(Bool(true)) || string(f.Expected) != string(Bool(false)) || len(p.Input) != len(f.Input) {
		return nil, fmt.Errorf("%s/%s: vectors %s and %s are not a passing and a failing check of as many pairs", fixtures.BN254Dir, fixtures.BN254PairingFile, OpPairingVector, OpPairingFalse)
	}
	v.pairing, v.falsely, v.pairingWant = p.Input, f.Input, p.Expected
	g1, err := vector(fixtures.BN254FailAddFile, OpRejectG1)
	if err != nil {
		return nil, err
	}
	g2, err := vector(fixtures.BN254FailPairingFile, OpRejectG2)
	if err != nil {
		return nil, err
	}
	if len(g1.Input) < G1Size || len(g2.Input) != PairSize {
		return nil, fmt.Errorf("%s: vectors %s and %s are not a G1 point and a pair", fixtures.BN254Dir, OpRejectG1, OpRejectG2)
	}
	v.reject[vocab.BN254G1], v.reject[vocab.BN254G2] = g1.Input[:G1Size], g2.Input[G1Size:]
	return v, nil
})

// pairs returns the G1 and G2 encodings of the pairing vector, or of the
// failing one when invalid.
func (v *opVectors) pairs(invalid bool) ([][]byte, [][]byte, error) {
	in := v.pairing
	if invalid {
		in = v.falsely
	}
	return SplitPairs(in)
}

// decodedPairs returns the points of v.pairs(invalid), decoded by g1 and
// g2.
func decodedPairs[P1, P2 any](v *opVectors, invalid bool, g1 *Group[P1], g2 *Group[P2]) ([]P1, []P2, error) {
	e1, e2, err := v.pairs(invalid)
	if err != nil {
		return nil, nil, err
	}
	g1s, err := g1.decodeAll(e1)
	if err != nil {
		return nil, nil, err
	}
	g2s, err := g2.decodeAll(e2)
	return g1s, g2s, err
}

// marshalWant is the known result of marshal and unmarshal on typ: the
// addition vector's first point, which they handle.
func (v *opVectors) marshalWant(typ vocab.Type) []byte { return v.add[typ].a }
