//go:build unix

package memprof

import (
	"fmt"
	"syscall"
	"time"
)

// processCPUTime is the user plus system CPU time of the whole process
// (all threads) so far, from getrusage(RUSAGE_SELF).
func processCPUTime() (time.Duration, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, fmt.Errorf("getrusage: %w", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
}
