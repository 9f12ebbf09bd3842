package memprof

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/memprof/memprof/internal/atomicfile"
)

// ChildEnv is the environment variable through which MeasureInChild tells a
// re-executed binary which case to measure. Its value is a JSON request.
const ChildEnv = "MEMPROF_CHILD"

type childRequest struct {
	Case    string `json:"case,omitempty"`
	N       int    `json:"n,omitempty"`
	Warmup  int    `json:"warmup,omitempty"`
	Out     string `json:"out"`
	Profile string `json:"profile,omitempty"`
	// Task and Input ask for a Task instead of a case (see task.go).
	Task  string          `json:"task,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
}

// ChildRequested reports whether this process was started by
// MeasureInChild and should call ServeChild instead of doing its usual
// work. A program that measures in children (the memprof CLI, or a test
// binary's TestMain) checks it first thing:
//
//	func TestMain(m *testing.M) {
//		if memprof.ChildRequested() {
//			if err := memprof.ServeChild(lookup); err != nil {
//				fmt.Fprintln(os.Stderr, err)
//				os.Exit(1)
//			}
//			os.Exit(0)
//		}
//		os.Exit(m.Run())
//	}
func ChildRequested() bool { return os.Getenv(ChildEnv) != "" }

// ServeChild measures the case the parent asked for, found with lookup, and
// writes the Result where the parent reads it. It measures with Measure, in
// this fresh process, so no other case has touched its heap or profile.
//
// A request for a task (RunInChild) is served by the task of that name
// among tasks; a program that runs no tasks in children passes none.
func ServeChild(lookup func(name string) (Case, error), tasks ...Task) error {
	var req childRequest
	if err := json.Unmarshal([]byte(os.Getenv(ChildEnv)), &req); err != nil {
		return fmt.Errorf("reading %s request: %w", ChildEnv, err)
	}
	if req.Task != "" {
		return serveTask(req, tasks)
	}
	c, err := lookup(req.Case)
	if err != nil {
		return err
	}
	opts := []Option{N(req.N), func(o *Options) { o.wholeProcess = true }}
	if req.Warmup >= 0 {
		opts = append(opts, Warmup(req.Warmup))
	}
	var prof bytes.Buffer
	if req.Profile != "" {
		opts = append(opts, KeepProfile(&prof))
	}
	r, err := Measure(c, opts...)
	if err != nil {
		return err
	}
	if req.Profile != "" {
		// The name is the parent's, in a directory it was given: never
		// written through a link planted there.
		if err := atomicfile.WriteFileNoFollow(req.Profile, prof.Bytes(), 0o644); err != nil {
			return fmt.Errorf("keeping heap profile: %w", err)
		}
	}
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(req.Out, b, 0o644)
}

// Child says how to start a fresh copy of the measuring program.
type Child struct {
	// Path is the executable; default os.Executable().
	Path string
	// Args are passed to it (for a test binary, "-test.run=^$" keeps it
	// from running tests before TestMain serves the request).
	Args []string
	// Env is added to the current environment.
	Env []string
	// Quiet is ignored.
	//
	// Deprecated: children no longer stop each other (see Quiet).
	Quiet *Quiet
}

// childWaitDelay bounds the wait for a killed child's output to close.
const childWaitDelay = 5 * time.Second

// MaxChildStderr bounds how much of a failing child's stderr is kept in the
// error.
const MaxChildStderr = 8 << 10

// MeasureInChild measures the case called name in a fresh child process
// (see ChildRequested), so that cases cannot pollute each other's heap and
// profile buckets. A crash, an out-of-memory kill or an error in the child
// is returned as an error carrying the end of the child's stderr.
// profilePath, if not empty, receives the raw heap profile.
//
// When ctx is done the child is killed (or not started), its temporary
// directory is removed, and the error wraps context.Cause(ctx).
func MeasureInChild(ctx context.Context, child Child, name string, profilePath string, opts ...Option) (*Result, error) {
	o := buildOptions(opts)
	if o.N <= 0 {
		return nil, fmt.Errorf("case %s: N must be positive, got %d", name, o.N)
	}
	b, err := runChild(ctx, child, "case "+name, childRequest{Case: name, N: o.N, Warmup: o.Warmup, Profile: profilePath})
	if err != nil {
		return nil, err
	}
	var r Result
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("case %s: reading child result: %w", name, err)
	}
	return &r, nil
}

// runChild starts the child program with the request req (its Out set to a file in a
// temporary directory, removed on return), waits for it and returns what
// it wrote to Out. what names the request in errors ("case X", "task Y").
func runChild(ctx context.Context, child Child, what string, req childRequest) ([]byte, error) {
	exe := child.Path
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("finding own executable: %w", err)
		}
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%s: %w", what, context.Cause(ctx))
	}
	dir, err := os.MkdirTemp("", "memprof-child-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	req.Out = filepath.Join(dir, "result.json")
	rb, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	cmd := exec.CommandContext(ctx, exe, child.Args...)
	cmd.Env = append(append(os.Environ(), child.Env...), ChildEnv+"="+string(rb))
	var stderr tailBuffer
	cmd.Stderr = &stderr
	cmd.Stdout = &stderr
	// A killed child's descendants could hold its output open: do not
	// wait for them long.
	cmd.WaitDelay = childWaitDelay
	runErr := cmd.Run()
	if runErr != nil && ctx.Err() != nil {
		// Cancelled: the child was killed (and its directory goes with
		// the deferred RemoveAll); say why, not "signal: killed".
		return nil, fmt.Errorf("%s: %w", what, context.Cause(ctx))
	}
	if runErr != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = "(no output)"
		}
		return nil, fmt.Errorf("%s: child process failed (%v): %s", what, runErr, msg)
	}
	b, err := os.ReadFile(req.Out)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s: child process wrote no result (does the program call ServeChild when ChildRequested?)", what)
		}
		return nil, err
	}
	return b, nil
}

// tailBuffer keeps the last MaxChildStderr bytes written to it.
type tailBuffer struct{ b []byte }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > MaxChildStderr {
		t.b = append(t.b[:0], t.b[len(t.b)-MaxChildStderr:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string { return string(t.b) }
