package cliflag

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"

	"github.com/memprof/memprof/gate"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
)

// Limits are the --max-bytes and --max-rows of check, compare,
// export and report: the largest input file read, checked while reading,
// and the most rows of a results file, checked while decoding. 0 keeps
// each reader's documented default (results 256 MiB and 50,000 rows,
// budgets 64 MiB).
type Limits struct {
	Size  string // --max-bytes as given
	Bytes int64
	Rows  int
}

func (l *Limits) AddFlag(fs *flag.FlagSet, what string) {
	fs.StringVar(&l.Size, "max-bytes", "", "stop reading "+what+" past `size` (bytes, or with KiB, MiB, GiB; default "+
		FormatSize(results.DefaultMaxResultsBytes)+" for results, "+FormatSize(gate.DefaultMaxBytes)+" for budgets)")
	fs.IntVar(&l.Rows, "max-rows", results.DefaultMaxRows, "refuse a results file of more than `n` rows (instance, throughput and unavailable rows together)")
}

// ReadingMemoryLimit is the soft memory limit (runtime/debug's
// SetMemoryLimit) of the commands that read results, budgets and
// profiles: the collector runs before their heap grows past it rather
// than letting it reach twice what they hold. What they hold is bounded
// by their inputs' limits (bytes, rows, YAML nodes); together the two keep
// them under 300 MB of resident memory (TestResultsRSS). GOMEMLIMIT, when
// set, is left alone.
const ReadingMemoryLimit = 200 << 20

// LimitMemory sets ReadingMemoryLimit, unless GOMEMLIMIT or a lower limit
// is set, and returns what puts the earlier limit back.
func LimitMemory() (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	prev := debug.SetMemoryLimit(-1)
	if prev <= ReadingMemoryLimit {
		return func() {}
	}
	debug.SetMemoryLimit(ReadingMemoryLimit)
	return func() { debug.SetMemoryLimit(prev) }
}

// DefaultRows is the default --max-rows for help texts: "50,000".
var DefaultRows = Thousands(results.DefaultMaxRows)

// Thousands writes n with a comma between groups of three digits.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// parse reads the flags; a bad size or row count is a usage error.
func (l *Limits) Parse() error {
	if l.Rows <= 0 {
		return fmt.Errorf("--max-rows must be a positive number of rows, got %d", l.Rows)
	}
	if l.Size == "" {
		return nil
	}
	n, err := units.ParseBytes(l.Size)
	if err != nil {
		return fmt.Errorf("--max-bytes: %w", err)
	}
	l.Bytes = n
	return nil
}

// readResults reads a results file for check, compare, export and
// report: bounded, validated at load against the vocabulary, and
// stopped when ctx is done.
func (l Limits) ReadResults(ctx context.Context, path string) (*results.File, error) {
	return results.Reader{MaxBytes: l.Bytes, MaxRows: l.Rows}.ReadFileContext(ctx, path)
}

// readBudgets reads a budgets file, bounded.
func (l Limits) ReadBudgets(path string) (*gate.File, error) {
	return gate.ReadFileLimit(path, l.Bytes)
}

// ReadShared reads the results files of a review, which are held at once:
// they share the row limit. A file without instance rows is refused:
// nothing to review.
func (l Limits) ReadShared(ctx context.Context, from []string) ([]*results.File, error) {
	var rss []*results.File
	shared := l
	for i, f := range from {
		r, err := shared.ReadResults(ctx, f)
		if errors.Is(err, results.ErrTooManyRows) && i > 0 {
			err = fmt.Errorf("%w; the --from files share the limit of %d rows", err, l.Rows)
		}
		if err != nil {
			return nil, err
		}
		shared.Rows -= len(r.Instances) + len(r.Throughput) + len(r.Unavailable) + len(r.Tradeoff)
		for _, t := range r.Tradeoff {
			shared.Rows -= len(t.Rows)
		}
		if shared.Rows <= 0 && i+1 < len(from) {
			return nil, fmt.Errorf("reading results %s: the --from files before it hold the limit of %d rows (raise it with --max-rows if the files are trusted)", from[i+1], l.Rows)
		}
		if len(r.Instances) == 0 {
			return nil, fmt.Errorf("reading results %s: no instance measurements in it: nothing to review", f)
		}
		rss = append(rss, r)
	}
	return rss, nil
}
