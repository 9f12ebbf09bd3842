package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/cliflag"
	"github.com/memprof/memprof/results"
)

// badInput prints an input file's error, one "memprof CMD: PREFIX..."
// line per line of it (an invalid results file has a line per problem),
// says how to raise a size limit, and returns exitUsage.
func (inv *invocation) badInput(prefix string, err error) int {
	msg := err.Error()
	switch {
	case errors.Is(err, results.ErrTooLarge):
		msg += " (raise it with --max-bytes if the file is trusted)"
	case errors.Is(err, results.ErrTooManyRows):
		msg += " (raise it with --max-rows if the file is trusted)"
	}
	for _, line := range strings.Split(msg, "\n") {
		fmt.Fprintf(inv.stderr, "memprof %s: %s%s\n", inv.cmd.Name, prefix, line)
	}
	return exitUsage
}

// readRows reads results file path within limits and refuses one with no
// instance and no throughput rows (unavailable rows only, or none): there
// is nothing to export, compare or check, as report --from says of a file
// without instances. The error names the file and says what cannot be
// done (why).
func readRows(ctx context.Context, limits cliflag.Limits, path, why string) (*results.File, error) {
	rs, err := limits.ReadResults(ctx, path)
	if err != nil {
		return nil, err
	}
	if len(rs.Instances) == 0 && len(rs.Throughput) == 0 {
		return nil, fmt.Errorf("reading results %s: no instance or throughput rows in it: %s", path, why)
	}
	return rs, nil
}
