package main

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"
)

// TestTreeRSS: the RSS the progress line shows is this process's and its
// children's: at least this process's own resident pages, and more with
// a child running.
func TestTreeRSS(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/<pid>/stat is Linux's")
	}
	_, own, ok := procStat(os.Getpid())
	if !ok {
		t.Fatal("cannot read this process's /proc stat")
	}
	alone, ok := treeRSS()
	if !ok || alone < own*uint64(os.Getpagesize()) {
		t.Fatalf("got %d, %v; want at least this process's %d pages", alone, ok, own)
	}
	child := exec.Command("sleep", "30")
	if err := child.Start(); err != nil {
		t.Skip("no sleep to run as a child:", err)
	}
	defer func() { _ = child.Process.Kill(); _ = child.Wait() }()
	for range 200 { // until the child has exec'd and has pages of its own
		_, pages, ok := procStat(child.Process.Pid)
		if ok && pages > 0 {
			// This process's pages are beside the child's (sleep's
			// resident pages do not change once it sleeps).
			if with, _ := treeRSS(); with <= pages*uint64(os.Getpagesize()) {
				t.Errorf("with a child of %d pages: got %d B, want more than the child's", pages, with)
			}
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Skip("the child never had resident pages")
}
