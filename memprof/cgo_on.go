//go:build cgo

package memprof

const cgoEnabled = true
