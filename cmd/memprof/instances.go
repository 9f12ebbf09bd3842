package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
)

func init() {
	register(&command{
		Name:      "instances",
		UsageLine: "instances --type T [--lib L,...] [--repr R,...] [--layout pointer|slice] [-n N] [--format table|json|markdown|csv|bench] [-o FILE] [--profile-dir DIR]",
		Short:     "measure bytes per instance of each library and representation",
		Long: `Instances allocates N instances of each selected case in a fresh child
process at runtime.MemProfileRate=1, keeps them alive, writes a heap profile
and attributes its in-use bytes and objects to the instance constructor. It
prints bytes and allocations per instance, the representation's unsafe.Sizeof,
the slot size the allocator used, off-heap runtime memory, the HeapAlloc
cross-check, the harness's holder, the C heap, the RSS growth and the part of
it nothing above explains (unaccounted), and the allocation sites.

Off-heap, RSS and unaccounted bytes are known only to a resolution (in JSON
offheap_resolution_bytes_per_instance, 512 KiB / N, and
rss_resolution_bytes_per_instance, 2 x (256 KiB + one page) / N): tables
print ~0 for a figure within it, and n/a (N too small) for an RSS or
unaccounted figure whose resolution is larger than the instance itself.

Type, library and representation names are case-insensitive. Exit status is
0 when every case was measured, 1 when any failed, 2 for a usage error.

` + nothingMeasuredHelp + `

` + flagsHelp,
		Run: runInstances,
	})
}

// measureOptions are the flags shared by the commands that measure
// instances.
type measureOptions struct {
	n          int
	nSet       bool // -n was given: it overrides the entries' own DefaultN
	jobs       int
	profileDir string
	// started, when set, is called as each case starts (for progress).
	started func(e suites.Entry)
	// sweep, when not empty, measures each case also at these N and fits
	// bytes = a + b*N.
	sweep []int
}

// nFor is the number of instances to measure for e.
func (mo measureOptions) nFor(e suites.Entry) int {
	if !mo.nSet && e.DefaultN > 0 {
		return e.DefaultN
	}
	return mo.n
}

func runInstances(ctx context.Context, inv *invocation, args []string) int {
	fs := inv.flags()
	var sel selection
	sel.addFlags(fs, "pointer")
	var mo measureOptions
	fs.IntVar(&mo.n, "n", memprof.DefaultN, "number of instances per case (scenario types default to their real scale, 1000000)")
	fs.IntVar(&mo.jobs, "jobs", runtime.GOMAXPROCS(0), "child processes run at once")
	fs.StringVar(&mo.profileDir, "profile-dir", "", "keep each case's raw heap profile in `dir`")
	sweep := fs.Bool("sweep", false, "also measure each case at several N (--sweep-n) and fit bytes = a + b*N, reporting the slope's 95% confidence interval and R²")
	sweepN := fs.String("sweep-n", "1000,10000,100000,1000000", "the `N values` of --sweep, comma-separated")
	format := fs.String("format", "table", "output `format`: table, json, markdown, csv or bench")
	out := fs.String("o", "", "write the output to `file` (atomically) instead of stdout")
	withThroughput := fs.Bool("with-throughput", false, "also time the operations of the selected types (as memprof throughput does, after the agreement check) and print, per type, bytes per instance beside them")
	var to throughputOptions
	to.addFlags(fs)
	if code, done := inv.parse(fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return inv.usageError("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	if err := checkFlags(fs, inert{*withThroughput, "without --with-throughput", []string{"op", "samples", "min-sample"}},
		inert{*sweep, "without --sweep", []string{"sweep-n"}}); err != nil {
		return inv.usageError("%v", err)
	}
	fs.Visit(func(f *flag.Flag) { mo.nSet = mo.nSet || f.Name == "n" })
	formats := []string{"table", "json", "markdown", "csv", "bench"}
	f, err := model.Canonical("format", *format, formats)
	if err != nil {
		return inv.usageError("%v", err)
	}
	entries, unavailable, err := sel.resolve(true)
	if err != nil {
		return inv.usageError("%v", err)
	}
	if len(entries) == 0 {
		return inv.refuseNothing(sel.describe(), "case", unavailableReasons(unavailable))
	}
	if mo.n <= 0 {
		return inv.usageError("-n must be positive, got %d", mo.n)
	}
	if mo.jobs <= 0 {
		return inv.usageError("--jobs must be positive, got %d", mo.jobs)
	}
	if *sweep {
		if mo.sweep, err = parseSweep(*sweepN); err != nil {
			return inv.usageError("%v", err)
		}
	}
	var ops []suites.Op
	if *withThroughput {
		if ops, err = sel.throughputOps(to); err != nil {
			return inv.usageError("%v", err)
		}
		if len(ops) == 0 {
			return inv.usageError("--with-throughput does nothing: %s", noOpMatches(&sel, to))
		}
	}
	if err := checkOutputPath(*out); err != nil {
		return inv.fail("%v", err)
	}
	if err := checkMemoryFor(entries, mo); err != nil {
		return inv.fail("%v", err)
	}
	rs := &model.Results{Schema: model.Schema, Env: memprof.CurrentEnv(registry().Modules()...), Unavailable: unavailable}
	rs.Instances = measureEntries(ctx, entries, mo)
	render.SortInstances(rs.Instances)
	throughputCode := exitOK
	if *withThroughput && len(ops) > 0 {
		throughputCode = measureOps(ctx, inv, rs, ops, to)
		if rs.Agreement != nil && !rs.Agreement.OK {
			return throughputCode // nothing is printed after a disagreement
		}
	}

	var buf bytes.Buffer
	switch f {
	case "json":
		err = rs.WriteJSON(&buf)
	case "markdown", "csv", "bench":
		err = renderAs(&buf, f, rs)
	default:
		err = render.InstancesTable(&buf, rs)
		if err == nil && *withThroughput {
			err = render.TradeoffTables(&buf, rs)
		}
	}
	if err != nil {
		return inv.fail("rendering: %v", err)
	}
	if err := writeOutput(inv, *out, buf.Bytes()); err != nil {
		return inv.fail("%v", err)
	}
	code := throughputCode
	for _, r := range rs.Instances {
		if r.Error != "" {
			fmt.Fprintf(inv.stderr, "memprof instances: %s\n", r.Error)
			code = exitFailure
		}
	}
	return code
}

// checkMemoryFor refuses, before anything is allocated, an N whose
// estimated memory exceeds what the machine has.
func checkMemoryFor(entries []suites.Entry, mo measureOptions) error {
	for _, e := range entries {
		if err := memprof.CheckMemory(mo.nFor(e), uint64(max(e.SizeHint, 1))); err != nil {
			return fmt.Errorf("%s: %w", e.Key, err)
		}
	}
	return nil
}

// measureEntries measures each entry in its own child process, mo.jobs at a
// time. A failed case becomes a Result carrying its error; the others still
// run.
func measureEntries(ctx context.Context, entries []suites.Entry, mo measureOptions) []model.Result {
	results := make([]model.Result, len(entries))
	sem := make(chan struct{}, mo.jobs)
	var wg sync.WaitGroup
	for i, e := range entries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if mo.started != nil {
				mo.started(e)
			}
			results[i] = measureEntry(ctx, e, mo)
		}()
	}
	wg.Wait()
	return results
}

func measureEntry(ctx context.Context, e suites.Entry, mo measureOptions) model.Result {
	var profile string
	if mo.profileDir != "" {
		if err := os.MkdirAll(mo.profileDir, 0o755); err != nil {
			return failedResult(e, mo.nFor(e), err)
		}
		name := strings.NewReplacer("/", "_", "=", "-").Replace(e.BenchName()) + ".pb.gz"
		profile = filepath.Join(mo.profileDir, name)
	}
	m, err := memprof.MeasureInChild(ctx, memprof.Child{}, e.BenchName(), profile, memprof.N(mo.nFor(e)))
	if err != nil {
		return failedResult(e, mo.nFor(e), err)
	}
	r := model.Result{Key: e.Key, Constructor: e.Constructor, Measurement: *m}
	if len(mo.sweep) > 0 {
		var points []model.SweepPoint
		for _, n := range mo.sweep {
			p, err := memprof.MeasureInChild(ctx, memprof.Child{}, e.BenchName(), "", memprof.N(n))
			if err != nil {
				return failedResult(e, n, fmt.Errorf("sweep at N=%d: %w", n, err))
			}
			points = append(points, model.SweepPoint{N: n, Bytes: p.BytesPerInstance * float64(n), BytesPerInstance: p.BytesPerInstance})
		}
		if r.Sweep, err = memprof.FitSweep(points); err != nil {
			return failedResult(e, mo.nFor(e), err)
		}
	}
	return r
}

// parseSweep reads the --sweep-n list: at least three distinct positive N.
func parseSweep(v string) ([]int, error) {
	var ns []int
	for _, part := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("--sweep-n: %q is not a positive integer", part)
		}
		if slices.Contains(ns, n) {
			return nil, fmt.Errorf("--sweep-n: %d appears twice", n)
		}
		ns = append(ns, n)
	}
	if len(ns) < 3 {
		return nil, fmt.Errorf("--sweep-n needs at least 3 values of N for a confidence interval, got %d", len(ns))
	}
	return ns, nil
}

func failedResult(e suites.Entry, n int, err error) model.Result {
	return model.Result{Key: e.Key, Constructor: e.Constructor, Measurement: model.Measurement{N: n}, Error: err.Error()}
}
