package memprof

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
)

// testTasks are the tasks a child process of this test binary serves.
var testTasks = []Task{
	{Name: "double", Run: func(_ context.Context, in json.RawMessage) (any, error) {
		var v struct{ N int }
		if err := json.Unmarshal(in, &v); err != nil {
			return nil, err
		}
		// The task runs in a child: its process id is not the parent's.
		return map[string]int{"n": 2 * v.N, "pid": os.Getpid()}, nil
	}},
	{Name: "fail", Run: func(context.Context, json.RawMessage) (any, error) {
		return nil, errors.New("the library refused")
	}},
	{Name: "record-sizes", Run: recordSizes},
	{Name: "scan-truth", Run: scanTruthTask},
	{Name: "scan-rule", Run: scanRuleTask},
}

func TestRunInChild(t *testing.T) {
	var out struct{ N, Pid int }
	if err := RunInChild(context.Background(), Child{Args: []string{"-test.run=^$"}}, "double", struct{ N int }{21}, &out); err != nil {
		t.Fatal(err)
	}
	if out.N != 42 {
		t.Errorf("got %d, want 42", out.N)
	}
	if out.Pid == os.Getpid() || out.Pid == 0 {
		t.Errorf("task ran in process %d, want a child of %d", out.Pid, os.Getpid())
	}
}

func TestRunInChildFails(t *testing.T) {
	tests := []struct {
		task string
		want []string
	}{
		{"fail", []string{"task fail", "the library refused"}},
		{"nosuch", []string{`no task "nosuch" served here`, "double", "fail"}},
	}
	for _, tt := range tests {
		t.Run(tt.task, func(t *testing.T) {
			var out any
			err := RunInChild(context.Background(), Child{Args: []string{"-test.run=^$"}}, tt.task, nil, &out)
			if err == nil {
				t.Fatal("got no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("got %q, want it to contain %q", err, w)
				}
			}
		})
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cause := errors.New("stopped")
	cancel(cause)
	var out any
	if err := RunInChild(ctx, Child{Args: []string{"-test.run=^$"}}, "double", nil, &out); !errors.Is(err, cause) {
		t.Errorf("cancelled: got %v, want an error wrapping %q", err, cause)
	}
}
