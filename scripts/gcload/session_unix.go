//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// newSession makes cmd start in a session of its own (setsid).
func newSession(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
