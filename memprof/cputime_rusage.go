//go:build unix && !linux

package memprof

import (
	"fmt"
	"syscall"
)

// gcCPUClock names the OS accounting the GC pass reads its CPU figure
// from: the user and system CPU time of all the process's threads, to the
// microsecond.
const gcCPUClock = "getrusage(RUSAGE_SELF)"

// threadsCPUNs is the CPU time of all the process's threads so far, in
// nanoseconds (gcCPUClock). It allocates nothing.
func threadsCPUNs() (int64, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, fmt.Errorf("%s: %w", gcCPUClock, err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano(), nil
}
