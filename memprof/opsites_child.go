package memprof

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Allocation sites in a child process go through the child protocol's
// tasks (Task, RunInChild): the parent names operations by the names the
// child's lookup resolves (the memprof command uses results.Key.BenchName)
// and the child, which serves OpSitesTask, profiles them one after another
// in its fresh process (ProfileOpSites).

// opSitesInput is the input of an OpSitesTask: the operations, and the
// group each belongs to (the operations compared with one another), which
// shares the extra time for more calls (OpSiteOptions.ExtraTime).
type opSitesInput struct {
	Ops       []string      `json:"ops"`
	Groups    []string      `json:"groups,omitempty"`
	Calls     int           `json:"calls,omitempty"`
	ExtraTime time.Duration `json:"extra_time_ns,omitempty"`
}

// opSitesOutcome is what an OpSitesTask returns for one operation.
type opSitesOutcome struct {
	Name  string   `json:"name"`
	Sites *OpSites `json:"sites,omitempty"`
	Error string   `json:"error,omitempty"`
}

// OpSitesResult is where one operation allocates, or why it could not be
// profiled.
type OpSitesResult struct {
	Name  string
	Sites *OpSites
	Err   error
}

// OpSitesTask is the task, called name, that a child serves (ServeChild's
// tasks) for OpSitesInChild: it finds each operation the parent names with
// lookup, which returns the prepared call to run, and profiles where it
// allocates (ProfileOpSites). An operation lookup cannot find or prepare,
// or that fails, has its error; the others are profiled.
func OpSitesTask(name string, lookup func(name string) (func() error, error)) Task {
	return Task{Name: name, Run: func(_ context.Context, in json.RawMessage) (any, error) {
		var req opSitesInput
		if err := json.Unmarshal(in, &req); err != nil {
			return nil, fmt.Errorf("reading the request: %w", err)
		}
		out := make([]opSitesOutcome, 0, len(req.Ops))
		left := map[string]time.Duration{} // each group's extra time left
		for i, op := range req.Ops {
			r := opSitesOutcome{Name: op}
			group := op
			if i < len(req.Groups) {
				group = req.Groups[i]
			}
			if _, ok := left[group]; !ok {
				left[group] = req.ExtraTime
			}
			run, err := lookup(op)
			if err == nil {
				r.Sites, err = ProfileOpSites(run, OpSiteOptions{Calls: req.Calls, ExtraTime: left[group]})
			}
			if r.Sites != nil {
				left[group] -= r.Sites.Extra
			}
			if err != nil {
				r.Error = fmt.Sprintf("%s: %v", op, err)
			}
			out = append(out, r)
		}
		return out, nil
	}}
}

// OpSitesInChild profiles where each named operation allocates
// (ProfileOpSites), one after another in one fresh child process started
// as child says, which serves OpSitesTask under the name task; it returns
// one result per name, in order. groups, if not nil, names each
// operation's group (the operations compared with one another): the
// operations of a group share o.ExtraTime for more calls where their
// repeats do not agree; without groups each operation is a group of its
// own. An operation the child cannot find, prepare or run has its Err;
// the others are profiled. The error return is for a child that failed
// as a whole (a crash: its stderr's end is in the error) or ctx being
// done.
func OpSitesInChild(ctx context.Context, child Child, task string, names, groups []string, o OpSiteOptions) ([]OpSitesResult, error) {
	if o.Calls < 0 {
		return nil, fmt.Errorf("profiling allocation sites: calls must be positive, or 0 to choose, got %d", o.Calls)
	}
	if groups != nil && len(groups) != len(names) {
		return nil, fmt.Errorf("profiling allocation sites: %d groups for %d operations", len(groups), len(names))
	}
	var rep []opSitesOutcome
	if err := RunInChild(ctx, child, task, opSitesInput{Ops: names, Groups: groups, Calls: o.Calls, ExtraTime: o.ExtraTime}, &rep); err != nil {
		return nil, fmt.Errorf("allocation sites: %w", err)
	}
	if len(rep) != len(names) {
		return nil, fmt.Errorf("allocation sites: the child answered for %d operations, want %d", len(rep), len(names))
	}
	out := make([]OpSitesResult, len(rep))
	for i, r := range rep {
		out[i] = OpSitesResult{Name: r.Name, Sites: r.Sites}
		switch {
		case r.Name != names[i]:
			return nil, fmt.Errorf("allocation sites: the child answered for %q at %d, want %q", r.Name, i, names[i])
		case r.Error != "":
			out[i].Err = errors.New(r.Error)
		case r.Sites == nil:
			out[i].Err = fmt.Errorf("%s: the child returned no sites", r.Name)
		}
	}
	return out, nil
}
