package heapscan_test

import (
	"crypto/mlkem"
	"testing"

	"filippo.io/mldsa"
	"github.com/cloudflare/circl/kem/mlkem/mlkem1024"
	"github.com/cloudflare/circl/kem/mlkem/mlkem512"
	"github.com/cloudflare/circl/kem/mlkem/mlkem768"
	"github.com/cloudflare/circl/sign/mldsa/mldsa44"
	"github.com/cloudflare/circl/sign/mldsa/mldsa65"
	"github.com/cloudflare/circl/sign/mldsa/mldsa87"
	"github.com/cloudflare/circl/sign/slhdsa"
)

// pqRuleCases are the post-quantum libraries' constructors and the rule
// of fixtures/pq.rules.yaml their frames must fall under.
var pqRuleCases = []ruleCase{
	{mlkem.NewDecapsulationKey768, "MLKEMDecapsulationKey"},
	{mlkem.NewDecapsulationKey1024, "MLKEMDecapsulationKey"},
	{mlkem.GenerateKey768, "MLKEMDecapsulationKey"},
	{mlkem.NewEncapsulationKey768, "MLKEMEncapsulationKey"},
	{(*mlkem.DecapsulationKey768).EncapsulationKey, "MLKEMEncapsulationKey"},
	{(*mlkem.EncapsulationKey768).Encapsulate, "MLKEMCiphertext"},
	{mlkem512.NewKeyFromSeed, "MLKEMDecapsulationKey"},
	{mlkem768.NewKeyFromSeed, "MLKEMDecapsulationKey"},
	{mlkem1024.GenerateKeyPair, "MLKEMDecapsulationKey"},
	{(*mlkem768.PrivateKey).Unpack, "MLKEMDecapsulationKey"},
	{(*mlkem768.PublicKey).Unpack, "MLKEMEncapsulationKey"},
	{mldsa.NewPrivateKey, "MLDSAPrivateKey"},
	{mldsa.GenerateKey, "MLDSAPrivateKey"},
	{mldsa.NewPublicKey, "MLDSAPublicKey"},
	{(*mldsa.PrivateKey).SignDeterministic, "MLDSASignature"},
	{(*mldsa.PrivateKey).Sign, "MLDSASignature"},
	{mldsa44.NewKeyFromSeed, "MLDSAPrivateKey"},
	{mldsa65.GenerateKey, "MLDSAPrivateKey"},
	{(*mldsa87.PrivateKey).UnmarshalBinary, "MLDSAPrivateKey"},
	{(*mldsa65.PublicKey).UnmarshalBinary, "MLDSAPublicKey"},
	{(*mldsa65.PrivateKey).Sign, "MLDSASignature"},
	{slhdsa.GenerateKey, "SLHDSAPrivateKey"},
	{(*slhdsa.PrivateKey).UnmarshalBinary, "SLHDSAPrivateKey"},
	{(*slhdsa.PublicKey).UnmarshalBinary, "SLHDSAPublicKey"},
	{slhdsa.PrivateKey.PublicKey, "SLHDSAPublicKey"},
	{slhdsa.SignDeterministic, "SLHDSASignature"},
	{slhdsa.SignRandomized, "SLHDSASignature"},
}

// TestPQRules checks fixtures/pq.rules.yaml against the names the runtime
// gives the post-quantum libraries' functions, as TestBLSRules does.
func TestPQRules(t *testing.T) {
	checkRules(t, "../fixtures/pq.rules.yaml", pqRuleCases)
}
