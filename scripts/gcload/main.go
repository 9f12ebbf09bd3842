// Command gcload measures what a busy machine does to memprof's GC CPU
// figure and to its wall time (notes/gc-busy-machine.md): it runs
// one memprof command several times with no added processes and as many
// times with CPU-bound processes beside it (sha256sum /dev/zero), the two
// conditions alternated so that a drift of the machine's own load hits
// both alike, and prints, per case, the median gc_cpu_ns_per_instance and
// gc_mark_ns_per_instance of each condition, the median wall time of
// each, their ratios, and the load average before each run.
//
//	go run ./scripts/gcload                        # the command, 3 runs each, 2 hogs
//	go run ./scripts/gcload -runs 5 -hogs 2 -- instances --type PubkeyCache -n 1000000
//
// It exits 1 when a ratio exceeds its bound (-cpu-bound, -wall-bound).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/scripts/internal/host"
	"github.com/memprof/memprof/stats"
)

// defaultArgs is the command of the GC CPU figure's acceptance: blst's map-backed
// PubkeyCache forms at a million entries.
var defaultArgs = []string{"instances", "--type", "PubkeyCache", "--lib", "blst", "--repr", "map-pointer,interface-map", "-n", "1000000"}

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gcload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	runs := fs.Int("runs", 3, "`runs` of each condition")
	hogs := fs.Int("hogs", 2, "CPU-bound `processes` (sha256sum /dev/zero) beside memprof in the loaded runs")
	ownSession := fs.Bool("own-session", false, "start each CPU-bound process in a session of its own (setsid), as another program on the machine is; by default they share memprof's, as processes started from the same shell do (with Linux's autogroup scheduling, a session shares the CPU among its processes)")
	bin := fs.String("memprof", "", "the memprof `binary` (default: built from this module into a temporary directory)")
	cpuBound := fs.Float64("cpu-bound", 0.25, "largest relative `difference` of the loaded median gc_cpu_ns_per_instance from the unloaded one")
	wallBound := fs.Float64("wall-bound", 2.5, "largest `ratio` of the loaded median wall time to the unloaded one")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cmdArgs := fs.Args()
	if len(cmdArgs) == 0 {
		cmdArgs = defaultArgs
	}
	if *runs < 1 || *hogs < 0 {
		fmt.Fprintln(stderr, "gcload: -runs must be at least 1 and -hogs not negative")
		return 2
	}
	dir, err := os.MkdirTemp("", "gcload-*")
	if err != nil {
		fmt.Fprintln(stderr, "gcload:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	if *bin == "" {
		if *bin, err = host.BuildMemprof(ctx, dir, stderr); err != nil {
			fmt.Fprintln(stderr, "gcload: building memprof:", err)
			return 1
		}
	}
	conds := []condition{{name: "no added processes"}, {name: fmt.Sprintf("%d x sha256sum /dev/zero", *hogs), hogs: *hogs}}
	for i := range *runs {
		for c := range conds {
			out := filepath.Join(dir, fmt.Sprintf("run-%d-%d.json", c, i))
			r, err := measure(ctx, *bin, cmdArgs, out, conds[c].hogs, *ownSession)
			if err != nil {
				fmt.Fprintln(stderr, "gcload:", err)
				return 1
			}
			conds[c].runs = append(conds[c].runs, r)
			fmt.Fprintf(stdout, "%-24s run %d: %6.2f s wall, load before %s\n", conds[c].name, i+1, r.wall.Seconds(), r.load)
		}
	}
	return report(stdout, conds, *cpuBound, *wallBound)
}

// condition is one set of runs: with hogs CPU-bound processes beside
// memprof.
type condition struct {
	name string
	hogs int
	runs []runResult
}

// runResult is what one run measured: its wall time, the load average
// before it, and the GC figures of each case.
type runResult struct {
	wall      time.Duration
	load      string
	cpu, mark map[string]float64
	caseOrder []string
}

// measure runs memprof once with hogs CPU-bound processes beside it
// (started before, killed after; each in a session of its own when
// ownSession) and reads its results.
func measure(ctx context.Context, bin string, args []string, out string, hogs int, ownSession bool) (runResult, error) {
	var r runResult
	var procs []*exec.Cmd
	defer func() {
		for _, p := range procs {
			p.Process.Kill()
			p.Wait()
		}
	}()
	for range hogs {
		p := exec.CommandContext(ctx, "sha256sum", "/dev/zero")
		if ownSession {
			newSession(p)
		}
		if err := p.Start(); err != nil {
			return r, fmt.Errorf("starting sha256sum: %w", err)
		}
		procs = append(procs, p)
	}
	r.load = host.LoadAverage()
	cmd := exec.CommandContext(ctx, bin, append(slices.Clone(args), "--format", "json", "-o", out)...)
	cmd.Stderr = os.Stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return r, fmt.Errorf("%s %s: %w", bin, strings.Join(args, " "), err)
	}
	r.wall = time.Since(start)
	rs, err := results.Reader{}.ReadFile(out)
	if err != nil {
		return r, err
	}
	r.cpu, r.mark = map[string]float64{}, map[string]float64{}
	for _, row := range rs.Instances {
		if row.Error != "" {
			return r, fmt.Errorf("case %s: %s", row.Key, row.Error)
		}
		name := row.Key.String()
		r.caseOrder = append(r.caseOrder, name)
		r.mark[name] = row.GCMarkNsPerInstance
		if len(row.GCCPUSamplesNs) == 0 {
			continue // no CPU figure: the ratio is NaN and beyond the bound
		}
		r.cpu[name] = row.GCCPUNsPerInstance
	}
	return r, nil
}

// report prints the medians and ratios and returns 1 when a bound is
// exceeded.
func report(w io.Writer, conds []condition, cpuBound, wallBound float64) int {
	base, loaded := conds[0], conds[1]
	code := 0
	fmt.Fprintf(w, "\n%-48s %14s %14s %8s %14s %14s\n", "case (medians)", "cpu ns, none", "cpu ns, added", "ratio", "mark ns, none", "mark ns, added")
	for _, name := range base.runs[0].caseOrder {
		qc, lc := median(base.runs, func(r runResult) (float64, bool) { v, ok := r.cpu[name]; return v, ok }),
			median(loaded.runs, func(r runResult) (float64, bool) { v, ok := r.cpu[name]; return v, ok })
		qm, lm := median(base.runs, func(r runResult) (float64, bool) { return r.mark[name], true }),
			median(loaded.runs, func(r runResult) (float64, bool) { return r.mark[name], true })
		ratio := lc / qc
		verdict := "ok"
		if math.IsNaN(ratio) || math.Abs(ratio-1) > cpuBound {
			verdict, code = fmt.Sprintf("beyond %.0f%%", 100*cpuBound), 1
		}
		fmt.Fprintf(w, "%-48s %14.1f %14.1f %8.3f %14.1f %14.1f  %s\n", name, qc, lc, ratio, qm, lm, verdict)
	}
	qw := median(base.runs, func(r runResult) (float64, bool) { return r.wall.Seconds(), true })
	lw := median(loaded.runs, func(r runResult) (float64, bool) { return r.wall.Seconds(), true })
	verdict := "ok"
	if lw/qw > wallBound {
		verdict, code = fmt.Sprintf("beyond %.1fx", wallBound), 1
	}
	fmt.Fprintf(w, "%-48s %13.2fs %13.2fs %8.3f  %s\n", "wall time", qw, lw, lw/qw, verdict)
	return code
}

// median is the median of f over the runs it has a value for; NaN for
// none.
func median(runs []runResult, f func(runResult) (float64, bool)) float64 {
	var vs []float64
	for _, r := range runs {
		if v, ok := f(r); ok {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return math.NaN()
	}
	q, err := stats.SummarizeSamples(vs)
	if err != nil {
		return math.NaN()
	}
	return q.Median
}
