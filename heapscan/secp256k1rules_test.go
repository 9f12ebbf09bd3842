package heapscan_test

import (
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/memprof/memprof/heapscan"
)

// secpRuleCases are go-ethereum's crypto package (in both builds) and
// decred; go-ethereum's cgo crypto/secp256k1 is in
// secp256k1rules_cgo_test.go.
var secpRuleCases = []ruleCase{
	{crypto.ToECDSA, "Secp256k1SecretKey"},
	{crypto.HexToECDSA, "Secp256k1SecretKey"},
	{crypto.FromECDSA, "Secp256k1SecretKey"},
	{crypto.Sign, "Secp256k1Signature"},
	{crypto.PubkeyToAddress, "Secp256k1Address"},
	{crypto.UnmarshalPubkey, "Secp256k1PublicKey"},
	{crypto.DecompressPubkey, "Secp256k1PublicKey"},
	{crypto.CompressPubkey, "Secp256k1PublicKey"},
	{crypto.FromECDSAPub, "Secp256k1PublicKey"},
	{crypto.SigToPub, "Secp256k1PublicKey"},
	{crypto.Ecrecover, "Secp256k1PublicKey"},
	{secp256k1.PrivKeyFromBytes, "Secp256k1SecretKey"},
	{secp256k1.NewPrivateKey, "Secp256k1SecretKey"},
	{secp256k1.PrivateKey.Serialize, "Secp256k1SecretKey"},
	{secp256k1.ParsePubKey, "Secp256k1PublicKey"},
	{secp256k1.NewPublicKey, "Secp256k1PublicKey"},
	{(*secp256k1.PrivateKey).PubKey, "Secp256k1PublicKey"},
	{secp256k1.PublicKey.SerializeCompressed, "Secp256k1PublicKey"},
	{secp256k1.PublicKey.SerializeUncompressed, "Secp256k1PublicKey"},
	{ecdsa.RecoverCompact, "Secp256k1PublicKey"},
	{ecdsa.Sign, "Secp256k1Signature"},
	{ecdsa.SignCompact, "Secp256k1Signature"},
	{ecdsa.ParseDERSignature, "Secp256k1Signature"},
	{ecdsa.NewSignature, "Secp256k1Signature"},
	{(*ecdsa.Signature).Serialize, "Secp256k1Signature"},
}

// TestSecp256k1Rules checks fixtures/secp256k1.rules.yaml against the
// names the runtime gives the libraries' functions, through a profile
// whose stacks are those frames, and that a decoded key's curve
// arithmetic below crypto.ToECDSA is the key's.
func TestSecp256k1Rules(t *testing.T) {
	rules := checkRules(t, "../fixtures/secp256k1.rules.yaml", append(append([]ruleCase{}, secpRuleCases...), secpCgoRuleCases...))
	h := oneStackHeap(t, "math/big.nat.make", "github.com/ethereum/go-ethereum/crypto/secp256k1.(*BitCurve).ScalarMult", funcName(crypto.ToECDSA), "main.main")
	s, err := h.Summarize(heapscan.Options{GroupBy: "rule", Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Rows) != 1 || s.Rows[0].Key != "Secp256k1SecretKey" {
		t.Errorf("a big.Int under ScalarMult under ToECDSA: got rows %+v, want Secp256k1SecretKey", s.Rows)
	}
}
