//go:build !unix

package memprof

import "os"

// stopProcess does nothing: this system has no SIGSTOP, so the children
// of a run read their mark time side by side (measure with --jobs 1 for
// clean readings).
func stopProcess(*os.Process) error { return nil }

// continueProcess does nothing (see stopProcess).
func continueProcess(*os.Process) error { return nil }

// quietSupported says that the children of a run cannot be quieted here.
const quietSupported = false
