//go:build unix

package memprof

import (
	"os"
	"syscall"
)

// stopProcess stops p (SIGSTOP). os.Process signals through a pidfd where
// the system has one, so a reaped child's number reused by another process
// is never signalled.
func stopProcess(p *os.Process) error { return p.Signal(syscall.SIGSTOP) }

// continueProcess continues p (SIGCONT).
func continueProcess(p *os.Process) error { return p.Signal(syscall.SIGCONT) }

// quietSupported says that the children of a run can be quieted here.
const quietSupported = true
