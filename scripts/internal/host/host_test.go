package host

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestLoadAverage checks the three fields against /proc/loadavg where the
// machine has one, and "unknown" where it has not.
func TestLoadAverage(t *testing.T) {
	got := LoadAverage()
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		if got != "unknown" {
			t.Errorf("got %q without /proc/loadavg, want unknown", got)
		}
		return
	}
	f := strings.Fields(got)
	if len(f) != 3 {
		t.Fatalf("got %q, want three load averages (from %q)", got, b)
	}
	for _, v := range f {
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			t.Errorf("got %q: %v", got, err)
		}
	}
}
