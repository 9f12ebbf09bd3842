package memprof

import (
	"runtime"
	"testing"

	"github.com/memprof/memprof/measure"
)

func TestParseLoadavg(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"12.34 10.01 8.00 3/512 12345\n", 12.34, true},
		{"0.00 0.00 0.00 1/90 7\n", 0, true},
		{"", 0, false},
		{"-1 0 0 1/1 1", 0, false},
		{"busy 0 0", 0, false},
	} {
		got := parseLoadavg(tt.in)
		if (got != nil) != tt.ok || got != nil && *got != tt.want {
			t.Errorf("parseLoadavg(%q) = %v, want %v (ok %v)", tt.in, got, tt.want, tt.ok)
		}
	}
}

// TestRunClock: a run's clock records the load at its end (on Linux),
// its wall time and, on Unix, a CPU time no smaller than the CPU this
// test burns inside it (read from the process's own accounting).
func TestRunClock(t *testing.T) {
	c := StartRun()
	before, err := processCPUTime()
	if err != nil {
		t.Skipf("no CPU time here: %v", err)
	}
	sum := 0
	for {
		for i := range 1_000_000 {
			sum += i
		}
		if now, _ := processCPUTime(); now-before > 20e6 {
			break
		}
	}
	burned, _ := processCPUTime()
	var e measure.Env
	c.Finish(&e)
	if e.RunWallSeconds == nil || *e.RunWallSeconds <= 0 {
		t.Errorf("run_wall_s: got %v, want a positive time", e.RunWallSeconds)
	}
	if e.RunCPUSeconds == nil {
		t.Fatal("run_cpu_s: not recorded")
	}
	if min := (burned - before).Seconds(); *e.RunCPUSeconds < min {
		t.Errorf("run_cpu_s: got %v s, want at least the %v s burned in the run", *e.RunCPUSeconds, min)
	}
	if runtime.GOOS == "linux" && e.LoadEnd == nil {
		t.Error("load_average_end: not recorded on Linux")
	}
	if sum == 0 {
		t.Log(sum) // keeps the loop
	}
}
