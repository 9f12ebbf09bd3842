package memprof

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/memprof/memprof/internal/atomicfile"
	"github.com/memprof/memprof/model"
)

// Operations in a child process. The parent names operations by the
// names its child's Lookups.Op resolves (the memprof command passes
// model.Key.BenchName), and asks for one of two tasks: where each
// allocates (OpSitesInChild, ProfileOpSites in the child, one operation
// after another in one fresh process), or their timing
// (ThroughputInChild, MeasureThroughput in the child: for operations
// that must not share a process with the others, such as a library with
// one global state per process).

// opRequest is the part of a child request that asks for operations.
type opRequest struct {
	// Task is "sites" or "timing".
	Task string `json:"task"`
	// Groups are the operations' names; for sites, one group.
	Groups [][]string `json:"groups"`
	Calls  int        `json:"calls,omitempty"`
	// Samples and MinSample are the ThroughputOptions of a timing.
	Samples   int           `json:"samples,omitempty"`
	MinSample time.Duration `json:"min_sample,omitempty"`
}

// The tasks of an opRequest.
const (
	taskSites  = "sites"
	taskTiming = "timing"
)

// opReply is what the child writes for an opRequest: one entry per
// operation, in the order asked.
type opReply struct {
	Ops []opOutcome `json:"ops"`
}

type opOutcome struct {
	Name   string        `json:"name"`
	Sites  *OpSites      `json:"sites,omitempty"`
	Timing *model.Timing `json:"timing,omitempty"`
	Note   string        `json:"note,omitempty"`
	Error  string        `json:"error,omitempty"`
}

// OpSitesResult is where one operation allocates, or why it could not be
// profiled.
type OpSitesResult struct {
	Name  string
	Sites *OpSites
	Err   error
}

// OpSitesInChild profiles where each named operation allocates
// (ProfileOpSites), one after another in one fresh child process started
// as Child says, and returns one result per name, in order. An operation
// the child cannot find, prepare or run has its Err; the others are
// profiled. The error return is for a child that failed as a whole (a
// crash: its stderr's end is in the error) or ctx being done.
func OpSitesInChild(ctx context.Context, child Child, names []string, o OpSiteOptions) ([]OpSitesResult, error) {
	if o.Calls < 0 {
		return nil, fmt.Errorf("profiling allocation sites: calls must be positive, or 0 to choose, got %d", o.Calls)
	}
	rep, err := askOps(ctx, child, "allocation sites", &opRequest{Task: taskSites, Groups: [][]string{names}, Calls: o.Calls}, len(names))
	if err != nil {
		return nil, err
	}
	out := make([]OpSitesResult, len(rep.Ops))
	for i, r := range rep.Ops {
		out[i] = OpSitesResult{Name: r.Name, Sites: r.Sites}
		if r.Error != "" {
			out[i].Err = errors.New(r.Error)
		} else if r.Sites == nil {
			out[i].Err = fmt.Errorf("%s: the child returned no sites", r.Name)
		}
	}
	return out, nil
}

// ThroughputInChild times the named operations in one fresh child
// process as MeasureThroughput times groups of cases (each group sampled
// alternately), and returns one Timed per name, groups one after the
// other. An operation the child cannot find or prepare, or whose Run
// fails, has its Err.
func ThroughputInChild(ctx context.Context, child Child, groups [][]string, o ThroughputOptions) ([]Timed, error) {
	n := 0
	for _, g := range groups {
		n += len(g)
	}
	rep, err := askOps(ctx, child, "timing", &opRequest{Task: taskTiming, Groups: groups, Samples: o.Samples, MinSample: o.MinSample}, n)
	if err != nil {
		return nil, err
	}
	out := make([]Timed, len(rep.Ops))
	for i, r := range rep.Ops {
		out[i] = Timed{Name: r.Name, Note: r.Note}
		if r.Timing != nil {
			out[i].Timing = *r.Timing
		}
		if r.Error != "" {
			out[i].Err = errors.New(r.Error)
		}
	}
	return out, nil
}

// askOps runs a child for req and checks that it answered for each of
// the want operations.
func askOps(ctx context.Context, child Child, what string, req *opRequest, want int) (*opReply, error) {
	b, err := runChild(ctx, child, what, childRequest{Ops: req})
	if err != nil {
		return nil, err
	}
	var rep opReply
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, fmt.Errorf("%s: reading child result: %w", what, err)
	}
	if len(rep.Ops) != want {
		return nil, fmt.Errorf("%s: the child answered for %d operations, want %d", what, len(rep.Ops), want)
	}
	return &rep, nil
}

// serveOps answers an opRequest in the child, looking the operations up
// with lookup, and writes the reply where the parent reads it.
func serveOps(lookup func(string) (func() error, error), req childRequest) error {
	if lookup == nil {
		return errors.New("this program runs no operation in a child (no Lookups.Op)")
	}
	o := req.Ops
	var rep opReply
	switch o.Task {
	case taskSites:
		for _, g := range o.Groups {
			for _, name := range g {
				r := opOutcome{Name: name}
				run, err := lookup(name)
				if err == nil {
					r.Sites, err = ProfileOpSites(run, OpSiteOptions{Calls: o.Calls})
				}
				if err != nil {
					r.Error = fmt.Sprintf("%s: %v", name, err)
				}
				rep.Ops = append(rep.Ops, r)
			}
		}
	case taskTiming:
		var groups [][]ThroughputCase
		var failed []opOutcome // by position; Name empty where the case was found
		for _, g := range o.Groups {
			var cases []ThroughputCase
			for _, name := range g {
				run, err := lookup(name)
				if err != nil {
					failed = append(failed, opOutcome{Name: name, Error: fmt.Sprintf("%s: %v", name, err)})
					continue
				}
				failed = append(failed, opOutcome{})
				cases = append(cases, ThroughputCase{Name: name, Run: run})
			}
			if len(cases) > 0 {
				groups = append(groups, cases)
			}
		}
		timed, err := MeasureThroughput(context.Background(), groups, ThroughputOptions{Samples: o.Samples, MinSample: o.MinSample})
		if err != nil {
			return err
		}
		next := 0
		for _, f := range failed {
			if f.Name != "" {
				rep.Ops = append(rep.Ops, f)
				continue
			}
			t := timed[next]
			next++
			r := opOutcome{Name: t.Name, Timing: &t.Timing, Note: t.Note}
			if t.Err != nil {
				r.Error = t.Err.Error()
			}
			rep.Ops = append(rep.Ops, r)
		}
	default:
		return fmt.Errorf("unknown operation task %q: want %s or %s", o.Task, taskSites, taskTiming)
	}
	b, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(req.Out, b, 0o644)
}
