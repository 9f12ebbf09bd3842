package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// measureAll prepares the targets, measures each step for each target in
// turn, and reports.
func measureAll(ctx context.Context, cfg config, stdout, stderr io.Writer) error {
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	root, err := gitRoot(ctx, cwd)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "memprof-perf-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	run := runInfo{started: time.Now().UTC(), machine: describeMachine(ctx, root), caseKey: cfg.caseKey, ns: cfg.ns, runs: cfg.runs}
	run.loadStart = uptime(ctx)
	fmt.Fprintln(stderr, "perf: start:", run.loadStart)
	targets, cleanup, err := prepareTargets(ctx, root, tmp, cfg.revs, stderr)
	defer cleanup()
	if err != nil {
		return err
	}
	run.targets = targets
	for _, s := range steps(cfg, tmp, stderr) {
		for _, t := range targets {
			fmt.Fprintf(stderr, "perf: %s: %s\n", t.label(), s.name)
			if err := s.do(ctx, t); err != nil {
				return err
			}
		}
	}
	run.loadEnd = uptime(ctx)
	fmt.Fprintln(stderr, "perf: end:", run.loadEnd)
	return report(cfg, root, run, stdout, stderr)
}

// step is one measurement, made on each target in turn.
type step struct {
	name string
	do   func(context.Context, *target) error
}

// steps lists the measurements in the order they run: each run of the
// floor, the engine, each run of the case at each N, then --type all
// and go test.
func steps(cfg config, tmp string, stderr io.Writer) []step {
	var s []step
	for i := range cfg.runs {
		s = append(s, step{fmt.Sprintf("floor, run %d of %d", i+1, cfg.runs), func(ctx context.Context, t *target) error {
			return measureFloor(ctx, t, cfg.caseKey)
		}})
	}
	s = append(s, step{"engine (BenchmarkMeasure)", func(ctx context.Context, t *target) error {
		return measureEngine(ctx, t, cfg.caseKey, cfg.runs)
	}})
	for i := range cfg.runs {
		for _, n := range cfg.ns {
			s = append(s, step{fmt.Sprintf("memprof instances %s -n %d, run %d of %d", strings.Join(cfg.caseKey.cliArgs(), " "), n, i+1, cfg.runs), func(ctx context.Context, t *target) error {
				return measureCase(ctx, t, cfg.caseKey, n, tmp)
			}})
		}
	}
	if cfg.typeAll {
		s = append(s, step{"memprof instances --type all", func(ctx context.Context, t *target) error {
			return measureTypeAll(ctx, t, tmp)
		}})
	}
	if cfg.goTest {
		s = append(s, step{"go test -count=1 -run=^$ -exec=true ./... (warming the build cache)", warmGoTest})
		s = append(s, step{"go test -count=1 ./...", func(ctx context.Context, t *target) error {
			return measureGoTest(ctx, t, tmp, stderr)
		}})
	}
	return s
}

// runInfo is one run of this command: when, where, what, and the load.
type runInfo struct {
	started            time.Time
	machine            string
	loadStart, loadEnd string
	caseKey            caseKey
	ns                 []int
	runs               int
	targets            []*target
}

// report prints the tables, and writes them into the documentation's
// section and the dated note as cfg asks.
func report(cfg config, root string, run runInfo, stdout, stderr io.Writer) error {
	fmt.Fprintf(stdout, "%s\n", renderRun(run, true))
	if cfg.note != "" {
		if err := appendNote(inTree(root, cfg.note), run, cfg.arguments); err != nil {
			return err
		}
		fmt.Fprintln(stderr, "perf: appended to", cfg.note)
	}
	if cfg.docs == "" {
		return nil
	}
	last := run.targets[len(run.targets)-1]
	if last.rev != "." {
		fmt.Fprintf(stderr, "perf: %s not written: the last target, %s, is not the working tree (-rev . last)\n", cfg.docs, last.rev)
		return nil
	}
	docRun := run
	docRun.targets = []*target{last}
	if err := writeDocSection(inTree(root, cfg.docs), renderRun(docRun, false)); err != nil {
		return err
	}
	fmt.Fprintln(stderr, "perf: wrote the measured section of", cfg.docs)
	return nil
}

// inTree is file relative to the working tree's root, unless absolute.
func inTree(root, file string) string {
	if filepath.IsAbs(file) {
		return file
	}
	return filepath.Join(root, file)
}
