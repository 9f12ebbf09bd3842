package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/memprof/memprof/cmd/memprof/internal/interrupt"
	"github.com/memprof/memprof/internal/testfs"
)

// lookCounter is a context that is done from its limit-th look on (a
// call of Err), or never when limit is 0, and counts the looks: a test
// interrupts a command at any point of its work, reading, rendering or
// writing, without depending on how fast the machine is.
type lookCounter struct {
	context.Context // for Value and Deadline
	mu              sync.Mutex
	looks, limit    int
	done            chan struct{}
}

func newLookCounter(limit int) *lookCounter {
	return &lookCounter{Context: context.Background(), limit: limit, done: make(chan struct{})}
}

func (c *lookCounter) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.looks++
	if c.limit > 0 && c.looks >= c.limit {
		if c.looks == c.limit {
			close(c.done)
		}
		return context.Canceled
	}
	return nil
}

func (c *lookCounter) Done() <-chan struct{} { return c.done }

// count returns the looks so far.
func (c *lookCounter) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.looks
}

// resultsCommandsOutputs are the results commands with the output each
// writes: -o FILE or --out DIR in dir.
func interruptedResultsArgs(f resultsFiles, out, review string) map[string][]string {
	return map[string][]string{
		"check":          {"check", "--results", f.results, "--budgets", f.budgets, "-o", out},
		"check --update": {"check", "--update", "--results", f.results, "--budgets", f.budgets},
		"compare":        {"compare", f.results, f.results, "-o", out},
		"export":         {"export", "--to", "bencher", f.results, "-o", out},
		"report --from":  {"report", "--from", f.results, "--from", f.results, "--out", review},
		"list":           {"list"},
	}
}

// TestInterruptResultsCommands interrupts each command that reads results
// files at points spread over its whole work (its first look at the
// context, while it reads, renders and writes, and its last look) and
// checks that it stops: exit 130, "memprof: interrupted" last on stderr,
// and each output (stdout, the -o file, the budgets file, --out) either
// as it was before or, when the interrupt came after it was written,
// whole: never half written. Interrupted in its first half, it has
// written nothing. The commands must look at the context all along: at
// least once per few rows.
func TestInterruptResultsCommands(t *testing.T) {
	t.Parallel() // changes no environment, directory or package variable; measures, if at all, in children
	const rows = 1000
	f := writeResultsFiles(t, t.TempDir(), rows)
	budgets, err := os.ReadFile(f.budgets)
	if err != nil {
		t.Fatal(err)
	}
	out, review := filepath.Join(f.dir, "out"), filepath.Join(f.dir, "review")
	for name, args := range interruptedResultsArgs(f, out, review) {
		t.Run(name, func(t *testing.T) {
			reset := func() {
				testfs.WriteFile(t, out, earlier, 0o644)
				testfs.WriteFile(t, f.budgets, string(budgets), 0o644)
				os.RemoveAll(review)
			}
			// The whole command, and how often it looks.
			reset()
			all := newLookCounter(0)
			var stdout, stderr lockedBuffer
			if code := run(all, args, &stdout, &stderr); code != exitOK && code != exitFailure {
				t.Fatalf("uninterrupted: exit %d: %s", code, clip(stderr.String()))
			}
			whole := outputs{stdout.String(), readFile(t, out), readFile(t, f.budgets), readFile(t, filepath.Join(review, "README.md"))}
			before := outputs{"", earlier, string(budgets), ""}
			total := all.count()
			if name != "list" && total < rows/4 {
				t.Errorf("the command looked at its context %d times for %d rows, want at least one look per 4 rows", total, rows)
			}
			for _, at := range []int{1, total / 4, total / 2, total * 9 / 10, total - 1} {
				if at < 1 {
					continue
				}
				reset()
				var stdout, stderr lockedBuffer
				code := run(newLookCounter(at), args, &stdout, &stderr)
				if code != 128+int(syscall.SIGINT) {
					t.Errorf("interrupted at look %d of %d: exit %d, want 130; stderr %s", at, total, code, clip(stderr.String()))
				}
				if got := stderr.String(); !strings.HasSuffix(got, interruptLine) {
					t.Errorf("interrupted at look %d of %d: stderr %q, want it to end with %q", at, total, clip(got), interruptLine)
				}
				got := outputs{stdout.String(), readFile(t, out), readFile(t, f.budgets), readFile(t, filepath.Join(review, "README.md"))}
				for i, what := range []string{"stdout", "the -o file", "the budgets file", "--out"} {
					if got[i] != before[i] && (got[i] != whole[i] || at <= total/2) {
						t.Errorf("interrupted at look %d of %d: %s is %q, want it as before (%q) or, late, whole", at, total, what, clip(got[i]), clip(before[i]))
					}
				}
				if leftovers, _ := filepath.Glob(filepath.Join(f.dir, ".*")); len(leftovers) > 0 {
					t.Errorf("interrupted at look %d of %d: left %v", at, total, leftovers)
				}
			}
		})
	}
}

// outputs are what a command wrote: stdout, the -o file, the budgets
// file, the review's README.
type outputs [4]string

// readFile returns the file's content, "" when it does not exist.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

// TestInterruptResultsCommandsDeadline interrupts each results command,
// by a real cancel of its context, while it works on a file of a fifth of
// the row limit, and checks that it stops within a generous deadline (not that
// it is fast: that it looks at the interrupt at all).
func TestInterruptResultsCommandsDeadline(t *testing.T) {
	t.Parallel() // changes no environment, directory or package variable
	if testing.Short() {
		t.Skip("writes a results file of 10,000 rows")
	}
	f := writeResultsFiles(t, t.TempDir(), 10000)
	for name, args := range interruptedResultsArgs(f, filepath.Join(f.dir, "out"), filepath.Join(f.dir, "review")) {
		if name == "list" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			var stdout, stderr lockedBuffer
			done := make(chan int, 1)
			go func() { done <- run(ctx, args, &stdout, &stderr) }()
			time.Sleep(50 * time.Millisecond) // into its work, most likely; anywhere will do
			cancel(interrupt.Cause{Signal: syscall.SIGTERM})
			select {
			case code := <-done:
				if code != exitOK && code != exitFailure && code != 128+int(syscall.SIGTERM) {
					t.Errorf("exit %d, want 143 (or the exit of a command that ended first)", code)
				}
			case <-time.After(time.Minute):
				t.Fatalf("%s did not stop within a minute of the interrupt", name)
			}
		})
	}
}

// clip shortens s for a message.
func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}
