//go:build cgo

package heapscan_test

import blst "github.com/supranational/blst/bindings/go"

var cgoRuleCases = []ruleFuncs{
	{"SecretKey", []any{blst.KeyGen, (*blst.SecretKey).Deserialize}},
	{"PublicKey", []any{(*blst.P1Affine).Uncompress, (*blst.P1Affine).Deserialize, (*blst.P1Affine).From}},
	{"Signature", []any{(*blst.P2Affine).Uncompress, (*blst.P2Affine).Sign}},
	{"AggregateSignature", []any{(*blst.P2Aggregate).ToAffine}},
	{"AggregatePublicKey", []any{(*blst.P1Aggregate).Aggregate}},
	{"G1", []any{(*blst.P1).ToAffine}},
	{"G2", []any{blst.HashToG2}},
}
