//go:build linux

// Command gctruth is the truth of memprof's GC CPU figure
// (gc_cpu_ns_per_instance), with no memprof code: it times forced
// collections (runtime.GC) by the process's CPU clock
// (CLOCK_PROCESS_CPUTIME_ID) with N objects of [288]byte live and with
// their holder alone, alternating blocks of each so that a drift of the
// machine hits both alike, and prints the median over the blocks of the
// difference of each pair's medians, over N: the CPU one collection
// spends per object (docs/gc.md, "GC CPU").
//
//	go run ./scripts/gctruth                 # N = 100,000, 41 blocks of 5 cycles, at GOMAXPROCS 1
//	go run ./scripts/gctruth -procs 2        # as many Ps as memprof's GC pass had before it ran on one
//
// The collections run at -procs Ps (1 by default, as memprof's GC pass
// runs them): with more, the collector's idle mark workers spin for work
// on the Ps the marking leaves idle, CPU time that follows the scheduler
// rather than the objects.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"slices"

	"golang.org/x/sys/unix"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gctruth", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 100_000, "`objects` of [288]byte live in the live blocks")
	blocks := fs.Int("blocks", 41, "pairs of `blocks` (live, then holder alone)")
	cycles := fs.Int("cycles", 5, "forced `collections` per block")
	procs := fs.Int("procs", 1, "GOMAXPROCS the collections run at")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *n < 1 || *blocks < 1 || *cycles < 1 || *procs < 1 || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "gctruth: -n, -blocks, -cycles and -procs must be positive, and no arguments")
		return 2
	}
	runtime.GOMAXPROCS(*procs)
	debug.SetGCPercent(-1)
	diffs := make([]float64, 0, *blocks)
	live, empty := make([]float64, *cycles), make([]float64, *cycles)
	holder := make([]*[288]byte, *n)
	for range *blocks {
		for i := range holder {
			holder[i] = new([288]byte)
		}
		runtime.GC()
		if err := timeCycles(live); err != nil {
			fmt.Fprintln(stderr, "gctruth:", err)
			return 1
		}
		clear(holder)
		runtime.GC()
		debug.FreeOSMemory()
		if err := timeCycles(empty); err != nil {
			fmt.Fprintln(stderr, "gctruth:", err)
			return 1
		}
		diffs = append(diffs, (median(live)-median(empty))/float64(*n))
	}
	runtime.KeepAlive(holder)
	slices.Sort(diffs)
	q := func(p float64) float64 { return diffs[int(p*float64(len(diffs)-1)+0.5)] }
	fmt.Fprintf(stdout, "GC CPU per [288]byte per cycle, N = %d, GOMAXPROCS %d, %d blocks of %d cycles: median %.2f ns, quartiles %.2f to %.2f ns\n",
		*n, *procs, *blocks, *cycles, q(0.5), q(0.25), q(0.75))
	return 0
}

// timeCycles forces len(into) collections and sets, for each, the CPU
// time the process's threads spent across it.
func timeCycles(into []float64) error {
	var ts unix.Timespec
	for i := range into {
		if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
			return fmt.Errorf("reading the process's CPU clock: %w", err)
		}
		start := ts.Nano()
		runtime.GC()
		if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
			return fmt.Errorf("reading the process's CPU clock: %w", err)
		}
		into[i] = float64(ts.Nano() - start)
	}
	return nil
}

// median is the middle of vs (the mean of the two middle ones for an
// even count); vs is sorted in place.
func median(vs []float64) float64 {
	slices.Sort(vs)
	m := len(vs) / 2
	if len(vs)%2 == 0 {
		return (vs[m-1] + vs[m]) / 2
	}
	return vs[m]
}
