//go:build !unix

package memprof

import (
	"errors"
	"time"
)

// processCPUTime is not implemented outside Unix: rows then carry a note
// instead of a CPU figure.
func processCPUTime() (time.Duration, error) {
	return 0, errors.New("process CPU time is read with getrusage, which this OS lacks")
}
