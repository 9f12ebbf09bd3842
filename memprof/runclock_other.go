//go:build !unix

package memprof

import "time"

// runCPUTime is not read outside Unix: the run's CPU time is then not
// recorded.
func runCPUTime() (time.Duration, error) { return 0, errNoCPUTime }
