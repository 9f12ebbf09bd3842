package workflow

import (
	"context"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
)

// Where each timed operation allocates is profiled after the timing, in
// child processes that serve the task sitesTask (memprof.OpSitesTask,
// resolving an operation by its key's BenchName with
// suites.Registry.LookupOp): one child for the operations timed in this
// process, and one for each isolation group, so that its operations
// share a process with no other group's (c-kzg holds one setup per
// process).

// sitesTask is the name of the task that profiles where operations
// allocate.
const sitesTask = "operation-allocation-sites"

// profileSites finds where each timed row of rows allocates and sets the
// rows' sites; ops are the operations the rows were timed from (their
// Isolate says which child profiles them). A row whose operation could not
// be profiled says why in its note; the error is for ctx being done.
func profileSites(ctx context.Context, rows []results.ThroughputRow, ops []suites.Op, opts Options, ev *events) error {
	isolate := map[results.Key]string{}
	for _, o := range ops {
		isolate[o.Key.Normalize()] = o.Isolate
	}
	var groups []string
	at := map[string][]int{}
	total := 0
	for i, r := range rows {
		if r.Error != "" {
			continue
		}
		g := isolate[r.Key.Normalize()]
		if _, ok := at[g]; !ok {
			groups = append(groups, g)
		}
		at[g] = append(at[g], i)
		total++
	}
	if total == 0 {
		return nil
	}
	ev.send(Event{Kind: SitesStarting, Total: total})
	for _, g := range groups {
		names, groups := make([]string, len(at[g])), make([]string, len(at[g]))
		for j, i := range at[g] {
			names[j] = rows[i].BenchName()
			// The operations timed side by side (sameGroup) share the
			// extra time for more calls.
			groups[j] = string(rows[i].Type) + "/" + string(rows[i].Op)
		}
		res, err := memprof.OpSitesInChild(ctx, opts.Child, sitesTask, names, groups, memprof.OpSiteOptions{ExtraTime: memprof.DefaultOpSiteExtraTime})
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		for j, i := range at[g] {
			r := &rows[i]
			switch {
			case err != nil:
				r.Note = joinNote(r.Note, "no allocation sites: "+err.Error())
			case res[j].Err != nil:
				r.Note = joinNote(r.Note, "no allocation sites: "+res[j].Err.Error())
			default:
				s := res[j].Sites
				// What the sites leave of the row's B/op, beyond 2%, is
				// a site of its own.
				r.Sites = memprof.UnattributedOpSite(s.Sites, r.BytesPerOp, r.AllocsPerOp)
				r.SitesCalls, r.SchedulingDependent = s.Calls, s.SchedulingDependent
				if r.Sites == nil {
					r.Sites = []measure.OpSite{} // profiled: allocates nothing
				}
			}
		}
	}
	return nil
}
