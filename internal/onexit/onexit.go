// Package onexit keeps the cleanups a process owes while it works (a
// child to kill, a temporary directory to remove), so that a process that
// must exit at once, as memprof does at a second interrupt, runs them
// first instead of skipping the deferred calls that would have.
package onexit

import (
	"maps"
	"slices"
	"sync"
)

// hooks are the cleanups added and not yet removed, by id; ran says Run
// has begun, after which Add runs its cleanup at once.
var hooks struct {
	mu   sync.Mutex
	next int
	fns  map[int]func()
	ran  bool
}

// Add keeps f until the returned remove is called (once the work that
// owed f has cleaned up after itself). A process about to exit runs f
// through Run; f must be safe to run while that work still runs. Once Run
// has run, Add runs f at once.
func Add(f func()) (remove func()) {
	hooks.mu.Lock()
	if hooks.ran {
		hooks.mu.Unlock()
		f()
		return func() {}
	}
	if hooks.fns == nil {
		hooks.fns = map[int]func(){}
	}
	id := hooks.next
	hooks.next++
	hooks.fns[id] = f
	hooks.mu.Unlock()
	return func() {
		hooks.mu.Lock()
		delete(hooks.fns, id)
		hooks.mu.Unlock()
	}
}

// Run runs every cleanup added and not removed, newest first, for a
// process about to exit; cleanups added after it run at once.
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
