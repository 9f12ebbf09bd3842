//go:build !cgo

package heapscan_test

// secpCgoRuleCases are go-ethereum's crypto/secp256k1 functions, which
// need cgo.
var secpCgoRuleCases []ruleFuncs
