//go:build !cgo || !linux

package memprof

import "runtime"

// cHeapInUse reports that the C heap cannot be read in this build.
func cHeapInUse() (bytes int64, reason string) {
	if !cgoEnabled {
		return 0, "cgo disabled in this build (CGO_ENABLED=0)"
	}
	return 0, "mallinfo2 needs glibc; this is " + runtime.GOOS
}
