//go:build unix

package memprof

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// TestMeasureInChildCancelled: a cancelled context stops the child (or
// never starts it), leaves nothing in the temporary directory, and the
// error says why: it wraps the context's cause, not "signal: killed".
func TestMeasureInChildCancelled(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	cause := errors.New("stopped by the test")
	tests := []struct {
		name string
		// whileRunning: cancel once the child runs; otherwise before
		// MeasureInChild is called.
		whileRunning bool
	}{
		{"before the child starts", false},
		{"while the child runs", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tmp := filepath.Join(dir, "tmp")
			if err := os.Mkdir(tmp, 0o755); err != nil {
				t.Fatal(err)
			}
			t.Setenv("TMPDIR", tmp)
			pidFile := filepath.Join(dir, "pid")
			// A child that stalls, as a case of a million instances does.
			child := Child{Path: sh, Args: []string{"-c", `echo $$ > "$PIDFILE.tmp" && mv "$PIDFILE.tmp" "$PIDFILE" && exec sleep 60`},
				Env: []string{"PIDFILE=" + pidFile}}
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			pid := make(chan int, 1)
			if tt.whileRunning {
				go func() {
					for {
						if b, err := os.ReadFile(pidFile); err == nil {
							n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
							pid <- n
							cancel(cause)
							return
						}
						time.Sleep(5 * time.Millisecond)
					}
				}()
			} else {
				cancel(cause)
			}
			start := time.Now()
			_, err := MeasureInChild(ctx, child, "stall", "", N(10))
			if !errors.Is(err, cause) {
				t.Errorf("got %v, want an error wrapping the cause %q", err, cause)
			}
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("took %v to stop: the child was not killed", d)
			}
			if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
				t.Errorf("left in TMPDIR: %v, want nothing", entries)
			}
			if !tt.whileRunning {
				if _, err := os.Stat(pidFile); err == nil {
					t.Errorf("the child started although the context was cancelled before")
				}
				return
			}
			p := <-pid
			if err := syscall.Kill(p, 0); !errors.Is(err, syscall.ESRCH) {
				t.Errorf("child %d: kill(0) got %v, want ESRCH (the child is gone)", p, err)
			}
		})
	}
}

// TestMeasureInChildrenSideBySide: children measuring at once (nothing
// stops them while one reads) each get every GC sample, the CPU time's
// among them, and the exact bytes; a Child with the deprecated Quiet is
// accepted and measures alike.
func TestMeasureInChildrenSideBySide(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	_, cpuErr := threadsCPUNs()
	want := sizeClass(t, unsafe.Sizeof(forty{}))
	results := make([]*Result, 3)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i := range results {
		child := Child{Args: []string{"-test.run=^$"}}
		if i == 0 {
			child.Quiet = &Quiet{}
		}
		wg.Go(func() {
			results[i], errs[i] = MeasureInChild(context.Background(), child, "forty", "", N(100_000))
		})
	}
	wg.Wait()
	for i, r := range results {
		if errs[i] != nil {
			t.Fatalf("child %d: %v", i, errs[i])
		}
		if r.BytesPerInstance != want {
			t.Errorf("child %d: %v B per instance, want %v", i, r.BytesPerInstance, want)
		}
		if len(r.GCMarkSamplesNs) != MarkCycles || (cpuErr == nil && !cpuMeasured(r)) {
			t.Errorf("child %d: %d mark and %d CPU samples, want %d each", i, len(r.GCMarkSamplesNs), len(r.GCCPUSamplesNs), MarkCycles)
		}
	}
}
