//go:build linux

package memprof

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// gcCPUClock names the OS accounting the GC pass reads its CPU figure
// from: the CPU time of all the process's threads (the sum of their
// on-CPU time, the first field of /proc/self/task/*/schedstat, and of
// the threads that exited), in nanoseconds.
const gcCPUClock = "clock_gettime(CLOCK_PROCESS_CPUTIME_ID)"

// threadsCPUNs is the CPU time of all the process's threads so far, in
// nanoseconds (gcCPUClock). It allocates nothing.
func threadsCPUNs() (int64, error) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
		return 0, fmt.Errorf("%s: %w", gcCPUClock, err)
	}
	return ts.Nano(), nil
}
