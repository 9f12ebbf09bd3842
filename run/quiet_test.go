package run

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/model"
)

// TestInstancesQuietChildren: every child of a run is asked to request
// quiet for its mark readings (its parent stops the others meanwhile).
func TestInstancesQuietChildren(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	requests := t.TempDir() + string(os.PathSeparator) + "requests"
	// A child that records the request it was given and fails.
	child := memprof.Child{Path: sh, Args: []string{"-c", `printf '%s\n' "$` + memprof.ChildEnv + `" >> "$REQUESTS"; exit 3`},
		Env: []string{"REQUESTS=" + requests}}
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
		t.Fatalf("got %d child requests, want 2 (the measurable G1 cases)", len(lines))
	}
	for _, l := range lines {
		var req struct {
			Quiet bool `json:"quiet"`
		}
		if err := json.Unmarshal([]byte(l), &req); err != nil {
			t.Fatal(err)
		}
		if !req.Quiet {
			t.Errorf("child request %s: want quiet set", l)
		}
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
