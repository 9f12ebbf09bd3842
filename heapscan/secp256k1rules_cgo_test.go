//go:build cgo

package heapscan_test

import "github.com/ethereum/go-ethereum/crypto/secp256k1"

var secpCgoRuleCases = []ruleCase{
	{secp256k1.Sign, "Secp256k1Signature"},
	{secp256k1.RecoverPubkey, "Secp256k1PublicKey"},
	{secp256k1.DecompressPubkey, "Secp256k1PublicKey"},
	{secp256k1.CompressPubkey, "Secp256k1PublicKey"},
	{(*secp256k1.BitCurve).ScalarMult, "Secp256k1Point"},
}
