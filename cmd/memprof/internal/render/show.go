package render

import (
	"fmt"
	"io"
	"slices"

	"github.com/memprof/memprof/results"
)

// ShowTables writes the tables of show: the instance rows (and the
// unavailable cases) with instOpts, then the throughput rows (and the
// unavailable operations) with opOpts, a blank line between them.
func ShowTables(w io.Writer, rs *results.File, instOpts, opOpts TableOptions) error {
	wrote := false
	if len(rs.Instances) > 0 || slices.ContainsFunc(rs.Unavailable, func(u results.Unavailable) bool { return !u.IsOp() }) {
		if err := InstancesTableFit(w, rs, instOpts); err != nil {
			return err
		}
		wrote = true
	}
	if len(rs.Throughput) > 0 || slices.ContainsFunc(rs.Unavailable, func(u results.Unavailable) bool { return u.IsOp() }) {
		if wrote {
			if _, err := fmt.Fprintln(w); err != nil {
				return err
			}
		}
		return ThroughputTableFit(w, rs, opOpts)
	}
	return nil
}
