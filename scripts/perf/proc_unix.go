//go:build unix

package main

import (
	"os/exec"
	"syscall"
	"time"
)

// ownGroup starts cmd in a process group of its own and, when the run is
// cancelled, interrupts the whole group (go test's test binaries, memprof's
// children), then kills cmd if it has not stopped within a few seconds.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) }
	cmd.WaitDelay = 10 * time.Second
}
