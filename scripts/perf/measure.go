package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"
)

// timing is the wall time of a command and the CPU time (user and
// system) of its whole process tree: the command and every descendant it
// waited for, as the kernel accumulates them into the rusage that
// wait4(2) returns.
type timing struct{ wall, cpu time.Duration }

// results is what a target's runs measured.
type results struct {
	// baselineCPU is the CPU time of the test binary running no
	// benchmark, one per run: what a floor's process tree costs besides
	// the floor.
	baselineCPU []time.Duration
	floors      []floorRun
	measure     *benchFigures // BenchmarkMeasure; nil if the commit has none for the case
	cli         map[int][]timing
	all         *allRun
	goTest      *goTestRun
}

// floorRun is one BenchmarkFloor run of the case: N, the floor's wall
// time as the benchmark reports it, the test binary's process tree's CPU
// time, and the bytes per instance the floor read.
type floorRun struct {
	n                int
	wall, treeCPU    time.Duration
	bytesPerInstance float64
}

// benchFigures is one sub-benchmark's N and metrics (unit -> value).
type benchFigures struct {
	n       int
	metrics map[string]float64
}

// allRun is one `memprof instances --type all`: its time, its cases and
// how many of them failed, and its exit status.
type allRun struct {
	timing
	cases, failed, exit int
}

// goTestRun is one `go test -count=1 ./...`, with its exit status.
type goTestRun struct {
	timing
	exit int
}

// runTimed runs name with args in dir, its standard output to out, and
// returns its timing; an error carries the end of its standard error,
// and the timing is valid whenever the command ran.
func runTimed(ctx context.Context, dir string, out io.Writer, name string, args ...string) (timing, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Stdout = dir, out
	var stderr tail
	cmd.Stderr = &stderr
	ownGroup(cmd)
	start := time.Now()
	err := cmd.Run()
	t := timing{wall: time.Since(start)}
	if cmd.ProcessState != nil {
		t.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	if err != nil {
		return t, commandError(cmd, err, &stderr)
	}
	return t, nil
}

// exitCode is err's exit status, or -1 when the command did not exit.
func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// measureFloor runs the test binary once without a benchmark and once
// with BenchmarkFloor of the case (one iteration): the difference of
// their process trees' CPU is the floor's.
func measureFloor(ctx context.Context, t *target, k caseKey) error {
	base, err := runTimed(ctx, filepath.Join(t.dir, "memprof"), io.Discard, t.test, "-test.run=^$", "-test.bench=^$")
	if err != nil {
		return fmt.Errorf("%s: the engine's test binary: %w", t.rev, err)
	}
	t.res.baselineCPU = append(t.res.baselineCPU, base.cpu)
	var out strings.Builder
	tm, err := runTimed(ctx, filepath.Join(t.dir, "memprof"), &out, t.test, "-test.run=^$", "-test.bench="+k.benchPattern("BenchmarkFloor"), "-test.benchtime=1x")
	if err != nil {
		return fmt.Errorf("%s: BenchmarkFloor: %w", t.rev, err)
	}
	figs := readBench(out.String(), "BenchmarkFloor")
	if len(figs) != 1 || figs[0].metrics["ms/case"] == 0 {
		return nil // this commit has no floor of the case: its ratios are n/a
	}
	t.res.floors = append(t.res.floors, floorRun{
		n:                figs[0].n,
		wall:             time.Duration(figs[0].metrics["ms/case"] * float64(time.Millisecond)),
		treeCPU:          tm.cpu,
		bytesPerInstance: figs[0].metrics["B/instance"],
	})
	return nil
}

// measureEngine runs BenchmarkMeasure of the case, runs iterations: the
// engine in a child of the test binary, without the CLI, and its ratio to
// floors timed between its runs.
func measureEngine(ctx context.Context, t *target, k caseKey, runs int) error {
	var out strings.Builder
	_, err := runTimed(ctx, filepath.Join(t.dir, "memprof"), &out, t.test, "-test.run=^$", "-test.bench="+k.benchPattern("BenchmarkMeasure"), "-test.benchtime="+strconv.Itoa(runs)+"x")
	if err != nil {
		return fmt.Errorf("%s: BenchmarkMeasure: %w", t.rev, err)
	}
	if figs := readBench(out.String(), "BenchmarkMeasure"); len(figs) == 1 && figs[0].metrics["ms/case"] != 0 {
		t.res.measure = &figs[0]
	}
	return nil
}

// benchN reads N from a sub-benchmark's name (case=.../n=N).
var benchN = regexp.MustCompile(`/n=(\d+)(?:/|-|$)`)

// readBench returns the results of bench in Go benchmark format text.
func readBench(text, bench string) []benchFigures {
	var figs []benchFigures
	r := benchfmt.NewReader(strings.NewReader(text), bench)
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		name := string(res.Name.Full())
		if !strings.HasPrefix(name, strings.TrimPrefix(bench, "Benchmark")+"/") {
			continue
		}
		f := benchFigures{metrics: map[string]float64{}}
		if m := benchN.FindStringSubmatch(name); m != nil {
			f.n, _ = strconv.Atoi(m[1])
		}
		for _, v := range res.Values {
			if v.OrigUnit != "" { // the unit as the benchmark wrote it, before benchfmt tidied it
				f.metrics[v.OrigUnit] = v.OrigValue
				continue
			}
			f.metrics[v.Unit] = v.Value
		}
		figs = append(figs, f)
	}
	return figs
}

// measureCase runs `memprof instances` of the one case at n and checks
// that it measured it.
func measureCase(ctx context.Context, t *target, k caseKey, n int, tmp string) error {
	out := filepath.Join(tmp, "case.json")
	args := append([]string{"instances"}, k.cliArgs()...)
	args = append(args, "-n", strconv.Itoa(n), "--format", "json", "-o", out)
	tm, err := runTimed(ctx, t.dir, io.Discard, t.memprof, args...)
	if err != nil {
		return fmt.Errorf("%s: %w", t.rev, err)
	}
	cases, failed, err := countCases(out)
	if err != nil || cases != 1 || failed != 0 {
		return fmt.Errorf("%s: memprof %s: %d cases, %d failed, want 1 measured (%v)", t.rev, strings.Join(args, " "), cases, failed, err)
	}
	if t.res.cli == nil {
		t.res.cli = map[int][]timing{}
	}
	t.res.cli[n] = append(t.res.cli[n], tm)
	return nil
}

// measureTypeAll runs `memprof instances --type all` at memprof's
// default N; a case that fails is counted, not fatal.
func measureTypeAll(ctx context.Context, t *target, tmp string) error {
	out := filepath.Join(tmp, "all.json")
	os.Remove(out)
	tm, err := runTimed(ctx, t.dir, io.Discard, t.memprof, "instances", "--type", "all", "--format", "json", "-o", out)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	cases, failed, rerr := countCases(out)
	if rerr != nil {
		return fmt.Errorf("%s: memprof instances --type all: %w (%v)", t.rev, rerr, err)
	}
	t.res.all = &allRun{timing: tm, cases: cases, failed: failed, exit: exitCode(err)}
	return nil
}

// countCases reads a results file's cases and how many carry an error.
func countCases(file string) (cases, failed int, err error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, 0, err
	}
	var rs struct {
		Instances []struct {
			Error string `json:"error"`
		} `json:"instances"`
	}
	if err := json.Unmarshal(data, &rs); err != nil {
		return 0, 0, fmt.Errorf("reading %s: %w", file, err)
	}
	for _, r := range rs.Instances {
		if r.Error != "" {
			failed++
		}
	}
	return len(rs.Instances), failed, nil
}

// warmGoTest builds and links every test binary of the target without
// running one, so that the timed run finds a warm build cache.
func warmGoTest(ctx context.Context, t *target) error {
	if _, err := runTimed(ctx, t.dir, io.Discard, "go", "test", "-count=1", "-run=^$", "-exec=true", "./..."); err != nil {
		return fmt.Errorf("%s: warming the build cache: %w", t.rev, err)
	}
	return nil
}

// measureGoTest runs `go test -count=1 ./...`; a failing test is
// recorded, and its lines printed to stderr, not fatal.
func measureGoTest(ctx context.Context, t *target, tmp string, stderr io.Writer) error {
	log := filepath.Join(tmp, "go-test.log")
	f, err := os.Create(log)
	if err != nil {
		return err
	}
	defer f.Close()
	tm, err := runTimed(ctx, t.dir, f, "go", "test", "-count=1", "./...")
	if ctx.Err() != nil {
		return ctx.Err()
	}
	t.res.goTest = &goTestRun{timing: tm, exit: exitCode(err)}
	if err != nil {
		fmt.Fprintf(stderr, "perf: %s: go test ./... failed: %v\n", t.rev, err)
		printFailures(log, stderr)
	}
	return nil
}

// printFailures prints the FAIL lines of a go test log.
func printFailures(log string, w io.Writer) {
	data, err := os.ReadFile(log)
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "FAIL") || strings.HasPrefix(strings.TrimSpace(line), "--- FAIL") {
			fmt.Fprintln(w, "  "+line)
		}
	}
}
