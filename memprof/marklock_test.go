//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package memprof

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestMarkLock: the GC pass takes its readings holding the mark lock
// alone. While another process (here another open file of the same lock,
// which flock treats alike) holds the lock shared, as a measuring child
// does, the pass waits; once it is released the pass runs, and while it
// runs nobody else can take the lock, not even shared.
func TestMarkLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mark.lock")
	other, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := flock(other, syscall.LOCK_SH); err != nil {
		t.Fatal(err)
	}
	type probe struct{ err error }
	inPass := make(chan probe, 4)
	afterExclusive = func() {
		// Another measuring process asking for the lock now gets it
		// only after the pass.
		inPass <- probe{syscall.Flock(int(other.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)}
	}
	t.Cleanup(func() { afterExclusive = nil })
	done := make(chan error, 1)
	go func() {
		_, err := Measure(Case{Name: "locked", New: func(i int) any { return new([96]byte) }}, N(1000), MarkLock(path))
		done <- err
	}()
	select {
	case p := <-inPass:
		t.Fatalf("the GC pass ran while another process held the lock (probe: %v)", p.err)
	case err := <-done:
		t.Fatalf("Measure returned (%v) while another process held the lock", err)
	case <-time.After(500 * time.Millisecond):
	}
	if err := flock(other, syscall.LOCK_UN); err != nil {
		t.Fatal(err)
	}
	for range 2 { // before the instances are built, and after
		select {
		case p := <-inPass:
			if !errors.Is(p.err, syscall.EWOULDBLOCK) {
				t.Errorf("another process took the lock during the GC pass: got %v, want %v", p.err, syscall.EWOULDBLOCK)
				flock(other, syscall.LOCK_UN)
			}
		case <-time.After(time.Minute):
			t.Fatal("the GC pass did not run once the lock was free")
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// Measure released the lock: it can be taken alone.
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Errorf("after Measure: got %v taking the lock, want it free", err)
	}
}
