package memprof

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/memprof/memprof/internal/atomicfile"
)

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

// RunInChild runs the task called name in a fresh child process (see
// ChildRequested; the child must serve it with ServeChild, given the same
// Task), sending input marshalled as JSON and decoding the task's result
// into out, a pointer. A crash or an error in the child is returned as an
// error carrying the end of its stderr; when ctx is done the child is
// killed and the error wraps context.Cause(ctx).
func RunInChild(ctx context.Context, child Child, name string, input, out any) error {
	in, err := json.Marshal(input)
	if err != nil {
		return fmt.Errorf("task %s: input: %w", name, err)
	}
	b, err := runChild(ctx, child, "task "+name, childRequest{Task: name, Input: in})
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("task %s: reading child result: %w", name, err)
	}
	return nil
}

// serveTask runs the task req asks for, among tasks, and writes its
// result where the parent reads it.
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
	if err != nil {
		return fmt.Errorf("task %s: %w", req.Task, err)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return fmt.Errorf("task %s: result: %w", req.Task, err)
	}
	return atomicfile.WriteFile(req.Out, b, 0o644)
}
