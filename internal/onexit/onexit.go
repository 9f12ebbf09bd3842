// Package onexit keeps the cleanups a process owes while it works (a
// child to kill, a temporary directory to remove), so that a process that
// must exit at once, as memprof does at a second interrupt, runs them
// first instead of skipping the deferred calls that would have.
package onexit

import (
	"errors"
	"maps"
	"os"
	"slices"
	"sync"
)

// hooks are the cleanups kept and not yet removed, by id; ran says Run
// has begun, after which Owe makes nothing.
var hooks struct {
	mu   sync.Mutex
	next int
	fns  map[int]func()
	ran  bool
}

// ErrExiting is Owe's error once Run has begun: the process is exiting.
var ErrExiting = errors.New("exiting")

// Owe runs create, which makes something the process must clean up before
// it exits (a temporary file, a child process), and keeps the cleanup it
// returns until remove is called (once the work that owed it has cleaned
// up after itself), both under the lock Run holds: a process that exits
// at once after Run never leaves a thing made whose cleanup was not yet
// kept. Once Run has begun, Owe makes nothing and returns ErrExiting. The
// cleanup must be safe to run while that work still runs; create must
// not call Owe or Run.
func Owe(create func() (cleanup func(), err error)) (remove func(), err error) {
	hooks.mu.Lock()
	defer hooks.mu.Unlock()
	if hooks.ran {
		return nil, ErrExiting
	}
	cleanup, err := create()
	if err != nil {
		return nil, err
	}
	return keep(cleanup), nil
}

// MkdirTemp is os.MkdirTemp(dir, pattern) made through Owe, the
// directory and all it holds removed by Run.
func MkdirTemp(dir, pattern string) (path string, remove func(), err error) {
	remove, err = Owe(func() (func(), error) {
		var err error
		if path, err = os.MkdirTemp(dir, pattern); err != nil {
			return nil, err
		}
		return func() { os.RemoveAll(path) }, nil
	})
	return path, remove, err
}

// keep adds f to the hooks; the caller holds hooks.mu.
func keep(f func()) (remove func()) {
	if hooks.fns == nil {
		hooks.fns = map[int]func(){}
	}
	id := hooks.next
	hooks.next++
	hooks.fns[id] = f
	return func() {
		hooks.mu.Lock()
		delete(hooks.fns, id)
		hooks.mu.Unlock()
	}
}

// Run runs every cleanup kept and not removed, newest first, for a
// process about to exit; after it, Owe makes nothing.
func Run() {
	hooks.mu.Lock()
	defer hooks.mu.Unlock()
	hooks.ran = true
	ids := slices.Sorted(maps.Keys(hooks.fns))
	for _, id := range slices.Backward(ids) {
		hooks.fns[id]()
		delete(hooks.fns, id)
	}
}
