// Command rowlimit measures memprof's commands that read results files on
// a file at the row limit (results.DefaultMaxRows rows, shaped as a real
// run writes them: testresults.Make), as docs/gate.md promises them
// bounded:
//
//  1. each command's peak resident set and wall time, under
//     /usr/bin/time (its child's own peak, from wait4);
//  2. report --from's wall time;
//  3. how long report --from takes to stop after a SIGINT or SIGTERM
//     sent at points spread over its run, its exit code (130 or 143) and
//     what it leaves behind (nothing: no --out, no temporary directory).
//
// -spread moves each instance row's GC CPU time and bytes apart, so that
// every point of the GC chart is a place of its own (a real run's copies
// coincide): the chart's worst case.
//
// It prints the figures as Markdown tables with the machine's cores and
// the load average before each run, and exits 1 when a figure passes its
// bound (-max-rss, -max-report, -max-stop) or a stopped run leaves
// anything behind.
//
//	go run ./scripts/rowlimit
//	go run ./scripts/rowlimit -rows 10000 -stops 4 -memprof ./memprof
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/memprof/memprof/internal/testresults"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/scripts/internal/host"
	"github.com/memprof/memprof/stats"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// command is one memprof command that reads the results file.
type command struct {
	name string
	args []string
}

// commands returns the commands that read results files, on the files
// of dir: every format of show, compare and export, check and check
// --update, report --from.
func commands(dir string) []command {
	results, budgets := filepath.Join(dir, "results.json"), filepath.Join(dir, "budgets.yaml")
	cs := []command{
		{"check", []string{"check", "--results", results, "--budgets", budgets}},
		{"check --format markdown", []string{"check", "--format", "markdown", "--results", results, "--budgets", budgets}},
		{"check --update", []string{"check", "--update", "--results", results, "--budgets", filepath.Join(dir, "update.yaml")}},
	}
	for _, f := range []string{"table", "markdown", "json"} {
		cs = append(cs, command{"compare --format " + f, []string{"compare", "--format", f, results, results}})
	}
	for _, f := range []string{"table", "json", "markdown", "csv", "bench"} {
		cs = append(cs, command{"show --format " + f, []string{"show", "--format", f, results}})
	}
	for _, to := range []string{"github-action-benchmark", "bencher", "benchfmt"} {
		cs = append(cs, command{"export --to " + to, []string{"export", "--to", to, results}})
	}
	for _, only := range []string{"memory", "time"} {
		cs = append(cs, command{"export --to github-action-benchmark --only " + only, []string{"export", "--to", "github-action-benchmark", "--only", only, results}})
	}
	return append(cs, command{"report --from", reportArgs(results, filepath.Join(dir, "review"))})
}

func reportArgs(results, out string) []string {
	return []string{"report", "--from", results, "--out", out}
}

// options are rowlimit's flags.
type options struct {
	rows, stops        int
	bin, dir           string
	maxRSS             float64
	maxReport, maxStop time.Duration
	spread             bool
}

// parseFlags reads the flags; false means a usage error, said on stderr.
func parseFlags(args []string, stderr io.Writer) (options, bool) {
	var o options
	fs := flag.NewFlagSet("rowlimit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&o.rows, "rows", results.DefaultMaxRows, "`rows` of the results file")
	fs.StringVar(&o.bin, "memprof", "", "the memprof `binary` (default: built from this module into a temporary directory)")
	fs.IntVar(&o.stops, "stops", 6, "`times` report --from is interrupted, at points spread over its run, SIGINT and SIGTERM in turn")
	fs.Float64Var(&o.maxRSS, "max-rss", 300e6, "largest peak resident set of a command, in `bytes`")
	fs.DurationVar(&o.maxReport, "max-report", 60*time.Second, "longest `time` report --from may take")
	fs.DurationVar(&o.maxStop, "max-stop", 2*time.Second, "longest `time` report --from may take to stop after a signal")
	fs.BoolVar(&o.spread, "spread", false, "give each instance row GC CPU figures and bytes of its own (every point of the GC chart apart)")
	fs.StringVar(&o.dir, "dir", "", "write the files into `dir` and keep them (default: a temporary directory, removed)")
	if err := fs.Parse(args); err != nil {
		return o, false
	}
	if fs.NArg() > 0 || o.rows < 1 || o.stops < 0 {
		fmt.Fprintln(stderr, "rowlimit: no arguments; -rows must be at least 1 and -stops not negative")
		return o, false
	}
	return o, true
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, ok := parseFlags(args, stderr)
	if !ok {
		return 2
	}
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		fmt.Fprintln(stderr, "rowlimit: measures peak RSS with GNU time: /usr/bin/time:", err)
		return 1
	}
	dir := o.dir
	if dir == "" {
		d, err := os.MkdirTemp("", "rowlimit-*")
		if err != nil {
			fmt.Fprintln(stderr, "rowlimit:", err)
			return 1
		}
		defer os.RemoveAll(d)
		dir = d
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(stderr, "rowlimit:", err)
		return 1
	}
	if o.bin == "" {
		var err error
		if o.bin, err = host.BuildMemprof(ctx, dir, stderr); err != nil {
			fmt.Fprintln(stderr, "rowlimit: building memprof:", err)
			return 1
		}
	}
	size, err := writeFiles(dir, o.rows, o.spread)
	if err != nil {
		fmt.Fprintln(stderr, "rowlimit:", err)
		return 1
	}
	shape := "a real run's rows, copied"
	if o.spread {
		shape += ", each GC chart point apart"
	}
	fmt.Fprintf(stdout, "%d rows (%s; %.1f MB), %d cores (GOMAXPROCS %d), %s\n\n", o.rows, shape, float64(size)/1e6, runtime.NumCPU(), runtime.GOMAXPROCS(0), host.GoVersion())

	reportWall, failed, err := measureCommands(ctx, o, dir, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "rowlimit:", err)
		return 1
	}
	if o.stops > 0 {
		over, err := measureStops(ctx, o, dir, reportWall, stdout)
		if err != nil {
			fmt.Fprintln(stderr, "rowlimit:", err)
			return 1
		}
		failed = failed || over
	}
	fmt.Fprintf(stdout, "\nbounds: peak RSS %.0f MB, report --from %s, stop %s; load after: %s\n", o.maxRSS/1e6, o.maxReport, o.maxStop, host.LoadAverage())
	if failed {
		fmt.Fprintln(stderr, "rowlimit: a figure passed its bound")
		return 1
	}
	return 0
}

// measureCommands runs each command once under /usr/bin/time and prints
// its row; it returns report --from's wall time and whether a figure
// passed its bound.
func measureCommands(ctx context.Context, o options, dir string, stdout io.Writer) (reportWall time.Duration, failed bool, err error) {
	fmt.Fprintln(stdout, "| command | peak RSS | wall | user+sys CPU | exit | load before |")
	fmt.Fprintln(stdout, "|---|---:|---:|---:|---:|---|")
	for _, c := range commands(dir) {
		os.RemoveAll(filepath.Join(dir, "review"))
		if err := copyFile(filepath.Join(dir, "budgets.yaml"), filepath.Join(dir, "update.yaml")); err != nil {
			return 0, false, err
		}
		load := host.LoadAverage()
		m, err := timed(ctx, o.bin, c.args)
		if err != nil {
			return 0, false, fmt.Errorf("%s: %w", c.name, err)
		}
		mark := ""
		if float64(m.rss) > o.maxRSS || m.exit > 1 {
			mark, failed = " **over**", true
		}
		if c.args[0] == "report" {
			reportWall = m.wall
			if m.wall > o.maxReport {
				mark, failed = " **over**", true
			}
		}
		fmt.Fprintf(stdout, "| %s | %.0f MB | %.1f s | %.1f s | %d%s | %s |\n", c.name, float64(m.rss)/1e6, m.wall.Seconds(), m.cpu.Seconds(), m.exit, mark, load)
	}
	os.RemoveAll(filepath.Join(dir, "review"))
	return reportWall, failed, nil
}

// measureStops interrupts report --from o.stops times, at points spread
// over its run of reportWall, prints a row for each, and returns whether
// a stop passed its bound or left anything behind.
func measureStops(ctx context.Context, o options, dir string, reportWall time.Duration, stdout io.Writer) (failed bool, err error) {
	fmt.Fprintf(stdout, "\nreport --from interrupted (its run: %.1f s)\n\n", reportWall.Seconds())
	fmt.Fprintln(stdout, "| signal | sent after | stopped in | exit | left behind | load before |")
	fmt.Fprintln(stdout, "|---|---:|---:|---:|---|---|")
	for i := range o.stops {
		sig := []syscall.Signal{syscall.SIGINT, syscall.SIGTERM}[i%2]
		after := reportWall * time.Duration(i+1) / time.Duration(o.stops+1)
		load := host.LoadAverage()
		s, err := stopped(ctx, o.bin, filepath.Join(dir, "results.json"), filepath.Join(dir, fmt.Sprintf("stop-%d", i)), sig, after)
		if err != nil {
			return false, err
		}
		mark := ""
		want := 128 + int(sig)
		if s.exit != want && !s.finished || s.took > o.maxStop || len(s.left) > 0 {
			mark, failed = " **over**", true
		}
		left := "nothing"
		if len(s.left) > 0 {
			left = strings.Join(s.left, ", ")
		}
		took := fmt.Sprintf("%.2f s", s.took.Seconds())
		if s.finished {
			took = "finished first"
		}
		fmt.Fprintf(stdout, "| %s | %.1f s | %s | %d%s | %s | %s |\n", sigName(sig), after.Seconds(), took, s.exit, mark, left, load)
	}
	return failed, nil
}

// writeFiles writes the results file of rows rows into dir (spread: the
// GC chart's points apart), and the budgets of its cases, and returns the
// results file's size.
func writeFiles(dir string, rows int, spread bool) (int, error) {
	rs, err := testresults.Make(rows, 8)
	if err != nil {
		return 0, err
	}
	if spread {
		if err := spreadPoints(rs); err != nil {
			return 0, err
		}
	}
	var buf bytes.Buffer
	if err := rs.WriteJSON(&buf); err != nil {
		return 0, err
	}
	if err := os.WriteFile(filepath.Join(dir, "results.json"), buf.Bytes(), 0o644); err != nil {
		return 0, err
	}
	return buf.Len(), os.WriteFile(filepath.Join(dir, "budgets.yaml"), testresults.Budgets(rs), 0o644)
}

// spreadPoints gives each instance row with GC CPU figures samples and
// bytes of its own, the samples above their resolution, so that no two
// points of the GC chart coincide and none is drawn at zero.
func spreadPoints(rs *results.File) error {
	for i := range rs.Instances {
		r := &rs.Instances[i]
		if len(r.GCCPUSamplesNs) == 0 {
			continue
		}
		for k := range r.GCCPUSamplesNs {
			r.GCCPUSamplesNs[k] = r.GCCPUResolution + float64(100+i%997+k)
		}
		q, err := stats.SummarizeSamples(r.GCCPUSamplesNs)
		if err != nil {
			return err
		}
		r.GCCPUNsPerInstance, r.GCCPUNsPerInstanceQ1, r.GCCPUNsPerInstanceQ3 = q.Median, q.Q1, q.Q3
		r.BytesPerInstance += float64(i % 113)
	}
	return rs.Validate()
}

// measurement is what one run of a command cost.
type measurement struct {
	rss       int64 // bytes
	wall, cpu time.Duration
	exit      int
}

// timed runs memprof args under /usr/bin/time, its output discarded, and
// returns its peak resident set (the child's own: GNU time forks and
// reads wait4's maximum), wall and CPU time and exit code.
func timed(ctx context.Context, bin string, args []string) (measurement, error) {
	var m measurement
	report, err := os.CreateTemp("", "rowlimit-time-*")
	if err != nil {
		return m, err
	}
	report.Close()
	defer os.Remove(report.Name())
	cmd := exec.CommandContext(ctx, "/usr/bin/time", append([]string{"-o", report.Name(), "-f", "%M %e %U %S %x", bin}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return m, err
	}
	b, rerr := os.ReadFile(report.Name())
	if rerr != nil {
		return m, rerr
	}
	// GNU time writes "Command exited with non-zero status N" first
	// when the command fails: the figures are the last line.
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var kb int64
	var wall, user, sys float64
	if _, err := fmt.Sscanf(lines[len(lines)-1], "%d %f %f %f %d", &kb, &wall, &user, &sys, &m.exit); err != nil {
		return m, fmt.Errorf("reading /usr/bin/time's figures %q: %w", b, err)
	}
	if m.exit > 1 {
		return m, fmt.Errorf("exit %d: %s", m.exit, lastLines(stderr.String(), 5))
	}
	m.rss = kb * 1024
	m.wall = time.Duration(wall * float64(time.Second))
	m.cpu = time.Duration((user + sys) * float64(time.Second))
	return m, nil
}

// stop is how one interrupted report --from ended.
type stop struct {
	took     time.Duration // from the signal to its exit
	exit     int
	finished bool     // it was done before the signal
	left     []string // what is in its directory after it
}

// stopped runs report --from results into an empty directory dir, sends
// it sig after the given time and returns how long it took to exit, its
// exit code and what it left in dir.
func stopped(ctx context.Context, bin, results, dir string, sig syscall.Signal, after time.Duration) (stop, error) {
	var s stop
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return s, err
	}
	defer os.RemoveAll(dir)
	cmd := exec.CommandContext(ctx, bin, reportArgs(results, filepath.Join(dir, "review"))...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return s, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
		s.finished = true
	case <-time.After(after):
		sent := time.Now()
		if serr := cmd.Process.Signal(sig); serr != nil {
			return s, serr
		}
		err = <-done
		s.took = time.Since(sent)
	}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		s.exit = exit.ExitCode()
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			s.exit = 128 + int(ws.Signal()) // killed by the signal, not stopped by memprof
		}
	case err != nil:
		return s, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return s, err
	}
	for _, e := range entries {
		if !(s.finished && e.Name() == "review") {
			s.left = append(s.left, e.Name())
		}
	}
	return s, nil
}

func sigName(s syscall.Signal) string {
	if s == syscall.SIGINT {
		return "SIGINT"
	}
	return "SIGTERM"
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(len(lines)-n, 0):], "\n")
}
