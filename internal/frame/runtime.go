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

// IsAllocatorFunction reports whether the function named fn allocates on
// behalf of its caller: the runtime's, or the reflect package's
// (reflect.New is new(T) with T a value; its allocation reaches the
// runtime through reflect.unsafe_New). A site is named by the first frame
// past these.
func IsAllocatorFunction(fn string) bool {
	return IsRuntimeFunction(fn) || strings.HasPrefix(fn, "reflect.")
}
