//go:build !cgo

package main

// testBuiltWithCgo says whether this test binary was built with cgo.
const testBuiltWithCgo = false
