package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// TestTreePages: the sum covers a process and every process below it,
// children and grandchildren, and none beside or above it; a command
// holding spaces and parentheses does not shift the fields; entries that
// are not processes, or whose stat is cut short, are skipped.
func TestTreePages(t *testing.T) {
	root := t.TempDir()
	stat := func(pid, ppid int, comm string, pages uint64) {
		// Fields 3..24 of /proc/<pid>/stat: state, ppid, then 19 fields
		// this code does not read, then rss.
		line := fmt.Sprintf("%d (%s) S %d", pid, comm, ppid)
		for range 19 {
			line += " 0"
		}
		line += " " + strconv.FormatUint(pages, 10) + " 18446744073709551615\n"
		dir := filepath.Join(root, strconv.Itoa(pid))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "stat"), []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stat(1, 0, "init", 1000)
	stat(10, 1, "memprof", 300)     // self
	stat(11, 10, "child (a) b", 40) // child, command with ") "
	stat(12, 11, "grandchild", 5)   // grandchild
	stat(13, 1, "neighbour", 7000)  // beside self
	stat(14, 13, "not ours", 9000)  // below a neighbour
	if err := os.MkdirAll(filepath.Join(root, "self"), 0o755); err != nil {
		t.Fatal(err)
	}
	short := filepath.Join(root, "15")
	if err := os.MkdirAll(short, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(short, "stat"), []byte("15 (cut) S 10 0"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		self int
		want uint64
		ok   bool
	}{
		{10, 300 + 40 + 5, true},
		{11, 40 + 5, true},
		{12, 5, true},
		{13, 7000 + 9000, true},
		{99, 0, false}, // not listed
	} {
		if got, ok := treePages(root, c.self); got != c.want || ok != c.ok {
			t.Errorf("treePages(self %d) = %d, %v; want %d, %v", c.self, got, ok, c.want, c.ok)
		}
	}
	if _, ok := treePages(filepath.Join(root, "absent"), 10); ok {
		t.Error("treePages of a missing root: ok")
	}
}

// TestTreeRSS: on this machine's /proc, a running child's pages are
// counted beside this process's own. (This process's own figure is not
// compared with a separate reading: the scavenger may return pages
// between two readings; TestTreePages proves the sum.)
func TestTreeRSS(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/<pid>/stat is Linux's")
	}
	if alone, ok := treeRSS(); !ok || alone == 0 {
		t.Fatalf("got %d, %v; want this process's resident bytes", alone, ok)
	}
	child := exec.Command("sleep", "30")
	if err := child.Start(); err != nil {
		t.Skip("no sleep to run as a child:", err)
	}
	defer func() { _ = child.Process.Kill(); _ = child.Wait() }()
	for range 200 { // until the child has exec'd and has pages of its own
		_, pages, ok := procStat("/proc", child.Process.Pid)
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
