//go:build linux

package memprof

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// processState is the state letter of process p in /proc/p/stat: R, S, T
// (stopped), ...
func processState(t *testing.T, p *os.Process) string {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(p.Pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	// pid (comm) state ...: comm may hold spaces, the state follows the
	// last ')'.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return f[0]
}

// waitState polls until p is in state want (a signal is delivered
// asynchronously), or fails after a few seconds.
func waitState(t *testing.T, p *os.Process, stopped bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		st := processState(t, p)
		if (st == "T") == stopped {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d: state %s, want stopped %v", p.Pid, st, stopped)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// stoppedOrGone polls until p is stopped (state T), a zombie (Z, X) or
// reaped, or fails after a few seconds; it returns the last state read.
func stoppedOrGone(p *os.Process) (string, error) {
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(p.Pid) + "/stat")
		if errors.Is(err, fs.ErrNotExist) {
			return "gone", nil
		}
		if err != nil {
			return "", err
		}
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) > 0 && (f[0] == "T" || f[0] == "Z" || f[0] == "X") {
			return f[0], nil
		}
		if time.Now().After(deadline) {
			return strings.Join(f[:min(len(f), 1)], ""), errors.New("not stopped after 5 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestQuiet: while one child reads, every other child of the run is
// stopped, those started meanwhile too; resume continues them all.
func TestQuiet(t *testing.T) {
	start := func() *os.Process {
		cmd := exec.Command("sleep", "60")
		if err := cmd.Start(); err != nil {
			t.Skipf("no sleep: %v", err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd.Process
	}
	var q Quiet
	reader, other := start(), start()
	for _, p := range []*os.Process{reader, other} {
		if err := q.add(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.quiet(reader); err != nil {
		t.Fatal(err)
	}
	waitState(t, other, true)
	late := start()
	if err := q.add(late); err != nil {
		t.Fatal(err)
	}
	waitState(t, late, true)
	if st := processState(t, reader); st == "T" {
		t.Errorf("the reading child is stopped (state %s)", st)
	}
	if err := q.resume(); err != nil {
		t.Fatal(err)
	}
	waitState(t, other, false)
	waitState(t, late, false)
}

// TestMeasureInChildQuiet: children measuring at once with one Quiet
// each read their mark time while the others are stopped, and all finish.
func TestMeasureInChildQuiet(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	q := &Quiet{}
	var mu sync.Mutex
	var readings int
	q.observe = func(reading *os.Process, stopped []*os.Process) {
		mu.Lock()
		defer mu.Unlock()
		readings++
		// observe runs on the parent's goroutine for the reading child:
		// it reports with Errorf (Fatal would leave the turn held and
		// the run hung). A child may have exited as it was stopped (a
		// zombie, or reaped): it runs no more either.
		for _, p := range stopped {
			if st, err := stoppedOrGone(p); err != nil {
				t.Errorf("process %d: state %s, want it stopped while process %d reads: %v", p.Pid, st, reading.Pid, err)
			}
		}
	}
	child := Child{Args: []string{"-test.run=^$"}, Quiet: q}
	var wg sync.WaitGroup
	results := make([]*Result, 3)
	errs := make([]error, 3)
	for i := range results {
		wg.Go(func() {
			results[i], errs[i] = MeasureInChild(context.Background(), child, "forty", "", N(100_000))
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("child %d: %v", i, err)
		}
		if len(results[i].GCMarkSamplesNs) != MarkCycles {
			t.Errorf("child %d: %d mark samples, want %d", i, len(results[i].GCMarkSamplesNs), MarkCycles)
		}
	}
	// Each child asks twice: before its instances are built and after.
	if readings != 2*len(results) {
		t.Errorf("got %d quiet readings, want %d", readings, 2*len(results))
	}
}
