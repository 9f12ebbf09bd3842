package heapscan_test

import (
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254"
	cloudflare "github.com/ethereum/go-ethereum/crypto/bn256/cloudflare"
	gethgnark "github.com/ethereum/go-ethereum/crypto/bn256/gnark"
	google "github.com/ethereum/go-ethereum/crypto/bn256/google"

	"github.com/memprof/memprof/heapscan"
)

// bn254RuleCases are real functions of the BN254 libraries and the rule
// their frames must fall under.
var bn254RuleCases = []ruleCase{
	{(*cloudflare.G1).Marshal, "BN254Encoding"},
	{(*google.G2).Marshal, "BN254Encoding"},
	{(*gethgnark.G1).Marshal, "BN254Encoding"},
	{(*bn254.G1Affine).Marshal, "BN254Encoding"},
	{bn254.PairingCheck, "BN254Pairing"},
	{bn254.PairingCheckFixedQ, "BN254Pairing"},
	{cloudflare.PairingCheck, "BN254Pairing"},
	{google.PairingCheck, "BN254Pairing"},
	{gethgnark.PairingCheck, "BN254Pairing"},
	{(*bn254.G1Affine).MultiExp, "BN254MSM"},
	{(*bn254.G2Jac).MultiExp, "BN254MSM"},
	{(*cloudflare.G1).Unmarshal, "BN254G1"},
	{(*cloudflare.G1).Add, "BN254G1"},
	{(*google.G1).Unmarshal, "BN254G1"},
	{(*google.G1).ScalarMult, "BN254G1"},
	{(*gethgnark.G1).Unmarshal, "BN254G1"},
	{(*bn254.G1Affine).SetBytes, "BN254G1"},
	{(*bn254.G1Jac).AddAssign, "BN254G1"},
	{bn254.BatchJacobianToAffineG1, "BN254G1"},
	{(*cloudflare.G2).Unmarshal, "BN254G2"},
	{(*cloudflare.G2).Set, "BN254G2"},
	{(*google.G2).Unmarshal, "BN254G2"},
	{(*google.G2).Add, "BN254G2"},
	{(*gethgnark.G2).Unmarshal, "BN254G2"},
	{(*bn254.G2Affine).SetBytes, "BN254G2"},
	{bn254.MapToG2, "BN254G2"},
	{(*bn254.Decoder).Decode, "BN254Decoder"},
}

// TestBN254Rules checks fixtures/bn254.rules.yaml against the names the
// runtime gives the libraries' functions, through a profile whose stacks
// are those frames (under a caller), and that the encoding rule wins over
// the point rule for a Marshal called from a point method's stack.
func TestBN254Rules(t *testing.T) {
	rules := checkRules(t, "../fixtures/bn254.rules.yaml", bn254RuleCases)
	h := oneStackHeap(t, funcName((*cloudflare.G1).Marshal), funcName((*cloudflare.G1).Add), "main.main")
	s, err := h.Summarize(heapscan.Options{GroupBy: "rule", Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Rows) != 1 || s.Rows[0].Key != "BN254Encoding" {
		t.Errorf("Marshal under Add: got rows %+v, want BN254Encoding (the first rule that matches)", s.Rows)
	}
}
