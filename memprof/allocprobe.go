package memprof

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
)

// Alloc is what one instance's constructor allocates, what the instance
// keeps and its garbage alike: bytes and objects. The profiled pass
// builds its instances with the collector off, so all of it, and a
// profile record per object (ProfileRecordBytes), stays until the pass
// collects.
type Alloc struct{ Bytes, Objects float64 }

// The probe reads what one instance's constructor allocates across
// allocProbeN instances, allocProbeRounds times, and keeps the least
// (what the runtime and other goroutines allocate meanwhile only adds).
const allocProbeN, allocProbeRounds = 4, 3

// allocTask is the task that probes cases in a child: served by every
// ServeChild, with the lookup it is given.
const allocTask = "memprof.alloc"

// allocated is what the runtime has allocated so far, all goroutines'
// included, and the collections completed. runtime.ReadMemStats flushes
// every P's cache first, which runtime/metrics does not: its counts of
// small objects move a span at a time.
func allocated() (a Alloc, cycles uint32) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return Alloc{float64(m.TotalAlloc), float64(m.Mallocs)}, m.NumGC
}

// ProbeAlloc returns what one instance of c's constructor allocates, in
// this process: c.New's, after Prepare and a first call (whose lazy
// set-up is not an instance's). A round a collection ran in counts the
// collector's own allocations: it is taken only when every round had one.
// A case without New (one object, or all at once) is refused.
func ProbeAlloc(c Case) (per Alloc, err error) {
	if c.New == nil {
		return Alloc{}, fmt.Errorf("case %s: no New to probe", c.Name)
	}
	if c.Prepare != nil {
		if err := c.Prepare(1 + allocProbeN*allocProbeRounds); err != nil {
			return Alloc{}, fmt.Errorf("case %s: prepare: %w", c.Name, err)
		}
	}
	if _, err := callNew(&c, 0); err != nil {
		return Alloc{}, err
	}
	inf := math.Inf(1)
	clean, least := Alloc{inf, inf}, Alloc{inf, inf}
	for round := range allocProbeRounds {
		before, cycles := allocated()
		for i := range allocProbeN {
			if _, err := callNew(&c, 1+round*allocProbeN+i); err != nil {
				return Alloc{}, err
			}
		}
		after, cyclesAfter := allocated()
		got := Alloc{(after.Bytes - before.Bytes) / allocProbeN, (after.Objects - before.Objects) / allocProbeN}
		least = Alloc{min(least.Bytes, got.Bytes), min(least.Objects, got.Objects)}
		if cyclesAfter == cycles {
			clean = Alloc{min(clean.Bytes, got.Bytes), min(clean.Objects, got.Objects)}
		}
	}
	if math.IsInf(clean.Bytes, 1) {
		return least, nil
	}
	return clean, nil
}

// ProbeAllocInChild probes the cases named in one fresh child process
// (ProbeAlloc), so that a constructor that crashes takes no more than
// the child with it: a name whose case cannot be probed is absent from
// the result; a child that fails is an error.
func ProbeAllocInChild(ctx context.Context, child Child, names []string) (map[string]Alloc, error) {
	out := map[string]Alloc{}
	if len(names) == 0 {
		return out, nil
	}
	if err := runTask(ctx, child, "allocation probe", allocTask, names, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// allocProbeTask is allocTask: it probes each case lookup finds.
func allocProbeTask(lookup func(name string) (Case, error)) Task {
	return Task{Name: allocTask, Run: func(_ context.Context, in json.RawMessage) (any, error) {
		var names []string
		if err := json.Unmarshal(in, &names); err != nil {
			return nil, fmt.Errorf("reading %s request: %w", ChildEnv, err)
		}
		out := map[string]Alloc{}
		for _, name := range names {
			c, err := lookup(name)
			if err != nil {
				continue
			}
			if a, err := ProbeAlloc(c); err == nil {
				out[name] = a
			}
		}
		return out, nil
	}}
}
