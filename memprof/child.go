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
	"slices"
	"strings"
	"time"

	"github.com/memprof/memprof/internal/atomicfile"
	"github.com/memprof/memprof/internal/onexit"
)

// killWait bounds how long a process exiting at a second interrupt waits
// for the child it killed to be gone.
const killWait = 5 * time.Second

// ChildEnv is the environment variable through which a parent tells a
// re-executed copy of itself what to do (MeasureInChild, RunInChild). Its
// value is a JSON request (childRequest).
const ChildEnv = "MEMPROF_CHILD"

// childRequest is the one request of the child protocol: run the task
// called Task on Input and write its result, as JSON, to Out. Measuring
// a case is the task every child serves (caseTask, MeasureInChild); the
// others are the program's own (Task, RunInChild), allocation sites
// among them (OpSitesTask, OpSitesInChild).
type childRequest struct {
	Task  string          `json:"task"`
	Input json.RawMessage `json:"input,omitempty"`
	Out   string          `json:"out"`
}

// caseTask is the name of the task that measures a case in a child:
// served by every ServeChild, with the lookup it is given.
const caseTask = "memprof.case"

// caseInput is the input of caseTask: the case's name, N, the warm-up
// and where to keep the raw heap profile (no profile if empty).
type caseInput struct {
	Case    string `json:"case"`
	N       int    `json:"n,omitempty"`
	Warmup  int    `json:"warmup,omitempty"`
	Profile string `json:"profile,omitempty"`
}

// ChildRequested reports whether this process was started by
// MeasureInChild or RunInChild and should call ServeChild instead of
// doing its usual work. A program that measures in children (the memprof
// CLI, or a test binary's TestMain) checks it first thing:
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

// ServeChild runs the task the parent asked for and writes its result
// where the parent reads it: a case's measurement (MeasureInChild), the
// case found with lookup and measured with Measure, in this fresh
// process, so no other case has touched its heap or profile; or the task
// of that name among tasks (RunInChild). A program that runs no tasks in
// children passes none.
func ServeChild(lookup func(name string) (Case, error), tasks ...Task) error {
	var req childRequest
	if err := json.Unmarshal([]byte(os.Getenv(ChildEnv)), &req); err != nil {
		return fmt.Errorf("reading %s request: %w", ChildEnv, err)
	}
	return serveTask(req, append([]Task{measureTask(lookup), allocProbeTask(lookup)}, tasks...))
}

// serveTask runs the task req asks for, among tasks, and writes its
// result where the parent reads it. A task's error says which task; a
// case's is the case's own (the parent's error names the case).
func serveTask(req childRequest, tasks []Task) error {
	i := slices.IndexFunc(tasks, func(t Task) bool { return t.Name == req.Task })
	if i < 0 {
		var names []string
		for _, t := range tasks {
			names = append(names, t.Name)
		}
		return fmt.Errorf("no task %q served here (tasks: %v)", req.Task, names)
	}
	out, err := tasks[i].Run(context.Background(), req.Input)
	if err != nil && req.Task == caseTask {
		return err
	}
	if err != nil {
		return fmt.Errorf("task %s: %w", req.Task, err)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return fmt.Errorf("task %s: result: %w", req.Task, err)
	}
	return atomicfile.WriteFile(req.Out, b, 0o644)
}

// measureTask is caseTask: it measures the case lookup finds with
// Measure, as the whole process, and keeps the heap profile where the
// input asks.
func measureTask(lookup func(name string) (Case, error)) Task {
	return Task{Name: caseTask, Run: func(_ context.Context, in json.RawMessage) (any, error) {
		var req caseInput
		if err := json.Unmarshal(in, &req); err != nil {
			return nil, fmt.Errorf("reading %s request: %w", ChildEnv, err)
		}
		c, err := lookup(req.Case)
		if err != nil {
			return nil, err
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
			return nil, err
		}
		if req.Profile != "" {
			// The name is the parent's, in a directory it was given: never
			// written through a link planted there.
			if err := atomicfile.WriteFileNoFollow(req.Profile, prof.Bytes(), 0o644); err != nil {
				return nil, fmt.Errorf("keeping heap profile: %w", err)
			}
		}
		return r, nil
	}}
}

// Task is work other than a case's measurement that a parent runs in a
// fresh copy of itself, through the same child protocol as MeasureInChild
// (ChildRequested, ServeChild): for instance operations of a library that
// allows one context per process, timed in a process of their own. Run
// receives the input the parent gave RunInChild, as JSON, and returns the
// value the parent receives, marshalled as JSON.
type Task struct {
	Name string
	Run  func(ctx context.Context, input json.RawMessage) (any, error)
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
	var r Result
	if err := runTask(ctx, child, "case "+name, caseTask, caseInput{Case: name, N: o.N, Warmup: o.Warmup, Profile: profilePath}, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// RunInChild runs the task called name in a fresh child process (see
// ChildRequested; the child must serve it with ServeChild, given the same
// Task), sending input marshalled as JSON and decoding the task's result
// into out, a pointer. A crash or an error in the child is returned as an
// error carrying the end of its stderr; when ctx is done the child is
// killed and the error wraps context.Cause(ctx).
func RunInChild(ctx context.Context, child Child, name string, input, out any) error {
	return runTask(ctx, child, "task "+name, name, input, out)
}

// runTask runs task in a child started as child says, on input
// marshalled as JSON, and decodes its result into out. what names the
// request in errors ("case X", "task Y").
func runTask(ctx context.Context, child Child, what, task string, input, out any) error {
	in, err := json.Marshal(input)
	if err != nil {
		return fmt.Errorf("%s: input: %w", what, err)
	}
	b, err := runChild(ctx, child, what, childRequest{Task: task, Input: in})
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("%s: reading child result: %w", what, err)
	}
	return nil
}

// runChild starts the child program with the request req (its Out set to
// a file in a temporary directory, removed on return), waits for it and
// returns what it wrote to Out. what names the request in errors ("case
// X", "task Y").
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
	// A process that must exit before this returns (a second interrupt)
	// removes dir and kills the child through onexit.Run; both are made
	// through onexit.Owe, so that neither can come between that Run and
	// the exit.
	dir, removeDir, err := onexit.MkdirTemp("", "memprof-child-*")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer removeDir()
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
	removeChild, runErr := onexit.Owe(func() (func(), error) {
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		p := cmd.Process
		return func() {
			p.Kill()
			// Gone, not only signalled, before this process exits and
			// before dir goes: a loaded machine may run the killed child
			// a while longer (whichever Wait reaps it, both return).
			exited := make(chan struct{})
			go func() { p.Wait(); close(exited) }()
			select {
			case <-exited:
			case <-time.After(killWait):
			}
		}, nil
	})
	if runErr == nil {
		runErr = cmd.Wait()
		removeChild()
	}
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
