//go:build !unix

package memprof

import (
	"errors"
	"time"
)

// errNoCPUTime is why this OS has no CPU figures: memprof reads the
// process's CPU time with getrusage or clock_gettime, which it lacks.
var errNoCPUTime = errors.New("the process's CPU time is read with getrusage or clock_gettime, which this OS lacks")

// processCPUTime is not implemented outside Unix: rows then carry a note
// instead of a CPU figure.
func processCPUTime() (time.Duration, error) { return 0, errNoCPUTime }

// gcCPUClock names the OS accounting the GC pass would read its CPU
// figure from: none here.
const gcCPUClock = "none"

// threadsCPUNs is not implemented outside Unix: the GC CPU figures are
// then n/a, with errNoCPUTime as the reason.
func threadsCPUNs() (int64, error) { return 0, errNoCPUTime }
