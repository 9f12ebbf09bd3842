//go:build cgo && linux

package memprof

/*
#include <malloc.h>
#include <stddef.h>

// memprof_c_heap_inuse returns the bytes glibc's malloc has handed out and not
// yet freed (arena chunks in use plus mmapped chunks), or -1 where
// mallinfo2 is missing (not glibc, or glibc older than 2.33).
static long long memprof_c_heap_inuse(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
	struct mallinfo2 mi = mallinfo2();
	return (long long)(mi.uordblks + mi.hblkhd);
#else
	return -1;
#endif
}
*/
import "C"

// cHeapInUse returns the C heap in use, or ok=false with the reason.
func cHeapInUse() (bytes int64, reason string) {
	v := int64(C.memprof_c_heap_inuse())
	if v < 0 {
		return 0, "mallinfo2 not available (not glibc 2.33 or newer)"
	}
	return v, ""
}
