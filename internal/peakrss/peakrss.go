// Package peakrss reads a process's peak resident set, for the tests
// that bound what a command or a reader costs by running it in a child
// process: VmHWM, which a new process starts afresh (getrusage's maximum
// does not, across exec).
package peakrss

import (
	"bufio"
	"fmt"
	"os"
)

// Self returns this process's peak resident set (VmHWM), in bytes. It
// reads /proc and works on Linux only.
func Self() (int64, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var kb int64
		if _, err := fmt.Sscanf(sc.Text(), "VmHWM: %d kB", &kb); err == nil {
			return kb * 1024, nil
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/self/status")
}
