package heapscan_test

import (
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"github.com/ethereum/go-ethereum/crypto"
)

// secpRuleCases are go-ethereum's crypto package (in both builds) and
// decred; go-ethereum's cgo crypto/secp256k1 is in
// secp256k1rules_cgo_test.go.
var secpRuleCases = []ruleFuncs{
	{"Secp256k1SecretKey", []any{crypto.ToECDSA, crypto.HexToECDSA, crypto.FromECDSA, secp256k1.PrivKeyFromBytes, secp256k1.NewPrivateKey, secp256k1.PrivateKey.Serialize}},
	{"Secp256k1Signature", []any{crypto.Sign, ecdsa.Sign, ecdsa.SignCompact, ecdsa.ParseDERSignature, ecdsa.NewSignature, (*ecdsa.Signature).Serialize}},
	{"Secp256k1Address", []any{crypto.PubkeyToAddress}},
	{"Secp256k1PublicKey", []any{crypto.UnmarshalPubkey, crypto.DecompressPubkey, crypto.CompressPubkey, crypto.FromECDSAPub, crypto.SigToPub, crypto.Ecrecover, secp256k1.ParsePubKey, secp256k1.NewPublicKey, (*secp256k1.PrivateKey).PubKey, secp256k1.PublicKey.SerializeCompressed, secp256k1.PublicKey.SerializeUncompressed, ecdsa.RecoverCompact}},
}

// TestSecp256k1Rules checks fixtures/secp256k1.rules.yaml against the
// names the runtime gives the libraries' functions, through a profile
// whose stacks are those frames, and that a decoded key's curve
// arithmetic below crypto.ToECDSA is the key's.
func TestSecp256k1Rules(t *testing.T) {
	rules := checkRules(t, "../fixtures/secp256k1.rules.yaml", secpRuleCases, secpCgoRuleCases)
	checkStackRule(t, rules, "Secp256k1SecretKey", "math/big.nat.make", "github.com/ethereum/go-ethereum/crypto/secp256k1.(*BitCurve).ScalarMult", funcName(crypto.ToECDSA), "main.main")
}
