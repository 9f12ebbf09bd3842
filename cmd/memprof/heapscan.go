package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/memprof/memprof/cmd/memprof/internal/cliflag"
	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/heapscan"
	"github.com/memprof/memprof/internal/atomicfile"
)

// heapscanStdin is what "heapscan -" reads (a variable for tests).
var heapscanStdin io.Reader = os.Stdin

// stdinName names standard input in messages.
const stdinName = "(standard input)"

var heapscanCommand = &command{
	Name:      "heapscan",
	UsageLine: "heapscan [--base PROFILE] [--sample inuse|alloc] [--group-by function|site|stack|rule] [--rules FILE] [--instances N] [--focus RE] [--ignore RE] [--top N] [--format table|json|markdown|csv] [-o FILE] [--max-bytes SIZE] [--timeout D] [--reader stream|model] [--style plain|box] PROFILE|-",
	Short:     "bytes and objects per function, site or stack of a Go heap profile",
	Long: `Heapscan reads a Go heap profile and reports, per group, the objects and
bytes it keeps (or allocated, with --sample alloc), bytes per object, the
distinct object sizes seen, and the share of the total; with --instances N,
bytes and objects per instance.

PROFILE is a file (gzip-compressed or plain protobuf as Go writes it, or the
legacy text format, whose debug=1 symbol comments name its frames), - for
standard input, or the http:// or https:// URL of a live process's
/debug/pprof/heap endpoint, fetched with gc=1 so the profile is current.
Flags may also follow PROFILE.

A profile of changes (duration_nanos set, as /debug/pprof/heap?seconds=N
serves it, or negative values, as pprof -diff_base saves it) is read with a
warning on stderr: its totals are net sums. A profile with inuse_space only
has no object counts: they show as ? (null in JSON).

Groups: function (the allocating function, the first frame that is not the
Go runtime; the default), site (function and line), stack, or rule (the
first rule of --rules whose pattern matches a frame; --rules alone implies
it). A profile sampled at a rate above 1 has each row's relative error
estimated from the sampled objects behind it; rows with too few are marked.

With --base, rows show the change from the base profile, sorted by the
absolute change in bytes; rows only in one profile are marked new or
vanished.

Profiles are untrusted input: a damaged file, or one that is not a heap
profile, is an error (exit 2), and reading stops when the decompressed size
passes --max-bytes. Exit status is 0 on success, 1 when a profile cannot be
fetched (the server is unreachable, times out or answers another status
than 200), 2 for a usage error or a bad profile (missing, damaged, too
large, not a heap profile).`,
	Run: runHeapscan,
	Examples: []example{
		{Line: "memprof heapscan fixtures/profiles/before.pb.gz", What: "bytes and objects per allocating function of a heap profile"},
		{Line: "memprof heapscan --group-by site --top 5 fixtures/profiles/before.pb.gz", What: "the five largest allocation sites"},
		{Line: "memprof heapscan --base fixtures/profiles/before.pb.gz fixtures/profiles/after.pb.gz", What: "what changed between two profiles"},
		{Line: "memprof heapscan --instances 1000000 http://localhost:6060/debug/pprof/heap", What: "a live process's heap, per instance of a million", Measures: true},
	},
}

func runHeapscan(ctx context.Context, inv *invocation, args []string) int {
	defer cliflag.LimitMemory()()
	fs := inv.flags()
	var hf cliflag.Heapscan
	hf.Add(fs)
	format := cliflag.AddFormat(fs, "table", "json", "markdown", "csv")
	out := cliflag.AddOutput(fs)
	var style string
	cliflag.AddStyle(fs, &style)
	pos, code, done := parseInterspersed(inv, fs, args)
	if done {
		return code
	}
	if len(pos) != 1 {
		return inv.usageError("want one profile (file, URL or - for standard input), got %d arguments", len(pos))
	}
	source := pos[0]
	if source == "-" && hf.Base == "-" {
		return inv.usageError("standard input (-) can be read only once: give PROFILE or --base as -, not both")
	}
	f, tableStyle, err := cliflag.FormatAndStyle(fs, format, style)
	if err != nil {
		return inv.usageError("%v", err)
	}
	opts, ro, err := hf.Options()
	if err != nil {
		return inv.usageError("%v", err)
	}
	if err := checkOutputPath(*out); err != nil {
		return inv.fail("%v", err)
	}

	// A dry run reads local profiles (quick, and nothing is written) but
	// stops before fetching one, reading standard input or writing -o.
	if (*out != "" || !localProfile(source) || (hf.Base != "" && !localProfile(hf.Base))) && inv.stopDry() {
		return exitOK
	}
	s, err := summarizeSource(ctx, inv, source, ro, opts)
	if err != nil {
		return inv.profileError(err)
	}
	if hf.Base != "" {
		b, err := summarizeSource(ctx, inv, hf.Base, ro, opts)
		if err != nil {
			return inv.profileError(err)
		}
		if s, err = heapscan.Diff(b, s); err != nil {
			return inv.fail("%v", err)
		}
	}
	s.Top(hf.Top)

	view := render.HeapscanView{Source: displayName(source), Base: displayName(hf.Base), Instances: hf.Instances}
	// The output is written as it is rendered, row by row for JSON and
	// CSV, never held whole: --group-by stack can make it large.
	write := func(w io.Writer) error {
		return render.WriteHeapscan(w, s, view, f, render.TerminalWidth(tableWriter(inv, *out)), tableStyle)
	}
	if *out != "" {
		err = atomicfile.WriteStream(*out, 0o644, write)
	} else {
		bw := bufio.NewWriterSize(inv.stdout, 64<<10)
		if err = write(bw); err == nil {
			err = bw.Flush()
		}
		if inv.stdoutFailed() {
			return exitOK // run reports it
		}
		if err != nil {
			err = fmt.Errorf("writing the output: %w", err)
		}
	}
	if err != nil {
		return inv.fail("%v", err)
	}
	return exitOK
}

// localProfile reports whether source names a file rather than standard
// input or a URL to fetch.
func localProfile(source string) bool {
	return source != "-" && !heapscan.IsURL(source)
}

func displayName(source string) string {
	if source == "-" {
		return stdinName
	}
	return source
}

// summarizeSource reads one profile (a file, a URL, or - for standard
// input) and summarizes it, warning on stderr when it is a delta
// profile; the heap is dropped as soon as the summary is made.
func summarizeSource(ctx context.Context, inv *invocation, source string, ro heapscan.ReadOptions, opts heapscan.Options) (*heapscan.Summary, error) {
	var h *heapscan.Heap
	var err error
	if source == "-" {
		if h, err = heapscan.ReadContext(ctx, heapscanStdin, ro); err != nil {
			err = fmt.Errorf("reading heap profile %s: %w", stdinName, err)
		}
	} else {
		h, err = heapscan.Open(ctx, source, ro)
	}
	if err != nil {
		return nil, err
	}
	s, err := h.Summarize(opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", displayName(source), err)
	}
	if s.Delta {
		fmt.Fprintf(inv.stderr, "memprof %s: warning: %s is a delta profile (%s): totals are net changes, not what the heap held\n", inv.cmd.Name, displayName(source), s.DeltaReason)
	}
	return s, nil
}

// profileError reports a profile that could not be read: exit 1 when it
// could not be fetched (the server is down, slow or refused: a failure),
// 2 when the input itself is bad (missing, damaged, too large, not a heap
// profile).
func (inv *invocation) profileError(err error) int {
	err = explainLimit(err)
	if errors.Is(err, heapscan.ErrFetch) {
		return inv.fail("%v", err)
	}
	fmt.Fprintf(inv.stderr, "memprof %s: %v\n", inv.cmd.Name, err)
	return exitUsage
}

func explainLimit(err error) error {
	if errors.Is(err, heapscan.ErrTooLarge) {
		return fmt.Errorf("%w (raise the limit with --max-bytes if the profile is trusted)", err)
	}
	return err
}
