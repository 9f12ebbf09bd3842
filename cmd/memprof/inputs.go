package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/memprof/memprof/gate"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
)

// inputLimits are the --max-bytes and --max-rows of check, compare,
// export and report: the largest input file read, checked while reading,
// and the most rows of a results file, checked while decoding. 0 keeps
// each reader's documented default (results 256 MiB and 50,000 rows,
// budgets 64 MiB).
type inputLimits struct {
	flag  string
	bytes int64
	rows  int
}

func (l *inputLimits) addFlag(fs *flag.FlagSet, what string) {
	fs.StringVar(&l.flag, "max-bytes", "", "stop reading "+what+" past `size` (bytes, or with KiB, MiB, GiB; default "+
		formatSize(results.DefaultMaxResultsBytes)+" for results, "+formatSize(gate.DefaultMaxBytes)+" for budgets)")
	fs.IntVar(&l.rows, "max-rows", results.DefaultMaxRows, "refuse a results file of more than `n` rows (instance, throughput and unavailable rows together)")
}

// readingMemoryLimit is the soft memory limit (runtime/debug's
// SetMemoryLimit) of the commands that read results, budgets and
// profiles: the collector runs before their heap grows past it rather
// than letting it reach twice what they hold. What they hold is bounded
// by their inputs' limits (bytes, rows, YAML nodes); together the two keep
// them under 300 MB of resident memory (TestResultsRSS). GOMEMLIMIT, when
// set, is left alone.
const readingMemoryLimit = 200 << 20

// limitMemory sets readingMemoryLimit, unless GOMEMLIMIT or a lower limit
// is set, and returns what puts the earlier limit back.
func limitMemory() (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	prev := debug.SetMemoryLimit(-1)
	if prev <= readingMemoryLimit {
		return func() {}
	}
	debug.SetMemoryLimit(readingMemoryLimit)
	return func() { debug.SetMemoryLimit(prev) }
}

// defaultRows is the default --max-rows for help texts: "50,000".
var defaultRows = thousands(results.DefaultMaxRows)

// thousands writes n with a comma between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// parse reads the flags; a bad size or row count is a usage error.
func (l *inputLimits) parse() error {
	if l.rows <= 0 {
		return fmt.Errorf("--max-rows must be a positive number of rows, got %d", l.rows)
	}
	if l.flag == "" {
		return nil
	}
	n, err := units.ParseBytes(l.flag)
	if err != nil {
		return fmt.Errorf("--max-bytes: %w", err)
	}
	l.bytes = n
	return nil
}

// readResults reads a results file for check, compare, export and
// report: bounded, validated at load against the vocabulary, and
// stopped when ctx is done.
func (l inputLimits) readResults(ctx context.Context, path string) (*results.File, error) {
	return results.Reader{MaxBytes: l.bytes, MaxRows: l.rows}.ReadFileContext(ctx, path)
}

// readBudgets reads a budgets file, bounded.
func (l inputLimits) readBudgets(path string) (*gate.File, error) {
	return gate.ReadFileLimit(path, l.bytes)
}

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

// requireRows refuses a results file with no instance and no throughput
// rows (unavailable rows only, or none): there is nothing to export or
// compare, as report --from says of a file without instances. The error
// names the file and says what cannot be done (why).
func requireRows(path string, rs *results.File, why string) error {
	if len(rs.Instances) == 0 && len(rs.Throughput) == 0 {
		return fmt.Errorf("reading results %s: no instance or throughput rows in it: %s", path, why)
	}
	return nil
}
