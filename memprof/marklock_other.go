//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package memprof

import "os"

// lockFile does nothing: this system has no flock, so child processes
// run at once take their mark readings side by side (measure with
// --jobs 1 for clean ones).
func lockFile(*os.File, bool) error { return nil }
