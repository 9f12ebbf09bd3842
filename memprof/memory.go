package memprof

import (
	"fmt"

	"golang.org/x/perf/benchunit"
)

// CheckMemory refuses a measurement whose estimated memory, n instances of
// perInstance bytes each (the holder included), exceeds the memory this
// machine has available. It returns nil when the available memory cannot
// be read.
func CheckMemory(n int, perInstance uint64) error {
	if n <= 0 {
		return fmt.Errorf("N must be positive, got %d", n)
	}
	avail := availableMemory()
	if avail == 0 {
		return nil
	}
	// One pass at a time is alive; the holder takes 16 B per instance.
	est := float64(n) * float64(perInstance+16)
	if est > float64(avail) {
		return fmt.Errorf("refusing N=%d: estimated %sB for the instances exceeds the %sB of memory available", n, benchunit.Scale(est, benchunit.Binary), benchunit.Scale(float64(avail), benchunit.Binary))
	}
	return nil
}

// AvailableMemory is the memory this machine has available for new
// processes (MemAvailable of /proc/meminfo), in bytes, or 0 when it cannot
// be read.
func AvailableMemory() uint64 { return availableMemory() }
