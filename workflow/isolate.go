package workflow

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
)

// The operations of an isolation group (suites.Op.Isolate) run in a child
// process of their own: the parent asks for the task opsTask with the
// group's operation keys and the timing options, and the child, which
// resolves the keys in the same registry, checks and times them as the
// parent does its own (checkOps, then MeasureThroughput, the group's
// operations of one type and name sampled alternately) and returns their
// rows. The parent has already run the agreement check.

// opsTask is the name of the task that times an isolation group.
const opsTask = "time-isolated-operations"

// opsRequest is the input of opsTask.
type opsRequest struct {
	Isolate     string        `json:"isolate"`
	Ops         []results.Key `json:"ops"`
	Samples     int           `json:"samples"`
	MinSampleNs time.Duration `json:"min_sample_ns"`
}

// opsResponse is what opsTask returns.
type opsResponse struct {
	Rows []results.ThroughputRow `json:"rows"`
}

// ChildTasks returns the tasks a program that runs the workflows on reg
// must serve when it is a measuring child (memprof.ServeChild's tasks):
// timing an isolation group of operations, and profiling where
// operations allocate (sites.go).
//
//	if memprof.ChildRequested() {
//		err := memprof.ServeChild(reg.LookupCase, workflow.ChildTasks(reg)...)
//		...
//	}
func ChildTasks(reg *suites.Registry) []memprof.Task {
	return ChildTasksOf(func() *suites.Registry { return reg })
}

// ChildTasksOf is ChildTasks on the registry reg returns, called only
// when one of the tasks runs: a child that measures a case (the usual
// request) never builds the registry.
func ChildTasksOf(reg func() *suites.Registry) []memprof.Task {
	lookupOp := func(name string) (func() error, error) { return reg().LookupOp(name) }
	return []memprof.Task{timeIsolatedTask(reg), memprof.OpSitesTask(sitesTask, lookupOp)}
}

// timeIsolatedTask is the task opsTask on the operations of the
// registry reg returns.
func timeIsolatedTask(registry func() *suites.Registry) memprof.Task {
	return memprof.Task{Name: opsTask, Run: func(ctx context.Context, in json.RawMessage) (any, error) {
		reg := registry()
		var req opsRequest
		if err := json.Unmarshal(in, &req); err != nil {
			return nil, fmt.Errorf("reading the request: %w", err)
		}
		var ops []suites.Op
		for _, k := range req.Ops {
			i := slices.IndexFunc(reg.Ops(), func(o suites.Op) bool { return o.Key == k.Normalize() })
			if i < 0 || reg.Ops()[i].Isolate != req.Isolate {
				return nil, fmt.Errorf("no operation %s of isolation group %q registered", k, req.Isolate)
			}
			ops = append(ops, reg.Ops()[i])
		}
		checked, err := checkOps(ops, nil)
		if err != nil {
			return nil, err
		}
		rows, err := checked.time(ctx, memprof.ThroughputOptions{Samples: req.Samples, MinSample: req.MinSampleNs}, nil)
		if err != nil {
			return nil, err
		}
		return opsResponse{Rows: append(checked.failed, rows...)}, nil
	}}
}

// timeIsolated checks and times ops, the isolation group isolate, in a
// child process (see opsTask) and returns their rows. The error says why
// the child could not: it crashed, it was interrupted.
func timeIsolated(ctx context.Context, child memprof.Child, isolate string, ops []suites.Op, to memprof.ThroughputOptions) ([]results.ThroughputRow, error) {
	req := opsRequest{Isolate: isolate, Samples: to.Samples, MinSampleNs: to.MinSample}
	for _, o := range ops {
		req.Ops = append(req.Ops, o.Key)
	}
	var resp opsResponse
	if err := memprof.RunInChild(ctx, child, opsTask, req, &resp); err != nil {
		return nil, fmt.Errorf("operations of %s, in their own process: %w", isolate, err)
	}
	if len(resp.Rows) != len(ops) {
		return nil, fmt.Errorf("operations of %s, in their own process: got %d rows for %d operations", isolate, len(resp.Rows), len(ops))
	}
	return resp.Rows, nil
}

// failedRows are the rows of ops that could not be timed, for err.
func failedRows(ops []suites.Op, err error) []results.ThroughputRow {
	var out []results.ThroughputRow
	for _, o := range ops {
		out = append(out, results.ThroughputRow{Key: o.Key, Note: o.Note, Error: err.Error()})
	}
	return out
}
