package memprof

import (
	"time"

	"github.com/memprof/memprof/measure"
)

// RunClock is the start of a run: its wall-clock time and the CPU time
// the process and its waited-for children had spent by then. Finish
// records what the run cost into its results' environment.
type RunClock struct {
	wall   time.Time
	cpu    time.Duration
	cpuErr error
}

// StartRun starts a run's clock.
func StartRun() RunClock {
	cpu, err := runCPUTime()
	return RunClock{wall: time.Now(), cpu: cpu, cpuErr: err}
}

// Finish records into e the load average at the end of the run, the
// run's wall-clock time and, where this system reports it, its CPU time
// (the process's and its waited-for children's).
func (c RunClock) Finish(e *measure.Env) {
	e.LoadEnd = LoadAverage()
	wall := time.Since(c.wall).Seconds()
	e.RunWallSeconds = &wall
	if cpu, err := runCPUTime(); err == nil && c.cpuErr == nil {
		s := (cpu - c.cpu).Seconds()
		e.RunCPUSeconds = &s
	}
}
