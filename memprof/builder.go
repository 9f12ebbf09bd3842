package memprof

// onShallowStack runs f on a goroutine of its own and returns when f has;
// a panic of f is raised again in the caller's goroutine. The profiled
// pass builds its instances there, on a stack that holds little more
// than the engine's constructor frames: at MemProfileRate 1 the runtime
// walks the whole stack of every allocation it records, frame by frame,
// so a constructor called deep in its caller's stack (a test, or the
// memprof command's child, some fifteen frames down) costs two to three
// times as much to profile as one called from a fresh goroutine. The
// attribution is the same: it looks for the engine's frames, which are
// on the new goroutine's stack.
func onShallowStack(f func()) {
	done := make(chan any)
	go func() { done <- recovered(f) }()
	if p := <-done; p != nil {
		panic(p)
	}
}

// recovered calls f and returns what it panicked with, or nil.
func recovered(f func()) (panicked any) {
	defer func() { panicked = recover() }()
	f()
	return nil
}
