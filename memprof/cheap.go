package memprof

import "errors"

// CHeapInUse returns the bytes of C heap in use in this process, as glibc's
// mallinfo2 reports them (arena chunks in use plus mmapped chunks), or an
// error saying why they cannot be read: a build without cgo, a C library
// other than glibc 2.33 or newer. It is the reading behind the C-heap
// figures of Measure, for callers that watch C memory around their own
// calls (the per-operation C heap of a cgo library).
func CHeapInUse() (int64, error) {
	v, why := cHeapInUse()
	if why != "" {
		return 0, errors.New("reading the C heap: " + why)
	}
	return v, nil
}
