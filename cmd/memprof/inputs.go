package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/memprof/memprof/gate"
	"github.com/memprof/memprof/model"
)

// inputLimits are the --max-bytes of check, compare and report: the
// largest input file read, checked while reading. 0 keeps each reader's
// documented default (results 256 MiB, budgets 64 MiB).
type inputLimits struct {
	flag  string
	bytes int64
}

func (l *inputLimits) addFlag(fs *flag.FlagSet, what string) {
	fs.StringVar(&l.flag, "max-bytes", "", "stop reading "+what+" past `size` (bytes, or with KiB, MiB, GiB; default "+
		formatSize(model.DefaultMaxResultsBytes)+" for results, "+formatSize(gate.DefaultMaxBytes)+" for budgets)")
}

// parse reads the flag; a bad size is a usage error.
func (l *inputLimits) parse() error {
	if l.flag == "" {
		return nil
	}
	n, err := parseSize(l.flag)
	if err != nil {
		return fmt.Errorf("--max-bytes: %w", err)
	}
	l.bytes = n
	return nil
}

// readResults reads a results file for check, compare and report:
// bounded, and validated at load against the model's vocabulary.
func (l inputLimits) readResults(path string) (*model.Results, error) {
	return model.ResultsReader{MaxBytes: l.bytes}.ReadFile(path)
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
	if errors.Is(err, model.ErrTooLarge) {
		msg += " (raise it with --max-bytes if the file is trusted)"
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
func requireRows(path string, rs *model.Results, why string) error {
	if len(rs.Instances) == 0 && len(rs.Throughput) == 0 {
		return fmt.Errorf("reading results %s: no instance or throughput rows in it: %s", path, why)
	}
	return nil
}
