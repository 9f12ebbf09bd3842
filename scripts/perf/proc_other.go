//go:build !unix

package main

import "os/exec"

// ownGroup does nothing: this system has no process groups; a cancelled
// run kills cmd alone.
func ownGroup(*exec.Cmd) {}
