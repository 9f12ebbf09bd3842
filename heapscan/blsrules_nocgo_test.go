//go:build !cgo

package heapscan_test

// blst builds only with cgo.
var cgoRuleCases []ruleFuncs
