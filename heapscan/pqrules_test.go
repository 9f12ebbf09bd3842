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
var pqRuleCases = []ruleFuncs{
	{"MLKEMDecapsulationKey", []any{mlkem.NewDecapsulationKey768, mlkem.NewDecapsulationKey1024, mlkem.GenerateKey768, mlkem512.NewKeyFromSeed, mlkem768.NewKeyFromSeed, mlkem1024.GenerateKeyPair, (*mlkem768.PrivateKey).Unpack}},
	{"MLKEMEncapsulationKey", []any{mlkem.NewEncapsulationKey768, (*mlkem.DecapsulationKey768).EncapsulationKey, (*mlkem768.PublicKey).Unpack}},
	{"MLKEMCiphertext", []any{(*mlkem.EncapsulationKey768).Encapsulate}},
	{"MLDSAPrivateKey", []any{mldsa.NewPrivateKey, mldsa.GenerateKey, mldsa44.NewKeyFromSeed, mldsa65.GenerateKey, (*mldsa87.PrivateKey).UnmarshalBinary}},
	{"MLDSAPublicKey", []any{mldsa.NewPublicKey, (*mldsa65.PublicKey).UnmarshalBinary}},
	{"MLDSASignature", []any{(*mldsa.PrivateKey).SignDeterministic, (*mldsa.PrivateKey).Sign, (*mldsa65.PrivateKey).Sign}},
	{"SLHDSAPrivateKey", []any{slhdsa.GenerateKey, (*slhdsa.PrivateKey).UnmarshalBinary}},
	{"SLHDSAPublicKey", []any{(*slhdsa.PublicKey).UnmarshalBinary, slhdsa.PrivateKey.PublicKey}},
	{"SLHDSASignature", []any{slhdsa.SignDeterministic, slhdsa.SignRandomized}},
}

// TestPQRules checks fixtures/pq.rules.yaml against the names the runtime
// gives the post-quantum libraries' functions, as TestBLSRules does.
func TestPQRules(t *testing.T) {
	checkRules(t, "../fixtures/pq.rules.yaml", pqRuleCases)
}
