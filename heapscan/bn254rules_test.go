package heapscan_test

import (
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254"
	cloudflare "github.com/ethereum/go-ethereum/crypto/bn256/cloudflare"
	gethgnark "github.com/ethereum/go-ethereum/crypto/bn256/gnark"
	google "github.com/ethereum/go-ethereum/crypto/bn256/google"
)

// bn254RuleCases are real functions of the BN254 libraries and the rule
// their frames must fall under.
var bn254RuleCases = []ruleFuncs{
	{"BN254Encoding", []any{(*cloudflare.G1).Marshal, (*google.G2).Marshal, (*gethgnark.G1).Marshal, (*bn254.G1Affine).Marshal}},
	{"BN254Pairing", []any{bn254.PairingCheck, bn254.PairingCheckFixedQ, cloudflare.PairingCheck, google.PairingCheck, gethgnark.PairingCheck}},
	{"BN254MSM", []any{(*bn254.G1Affine).MultiExp, (*bn254.G2Jac).MultiExp}},
	{"BN254G1", []any{(*cloudflare.G1).Unmarshal, (*cloudflare.G1).Add, (*google.G1).Unmarshal, (*google.G1).ScalarMult, (*gethgnark.G1).Unmarshal, (*bn254.G1Affine).SetBytes, (*bn254.G1Jac).AddAssign, bn254.BatchJacobianToAffineG1}},
	{"BN254G2", []any{(*cloudflare.G2).Unmarshal, (*cloudflare.G2).Set, (*google.G2).Unmarshal, (*google.G2).Add, (*gethgnark.G2).Unmarshal, (*bn254.G2Affine).SetBytes, bn254.MapToG2}},
	{"BN254Decoder", []any{(*bn254.Decoder).Decode}},
}

// TestBN254Rules checks fixtures/bn254.rules.yaml against the names the
// runtime gives the libraries' functions, through a profile whose stacks
// are those frames (under a caller), and that the encoding rule wins over
// the point rule for a Marshal called from a point method's stack.
func TestBN254Rules(t *testing.T) {
	rules := checkRules(t, "../fixtures/bn254.rules.yaml", bn254RuleCases)
	checkStackRule(t, rules, "BN254Encoding", funcName((*cloudflare.G1).Marshal), funcName((*cloudflare.G1).Add), "main.main")
}
