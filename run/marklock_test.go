package run

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/model"
)

// TestInstancesShareAMarkLock: every child of one run is given the same
// mark lock, a file in a temporary directory of the run's own, removed
// when the run ends; the children of another run get another.
func TestInstancesShareAMarkLock(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	// A child that records the request it was given and fails.
	child := memprof.Child{Path: sh, Args: []string{"-c", `printf '%s\n' "$` + memprof.ChildEnv + `" >> "$REQUESTS"; exit 3`}}
	var locks []string
	for run := range 2 {
		requests := filepath.Join(dir, "requests"+string(rune('0'+run)))
		child.Env = []string{"REQUESTS=" + requests}
		sel := Selection{Types: []model.Type{model.G1}}
		if _, err := Instances(context.Background(), testRegistry(), sel, Options{N: 10, Jobs: 2, Child: child}); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(requests)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		if len(lines) != 2 {
			t.Fatalf("run %d: got %d child requests, want 2 (the measurable G1 cases)", run, len(lines))
		}
		var lock string
		for _, l := range lines {
			var req struct {
				MarkLock string `json:"mark_lock"`
			}
			if err := json.Unmarshal([]byte(l), &req); err != nil {
				t.Fatal(err)
			}
			if req.MarkLock == "" || (lock != "" && req.MarkLock != lock) {
				t.Fatalf("run %d: children given mark locks %q and %q, want one, the same", run, lock, req.MarkLock)
			}
			lock = req.MarkLock
		}
		if _, err := os.Stat(filepath.Dir(lock)); !os.IsNotExist(err) {
			t.Errorf("run %d: the mark lock's directory %s: got %v after the run, want it removed", run, filepath.Dir(lock), err)
		}
		locks = append(locks, lock)
	}
	if locks[0] == locks[1] {
		t.Errorf("two runs shared the mark lock %s", locks[0])
	}
}

// TestNForFixed: an entry with a fixed N (an LRU at a population its
// parameter names) is measured at it, whatever N the options give.
func TestNForFixed(t *testing.T) {
	fixed := testRegistry().Entries()[0]
	fixed.FixedN, fixed.DefaultN = 100_000, 1_000_000
	for _, n := range []int{0, 1234} {
		if got := (Options{N: n}).nFor(fixed); got != fixed.FixedN {
			t.Errorf("options N %d: got N %d, want the entry's fixed %d", n, got, fixed.FixedN)
		}
	}
}
