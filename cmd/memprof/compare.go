package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/gatereport"
	"github.com/memprof/memprof/gate"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/suites"
)

func init() {
	register(&command{
		Name:      "compare",
		UsageLine: "compare BASE.json HEAD.json [--format table|markdown|json] [--tolerance-bytes 0] [--tolerance 5%] [--allow-missing] [--allow-env-mismatch] [-o FILE]",
		Short:     "compare two results files and report regressions",
		Long: `Compare pairs the cases of two results files (base and head) by type, lib,
repr and layout for instances, and type, lib, repr and op for operations.

Bytes and allocations per instance are exact: an increase in bytes beyond
--tolerance-bytes, or any extra allocation, is a regression. A time is a
regression only when a Mann-Whitney U test over the raw samples
(samples_ns) is significant at alpha 0.05, as benchstat does, and the
median slowdown exceeds --tolerance.

Cases only in head are listed as new; cases only in base as missing, which
fails unless --allow-missing. Results from different environments (CPU
model, GOARCH, Go version, library versions) are refused unless
--allow-env-mismatch, naming the fields that differ.

The markdown format is made for a pull-request comment: the verdict line
first, the failing rows, the full table in a <details> block, and both
environments.

Exit status: 0 no regression, 1 a regression (or a missing case, or a case
that failed to measure in head), 2 bad input (unreadable files, times
without samples, environment mismatch).`,
		Run: runCompare,
	})
}

func runCompare(ctx context.Context, inv *invocation, args []string) int {
	fs := inv.flags()
	format := fs.String("format", "table", "output `format`: table, markdown or json")
	tolBytes := fs.String("tolerance-bytes", "0", "allowed increase in bytes per instance (`size`, e.g. 0, 8B)")
	tol := fs.String("tolerance", "5%", "allowed significant slowdown of a time (`percent`)")
	allowMissing := fs.Bool("allow-missing", false, "do not fail on cases present in base but not in head")
	allowEnv := fs.Bool("allow-env-mismatch", false, "compare results from different environments (the differences are reported)")
	out := fs.String("o", "", "write the output to `file` (atomically) instead of stdout")
	files, code, done := parseInterspersed(inv, fs, args)
	if done {
		return code
	}
	if len(files) != 2 {
		return inv.usageError("want two results files, BASE.json and HEAD.json, got %d argument(s)", len(files))
	}
	f, err := suites.Canonical("format", *format, []string{"table", "markdown", "json"})
	if err != nil {
		return inv.usageError("%v", err)
	}
	var opts gate.CompareOptions
	if opts.ToleranceBytes, err = gate.ParseSize(*tolBytes); err != nil {
		return inv.usageError("--tolerance-bytes: %v", err)
	}
	if opts.Tolerance, err = parsePercent(*tol); err != nil {
		return inv.usageError("--tolerance: %v", err)
	}
	opts.AllowMissing, opts.AllowEnvMismatch = *allowMissing, *allowEnv
	if err := checkOutputPath(*out); err != nil {
		return inv.fail("%v", err)
	}

	base, err := memprof.ReadResultsFile(files[0])
	if err != nil {
		fmt.Fprintf(inv.stderr, "memprof compare: base: %v\n", err)
		return exitUsage
	}
	head, err := memprof.ReadResultsFile(files[1])
	if err != nil {
		fmt.Fprintf(inv.stderr, "memprof compare: head: %v\n", err)
		return exitUsage
	}
	c, err := gate.Compare(base, head, opts)
	if err != nil {
		fmt.Fprintf(inv.stderr, "memprof compare: %s vs %s: %v\n", files[0], files[1], err)
		return exitUsage
	}
	var buf bytes.Buffer
	switch f {
	case "markdown":
		err = gatereport.Markdown(&buf, c)
	case "json":
		err = gatereport.JSON(&buf, c)
	default:
		err = gatereport.Table(&buf, c)
	}
	if err != nil {
		return inv.fail("rendering: %v", err)
	}
	if err := writeOutput(inv, *out, buf.Bytes()); err != nil {
		return inv.fail("%v", err)
	}
	if !c.OK() {
		fmt.Fprintf(inv.stderr, "memprof compare: %s\n", c.Verdict())
		return exitFailure
	}
	return exitOK
}

// parseInterspersed parses flags that may come before, between or after
// the positional arguments (compare BASE HEAD --format markdown), and
// returns the positional arguments.
func parseInterspersed(inv *invocation, fs *flag.FlagSet, args []string) (pos []string, code int, done bool) {
	for {
		if code, done := inv.parse(fs, args); done {
			return nil, code, true
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, 0, false
		}
		if rest[0] == "--" {
			return append(pos, rest[1:]...), 0, false
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// parsePercent parses a percentage such as "5%" or "2.5%" into a fraction.
func parsePercent(s string) (float64, error) {
	num, ok := strings.CutSuffix(strings.TrimSpace(s), "%")
	if !ok {
		return 0, fmt.Errorf("%q is not a percentage: write it with %%, as 5%%", s)
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || v < 0 {
		return 0, errors.New(strconv.Quote(s) + " is not a percentage >= 0")
	}
	return v / 100, nil
}
