//go:build unix

package memprof

import (
	"fmt"
	"syscall"
	"time"
)

// runCPUTime is the user plus system CPU time of the process (all
// threads) and of the children it has waited for, so far: getrusage
// RUSAGE_SELF plus RUSAGE_CHILDREN.
func runCPUTime() (time.Duration, error) {
	var self, children syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &self); err != nil {
		return 0, fmt.Errorf("getrusage: %w", err)
	}
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children); err != nil {
		return 0, fmt.Errorf("getrusage: %w", err)
	}
	ns := self.Utime.Nano() + self.Stime.Nano() + children.Utime.Nano() + children.Stime.Nano()
	return time.Duration(ns), nil
}
