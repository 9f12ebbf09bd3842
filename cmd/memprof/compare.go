package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"

	"github.com/memprof/memprof/cmd/memprof/internal/cliflag"
	"github.com/memprof/memprof/cmd/memprof/internal/gatereport"
	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/gate"
)

var compareCommand = &command{
	Name:      "compare",
	UsageLine: "compare BASE.json HEAD.json [--format table|markdown|json] [--tolerance-bytes 0] [--tolerance 5%] [--allow-missing] [--allow-env-mismatch] [--fail-on-time] [--base-url URL] [--base-commit SHA] [--max-base-age 7d] [--max-bytes SIZE] [--max-rows N] [--style plain|box] [-o FILE]",
	Short:     "compare two results files and report regressions",
	Long: `Compare pairs the cases of two results files (base and head) by type, lib,
repr and layout for instances, and type, lib, repr and op for operations.

Bytes and allocations per instance are exact: an increase in bytes beyond
--tolerance-bytes, or any extra allocation, is a regression. A time is a
regression only when a Mann-Whitney U test over the raw samples
(samples_ns) is significant at alpha 0.05, as benchstat does, and the
median slowdown exceeds --tolerance. A figure read to a resolution (the
bytes where they are not exact) regresses only beyond the resolution of
both readings.

Times move with the machine: a time regression is a warning (it is listed,
and does not fail) unless --fail-on-time, for a pinned, quiet runner that
measures both sides. A time with fewer than 4 samples on either side
cannot be judged (the U test could not reach 0.05) and warns the same way;
every time of a file whose agreement check failed fails. Times are the
medians of samples_ns, the figure check reads too.

Cases only in head are listed as new; cases only in base as missing, which
fails unless --allow-missing. Results from different environments (CPU
model, GOOS, GOARCH, Go version, cgo, GOMAXPROCS, library versions) are
refused unless --allow-env-mismatch, naming the fields that differ.

Both files are validated before anything is compared (every problem is
reported as FILE: instances[12] (case): problem) and read up to 256 MiB
(--max-bytes raises the limit) and ` + cliflag.DefaultRows + ` rows each (--max-rows).

The markdown format is made for a pull-request comment: the verdict line
first, where and when each side was measured (commit, time, machine) with
a link to the base run (--base-url), the failing rows, the full table in a
<details> block, and both environments.

A base that may not be the base of the change is warned about (in every
format, and on stderr), never failed: one measured at another commit than
--base-commit, or longer ago than --max-base-age (default 7 days), or one
that does not record its commit or time when they are to be checked.
Results record them as env.commit (--commit, $GITHUB_SHA, or the binary's
VCS revision) and env.time when they are measured.

A figure a side lacks (a file older than it) is reported missing from
head (failing unless --allow-missing) or new in head, never compared as 0.
--tolerance is a percentage from 0 to 100%, --tolerance-bytes a size from
0 to 1 TiB; anything else (NaN%, 1e308GiB) is a usage error.

Exit status: 0 no regression (time warnings included), 1 a regression (or
a missing case, a case that failed to measure in head, libraries that
disagreed; with --fail-on-time a time regression or a time with too few
samples), 2 bad input (unreadable, too large or invalid files, a
base with no rows, times without samples, environment mismatch).`,
	Run: runCompare,
	Examples: []example{
		{Line: "memprof compare fixtures/compare/base.json fixtures/compare/head.json", What: "regressions of head against base (exit 1 when there is one)"},
		{Line: "memprof compare fixtures/compare/base.json fixtures/compare/head.json --format markdown --tolerance 10%", What: "a pull-request comment, tolerating a 10% slowdown"},
	},
}

func runCompare(ctx context.Context, inv *invocation, args []string) int {
	defer cliflag.LimitMemory()()
	fs := inv.flags()
	format := cliflag.AddFormat(fs, "table", "markdown", "json")
	var cf cliflag.Compare
	cf.Add(fs)
	out := cliflag.AddOutput(fs)
	var style string
	cliflag.AddStyle(fs, &style)
	var limits cliflag.Limits
	limits.AddFlag(fs, "a results file")
	files, code, done := parseInterspersed(inv, fs, args)
	if done {
		return code
	}
	if err := cliflag.Check(fs); err != nil {
		return inv.usageError("%v", err)
	}
	if len(files) != 2 {
		return inv.usageError("want two results files, BASE.json and HEAD.json, got %d argument(s)", len(files))
	}
	f, tableStyle, err := cliflag.FormatAndStyle(fs, format, style)
	if err != nil {
		return inv.usageError("%v", err)
	}
	opts, err := cf.Options(f)
	if err != nil {
		return inv.usageError("%v", err)
	}
	if err := limits.Parse(); err != nil {
		return inv.usageError("%v", err)
	}
	if err := checkOutputPath(*out); err != nil {
		return inv.fail("%v", err)
	}

	base, err := readRows(ctx, limits, files[0], "nothing to compare against")
	if err != nil {
		return inv.badInput("base: ", err)
	}
	head, err := limits.ReadResults(ctx, files[1])
	if err != nil {
		return inv.badInput("head: ", err)
	}
	c, err := gate.Compare(base, head, opts)
	if err != nil {
		return inv.badInput(files[0]+" vs "+files[1]+": ", err)
	}
	var buf bytes.Buffer
	switch w := inv.live(&buf); f {
	case "markdown":
		err = gatereport.CompareMarkdown(w, c, gatereport.MarkdownOptions{BaseURL: cf.BaseURL})
	case "json":
		err = gatereport.JSON(w, c)
	default:
		err = gatereport.TableFit(w, c, render.TerminalWidth(tableWriter(inv, *out)), tableStyle)
	}
	if err != nil {
		return inv.fail("rendering: %v", err)
	}
	if err := writeOutput(inv, *out, buf.Bytes()); err != nil {
		return inv.fail("%v", err)
	}
	// On stderr in every format (docs/compare.md), the table's included: a
	// CI log that keeps only stderr still shows a stale base.
	for _, w := range c.Warnings {
		fmt.Fprintf(inv.stderr, "memprof compare: warning: %s\n", w)
	}
	if !c.OK() {
		fmt.Fprintf(inv.stderr, "memprof compare: %s\n", gatereport.Headline(c))
		return exitFailure
	}
	if c.TimeWarnings > 0 {
		fmt.Fprintf(inv.stderr, "memprof compare: warning: %s\n", gatereport.Headline(c))
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
