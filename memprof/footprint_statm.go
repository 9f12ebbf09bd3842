//go:build unix

package memprof

import (
	"os"
	"syscall"
)

// statm is /proc/self/statm, kept open for a measurement so that reading
// the resident set allocates nothing (opening it would: its path's bytes,
// and an os.File's record and finalizer). fd is -1 where the file does not
// exist.
type statm struct{ fd int }

// openStatm opens /proc/self/statm; close closes it.
func openStatm() statm {
	fd, err := syscall.Open("/proc/self/statm", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return statm{fd: -1}
	}
	return statm{fd: fd}
}

func (s statm) close() {
	if s.fd >= 0 {
		syscall.Close(s.fd)
	}
}

// resident returns the resident set size in bytes, or -1 when it cannot
// be read.
func (s statm) resident() int64 {
	if s.fd < 0 {
		return -1
	}
	var buf [128]byte
	n, err := syscall.Pread(s.fd, buf[:], 0)
	if err != nil || n <= 0 {
		return -1
	}
	pages := parseStatm(buf[:n])
	if pages < 0 {
		return -1
	}
	return pages * int64(os.Getpagesize())
}
