//go:build cgo

package heapscan_test

import blst "github.com/supranational/blst/bindings/go"

var cgoRuleCases = []ruleCase{
	{blst.KeyGen, "SecretKey"},
	{(*blst.SecretKey).Deserialize, "SecretKey"},
	{(*blst.P1Affine).Uncompress, "PublicKey"},
	{(*blst.P1Affine).Deserialize, "PublicKey"},
	{(*blst.P1Affine).From, "PublicKey"},
	{(*blst.P2Affine).Uncompress, "Signature"},
	{(*blst.P2Affine).Sign, "Signature"},
	{(*blst.P2Aggregate).ToAffine, "AggregateSignature"},
	{(*blst.P1Aggregate).Aggregate, "AggregatePublicKey"},
	{(*blst.P1).ToAffine, "G1"},
	{blst.HashToG2, "G2"},
}
