package memprof

import (
	"os"
	"strconv"
	"strings"
)

// loadavgFile is where Linux reports the load averages: the 1-, 5- and
// 15-minute averages first, separated by spaces (proc(5)).
const loadavgFile = "/proc/loadavg"

// LoadAverage returns the machine's one-minute load average, nil where
// the system does not report it (no /proc/loadavg: not Linux).
func LoadAverage() *float64 {
	b, err := os.ReadFile(loadavgFile)
	if err != nil {
		return nil
	}
	return parseLoadavg(string(b))
}

// parseLoadavg reads the first field of /proc/loadavg's text; nil when it
// is not a non-negative number.
func parseLoadavg(s string) *float64 {
	f := strings.Fields(s)
	if len(f) == 0 {
		return nil
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil || v < 0 {
		return nil
	}
	return &v
}
