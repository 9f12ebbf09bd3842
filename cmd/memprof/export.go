package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/memprof/memprof/cmd/memprof/internal/cliflag"
	"github.com/memprof/memprof/export"
	"github.com/memprof/memprof/internal/atomicfile"
	"github.com/memprof/memprof/vocab"
)

var exportCommand = &command{
	Name:      "export",
	UsageLine: "export --to github-action-benchmark|bencher|benchfmt [--only memory|time] RESULTS.json [-o FILE] [--max-bytes SIZE] [--max-rows N]",
	Short:     "write a results file for benchmark dashboards and benchstat",
	Long: `Export writes a saved results file in the format of a benchmark dashboard,
so that its history charts and alerts follow bytes and allocations per
instance as well as time per operation:

	github-action-benchmark  its customSmallerIsBetter JSON: one entry per
	                         bytes/instance, allocs/instance and ns/op
	                         figure, named by the case's bench name and the
	                         unit ("type=Signature/lib=blst/repr=affine/
	                         layout=pointer - B/instance"); a time's range
	                         is its first to third quartile, exact figures
	                         have none
	bencher                  Bencher Metric Format JSON: per case, the
	                         measures bytes-per-instance and
	                         allocs-per-instance, and for an operation
	                         Bencher's latency (ns) with the quartiles as
	                         its bounds
	benchfmt                 the Go benchmark format, as results.bench of a
	                         review holds it (one line per sample, for
	                         benchstat)

--only memory writes the exact memory figures only (bytes and
allocations per instance), --only time the figures that move from run to
run (ns/op, and the collector's scan bytes, read to a resolution): one
call of a dashboard action has one alert threshold for all its entries,
so the exact part can alert on any increase in one series while the
rest, which moves with the machine, is charted in another without
alerts. The benchmark format holds every figure (benchstat's -filter
chooses), so it takes no --only.

The file is read and validated as check and compare read it (every problem
is reported as FILE: instances[12] (case): problem), up to 256 MiB
(--max-bytes raises the limit) and ` + cliflag.DefaultRows + ` rows (--max-rows). A case that
failed to measure has no figure to export: it is named on stderr.

A figure a row lacks (a file older than the figure) has no entry: never
a 0. Two cases whose export names would be one (cases of the library
API's whose names differ only in white space) are refused.

Exit status: 0 when every case of the file is exported, 1 when a case
failed to measure (the others are exported) or writing failed, 2 for a
usage error or a results file that is missing, too large, invalid, holds
no rows, or has two cases with one export name.`,
	Run: runExport,
	Examples: []example{
		{Line: "memprof export --to github-action-benchmark fixtures/results/results.json", What: "bytes, allocations and times for github-action-benchmark"},
		{Line: "memprof export --to benchfmt fixtures/results/results.json", What: "the Go benchmark format, for benchstat"},
	},
}

func runExport(ctx context.Context, inv *invocation, args []string) int {
	defer cliflag.LimitMemory()()
	fs := inv.flags()
	valid := vocab.Strings(export.Formats)
	to := fs.String("to", "", "export `format`: "+vocab.Join(export.Formats))
	only := fs.String("only", "", "write only the figures of `part` (dashboard formats): memory (exact: bytes, allocations) or time (times, and figures read to a resolution)")
	out := cliflag.AddOutput(fs)
	var limits cliflag.Limits
	limits.AddFlag(fs, "the results file")
	files, code, done := parseInterspersed(inv, fs, args)
	if done {
		return code
	}
	if err := cliflag.Check(fs); err != nil {
		return inv.usageError("%v", err)
	}
	if *to == "" {
		return inv.usageError("--to is required: the formats are %s", vocab.Join(export.Formats))
	}
	format, err := vocab.Canonical("format", *to, valid)
	if err != nil {
		return inv.usageError("--to: %v", vocab.Suggest(err, *to, valid))
	}
	var part export.Part
	if cliflag.WasGiven(fs, "only") {
		p, err := vocab.Canonical("part", *only, export.Parts)
		if err != nil {
			return inv.usageError("--only: %v", vocab.Suggest(err, *only, vocab.Strings(export.Parts)))
		}
		if export.Format(format) == export.Benchfmt {
			return inv.usageError("--only does nothing with --to benchfmt: it holds every figure, and benchstat chooses units with -filter")
		}
		part = p
	}
	if len(files) != 1 {
		return inv.usageError("want one results file, RESULTS.json, got %d argument(s)", len(files))
	}
	if err := limits.Parse(); err != nil {
		return inv.usageError("%v", err)
	}
	if err := checkOutputPath(*out); err != nil {
		return inv.fail("%v", err)
	}
	rs, err := readRows(ctx, limits, files[0], "nothing to export")
	if err != nil {
		return inv.badInput("", err)
	}
	// Streamed to the output as rendered: benchfmt writes a line per
	// sample, far more than the file holds (-o is still replaced
	// atomically, only once complete).
	write := func(w io.Writer) error { return export.WritePart(inv.live(w), rs, export.Format(format), part) }
	if *out != "" {
		err = atomicfile.WriteStream(*out, 0o644, write)
		var fe *atomicfile.Error
		if (errors.Is(err, export.ErrAmbiguousNames) || errors.Is(err, export.ErrNothingOfPart)) && errors.As(err, &fe) {
			err = fe.Err // the file's fault, said as without -o
		} else {
			err = writeError("results", err)
		}
	} else {
		bw := bufio.NewWriterSize(inv.stdout, 64<<10)
		if err = write(bw); err == nil {
			err = bw.Flush()
		}
		if inv.stdoutFailed() {
			err = nil // run reports it
		}
	}
	if errors.Is(err, export.ErrAmbiguousNames) || errors.Is(err, export.ErrNothingOfPart) {
		return inv.badInput(files[0]+": ", err)
	}
	if err != nil {
		return inv.fail("%v", err)
	}
	if failed := export.Failed(rs); len(failed) > 0 {
		for _, k := range failed {
			fmt.Fprintf(inv.stderr, "memprof export: %s failed to measure in %s: it has no figure to export\n", k, files[0])
		}
		return exitFailure
	}
	return exitOK
}
