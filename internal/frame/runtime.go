// Package frame names the frames of a Go stack as every output of memprof
// prints them: which belong to the runtime, and the module-relative path
// of a function's source file. The engine and heapscan both use it.
package frame

import "strings"

// IsRuntimeFunction reports whether the function named fn belongs to the
// Go runtime (its allocator path, its collector): the frames the site
// grouping looks past for the allocating function.
func IsRuntimeFunction(fn string) bool {
	return strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "internal/runtime/")
}
