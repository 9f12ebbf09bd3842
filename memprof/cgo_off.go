//go:build !cgo

package memprof

const cgoEnabled = false
