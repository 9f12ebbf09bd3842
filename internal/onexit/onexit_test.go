package onexit

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
)

// fresh gives the test hooks of its own: Run's mark stays for the process.
func fresh(t *testing.T) {
	t.Helper()
	hooks.mu.Lock()
	hooks.fns, hooks.ran = nil, false
	hooks.mu.Unlock()
}

// Owe keeps the cleanup of what it made until it is removed; Run runs
// those kept, newest first, once; a failed make keeps nothing; after Run,
// Owe makes nothing.
func TestOweAndRun(t *testing.T) {
	fresh(t)
	var ran []string
	owe := func(name string, err error) (func(), error) {
		return Owe(func() (func(), error) {
			if err != nil {
				return nil, err
			}
			return func() { ran = append(ran, name) }, nil
		})
	}
	for _, name := range []string{"first", "removed", "last"} {
		remove, err := owe(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		if name == "removed" {
			remove()
		}
	}
	refused := errors.New("refused")
	if _, err := owe("failed", refused); err != refused {
		t.Errorf("Owe of a failed make returned %v, want its error", err)
	}
	Run()
	if want := []string{"last", "first"}; !slices.Equal(ran, want) {
		t.Errorf("Run ran %q, want %q", ran, want)
	}
	Run()
	if len(ran) != 2 {
		t.Errorf("a second Run ran %q again", ran[2:])
	}
	made := false
	if _, err := Owe(func() (func(), error) { made = true; return func() {}, nil }); !errors.Is(err, ErrExiting) || made {
		t.Errorf("Owe after Run: made %v, error %v; want nothing made and ErrExiting", made, err)
	}
}

// A Run that begins while Owe makes something returns only once that
// thing's cleanup has run: a process exiting after Run leaves nothing.
func TestOweDuringRun(t *testing.T) {
	fresh(t)
	making, proceed := make(chan struct{}), make(chan struct{})
	var cleaned atomic.Bool
	owed := make(chan error, 1)
	go func() {
		_, err := Owe(func() (func(), error) {
			close(making)
			<-proceed
			return func() { cleaned.Store(true) }, nil
		})
		owed <- err
	}()
	<-making
	returned := make(chan bool, 1)
	go func() {
		Run()
		returned <- cleaned.Load()
	}()
	// Run must wait while the thing is being made: give it the chance not
	// to (a Run that does not wait returns here on most schedules).
	for range 1000 {
		select {
		case <-returned:
			t.Fatal("Run returned while Owe was making something")
		default:
			runtime.Gosched()
		}
	}
	close(proceed)
	if err := <-owed; err != nil {
		t.Fatal(err)
	}
	if !<-returned {
		t.Error("Run returned before the cleanup of what Owe was making had run")
	}
}

// MkdirTemp makes the directory, which Run removes with what it holds;
// after Run it makes none.
func TestMkdirTemp(t *testing.T) {
	fresh(t)
	parent := t.TempDir()
	dir, _, err := MkdirTemp(parent, "x-*")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	Run()
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after Run, %s: %v, want it gone", dir, err)
	}
	if _, _, err := MkdirTemp(parent, "y-*"); !errors.Is(err, ErrExiting) {
		t.Errorf("MkdirTemp after Run: %v, want ErrExiting", err)
	}
	if left, _ := os.ReadDir(parent); len(left) != 0 {
		t.Errorf("left in %s: %v", parent, left)
	}
}
