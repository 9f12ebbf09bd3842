//go:build !unix

package main

import "os/exec"

// newSession does nothing: this system has no sessions to start a
// process in.
func newSession(*exec.Cmd) {}
