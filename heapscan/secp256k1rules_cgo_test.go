//go:build cgo

package heapscan_test

import "github.com/ethereum/go-ethereum/crypto/secp256k1"

var secpCgoRuleCases = []ruleFuncs{
	{"Secp256k1Signature", []any{secp256k1.Sign}},
	{"Secp256k1PublicKey", []any{secp256k1.RecoverPubkey, secp256k1.DecompressPubkey, secp256k1.CompressPubkey}},
	{"Secp256k1Point", []any{(*secp256k1.BitCurve).ScalarMult}},
}
