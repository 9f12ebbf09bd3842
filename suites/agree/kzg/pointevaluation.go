package kzg

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/big"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/agree"
)

// The point evaluation part of the check: go-ethereum's vectors of
// EIP-4844's point evaluation precompile (fixtures/kzg-precompile), run
// through every library that offers VerifyKZGProof. The harness does what
// the precompile does around the library's call: it splits the 192-byte
// input (versioned hash, z, y, commitment, proof), refuses a versioned
// hash that is not 0x01 and the commitment's SHA-256 from its second
// byte, and returns FIELD_ELEMENTS_PER_BLOB and the scalar field's modulus
// (32 bytes each, big-endian) when the proof verifies. Each vector is also
// run with its claimed value y changed (y+1), which every library must
// refuse: go-ethereum has no failing vector of the precompile.

// The point evaluation input's parts.
const (
	peInput      = 192
	peHash       = 32
	peScalar     = 32
	peCommitment = fixtures.KZGBytesPerG1
	versionKZG   = 0x01 // EIP-4844's VERSIONED_HASH_VERSION_KZG
)

// PointEvaluationFile is the vectors file, in fixtures.KZGPrecompileDir.
const PointEvaluationFile = "pointEvaluation.json"

// blsOrder is r, the BLS12-381 scalar field's modulus (the precompile's
// BLS_MODULUS output).
var blsOrder, _ = new(big.Int).SetString("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16)

var errPrecompile = errors.New("point evaluation")

// pointEvaluation is the precompile run with l on input.
func pointEvaluation(l suites.KZGAgreeLib, input []byte) ([]byte, error) {
	if len(input) != peInput {
		return nil, fmt.Errorf("%w: input of %d bytes, want %d", errPrecompile, len(input), peInput)
	}
	hash, z, y := input[:peHash], input[peHash:peHash+peScalar], input[peHash+peScalar:peHash+2*peScalar]
	commitment, proof := input[peHash+2*peScalar:peHash+2*peScalar+peCommitment], input[peHash+2*peScalar+peCommitment:]
	sum := sha256.Sum256(commitment)
	sum[0] = versionKZG
	if !bytes.Equal(hash, sum[:]) {
		return nil, fmt.Errorf("%w: the versioned hash is not the commitment's", errPrecompile)
	}
	ok, err := l.VerifyKZGProof(commitment, z, y, proof)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%w: the proof does not verify", errPrecompile)
	}
	out := make([]byte, 64)
	new(big.Int).SetUint64(fixtures.KZGFieldElementsPerBlob).FillBytes(out[:32])
	blsOrder.FillBytes(out[32:])
	return out, nil
}

// changedValue returns input with its claimed value y replaced by
// y+1 mod r.
func changedValue(input []byte) []byte {
	out := bytes.Clone(input)
	y := out[peHash+peScalar : peHash+2*peScalar]
	v := new(big.Int).Add(new(big.Int).SetBytes(y), big.NewInt(1))
	v.Mod(v, blsOrder).FillBytes(y)
	return out
}

// PointEvaluationCases is the number of cases the point evaluation part
// runs: each vector as it is and with its value changed.
func PointEvaluationCases() (int, error) {
	f, err := fixtures.LoadPrecompileFile(fixtures.KZGPrecompileDir, PointEvaluationFile)
	if err != nil {
		return 0, err
	}
	return 2 * len(f.Vectors), nil
}

// CheckPointEvaluation runs the vectors through each of libs that offers
// VerifyKZGProof; the error is an *agree.Disagreement naming the vector
// and the library, or another error when the vectors cannot be read.
func CheckPointEvaluation(libs []suites.KZGAgreeLib) error {
	f, err := fixtures.LoadPrecompileFile(fixtures.KZGPrecompileDir, PointEvaluationFile)
	if err != nil {
		return err
	}
	against := fixtures.KZGPrecompileDir + "/" + PointEvaluationFile + " (go-ethereum v1.17.10)"
	for _, v := range f.Vectors {
		for _, l := range libs {
			if l.VerifyKZGProof == nil {
				continue
			}
			name := PointEvaluationFile + ": " + v.Name
			out, err := pointEvaluation(l, v.Input)
			switch {
			case v.Fails() && err == nil:
				return &agree.Disagreement{Case: name, Check: "point evaluation", Lib: l.Lib, Against: against, Got: out, Detail: "accepts an input the vector rejects (" + v.ExpectedError + ")"}
			case !v.Fails() && err != nil:
				return &agree.Disagreement{Case: name, Check: "point evaluation", Lib: l.Lib, Against: against, Detail: err.Error()}
			case !v.Fails() && !bytes.Equal(out, v.Expected):
				return &agree.Disagreement{Case: name, Check: "point evaluation", Lib: l.Lib, Against: against, Got: out, Want: v.Expected}
			}
			if v.Fails() {
				continue
			}
			if out, err := pointEvaluation(l, changedValue(v.Input)); err == nil {
				return &agree.Disagreement{Case: name + " with y+1", Check: "point evaluation", Lib: l.Lib, Against: against, Got: out,
					Detail: "verifies the proof for a value the polynomial does not take"}
			}
		}
	}
	return nil
}
