// Command perf measures what one memprof case costs against its floor,
// and what `--type all` and `go test ./...` take, for one or more
// commits, and prints the figures as Markdown tables:
//
//  1. the floor: memprof's BenchmarkFloor (a plain loop of the case's own
//     constructor with the collector off, in one child process) for the
//     case, its wall time as the benchmark reports it and its CPU time as
//     the test binary's process tree with the benchmark less without it;
//     and BenchmarkMeasure (the engine in a child, no CLI) beside it;
//  2. `memprof instances` of the one case at each N (10k, 100k, 1M),
//     wall and CPU time of the whole process tree (children included),
//     medians over the runs, and the fit of a fixed cost plus a cost per
//     instance over the N;
//  3. `memprof instances --type all`, wall and CPU per case;
//  4. `go test -count=1 ./...` with a warm build cache, wall and CPU.
//
// Each ratio is to the floor, at the floor's N. The load average at the
// start and the end and the machine (CPUs, CPU model, memory, Go) are
// part of the figures.
//
//	scripts/perf.sh                                # the working tree
//	scripts/perf.sh -rev HEAD~5 -rev .             # before and after, interleaved
//	scripts/perf.sh -quick                         # does the script work? (small N, no --type all, no go test)
//
// A -rev is checked out in a temporary git worktree, removed afterwards;
// "." is the working tree as it is. With several, every step measures
// each in turn, so that a drift of the machine's load hits them alike.
// The tables of the last target go into the section of
// notes/performance.md that this command owns when that target is the
// working tree; every target's, with the date, the commits and the
// command, are appended to notes/performance-DATE.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Exit codes.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitInterrupted = 130
)

// config is what the flags ask for.
type config struct {
	revs      []string
	caseKey   caseKey
	ns        []int
	runs      int
	typeAll   bool
	goTest    bool
	docs      string
	note      string
	quick     bool
	arguments []string
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintln(stderr, "perf:", err)
		return exitUsage
	}
	err = measureAll(ctx, cfg, stdout, stderr)
	switch {
	case ctx.Err() != nil:
		fmt.Fprintln(stderr, "perf: interrupted")
		return exitInterrupted
	case err != nil:
		fmt.Fprintln(stderr, "perf:", err)
		return exitFailure
	}
	return exitOK
}

// parseFlags reads the flags; -quick changes the defaults of the flags
// not given.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	cfg := config{arguments: args}
	fs := flag.NewFlagSet("perf", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: scripts/perf.sh [-quick] [-rev COMMIT]... [-case TYPE/LIB/REPR/LAYOUT] [-n N,...] [-runs N] [-all=false] [-go-test=false] [-docs FILE] [-note FILE]")
		fs.PrintDefaults()
	}
	fs.Func("rev", "measure `commit` (checked out in a temporary git worktree; \".\" is the working tree as it is); repeat it to measure several, in turn (default: the working tree, or $PERF_REV)", func(s string) error {
		if strings.TrimSpace(s) == "" {
			return errors.New("empty revision")
		}
		cfg.revs = append(cfg.revs, s)
		return nil
	})
	caseFlag := fs.String("case", "Signature/blst/affine/pointer", "the `case` type/lib/repr/layout, one of those memprof's BenchmarkFloor measures")
	nFlag := fs.String("n", "10000,100000,1000000", "the `N,...` to measure the one case at through the CLI (quick: 1000,10000,100000)")
	fs.IntVar(&cfg.runs, "runs", 3, "`runs` of the floor and of the one case at each N, medians taken (quick: 1)")
	fs.BoolVar(&cfg.typeAll, "all", true, "measure memprof instances --type all (quick: false)")
	fs.BoolVar(&cfg.goTest, "go-test", true, "measure go test -count=1 ./... (quick: false)")
	fs.StringVar(&cfg.docs, "docs", "notes/performance.md", "write the tables into the section of `file` this command owns, relative to the working tree; \"\" writes none (quick: \"\")")
	fs.StringVar(&cfg.note, "note", "notes/performance-"+time.Now().UTC().Format(time.DateOnly)+".md", "append the dated tables of every target to `file`, relative to the working tree; \"\" writes none (quick: \"\")")
	fs.BoolVar(&cfg.quick, "quick", false, "check that the script works: small N, one run, no --type all, no go test ./..., no files written")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected argument %q (flags only; -h for usage)", fs.Arg(0))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if cfg.quick {
		quickDefaults(&cfg, set, nFlag)
	}
	if len(cfg.revs) == 0 {
		cfg.revs = []string{"."}
		if r := os.Getenv("PERF_REV"); r != "" {
			cfg.revs = strings.Fields(r)
		}
	}
	var err error
	if cfg.caseKey, err = parseCase(*caseFlag); err != nil {
		return cfg, err
	}
	if cfg.ns, err = parseNs(*nFlag); err != nil {
		return cfg, err
	}
	if cfg.runs < 1 {
		return cfg, fmt.Errorf("-runs %d: want at least 1", cfg.runs)
	}
	return cfg, nil
}

// quickDefaults sets what -quick changes, for the flags not given.
func quickDefaults(cfg *config, set map[string]bool, nFlag *string) {
	if !set["n"] {
		*nFlag = "1000,10000,100000"
	}
	if !set["runs"] {
		cfg.runs = 1
	}
	if !set["all"] {
		cfg.typeAll = false
	}
	if !set["go-test"] {
		cfg.goTest = false
	}
	if !set["docs"] {
		cfg.docs = ""
	}
	if !set["note"] {
		cfg.note = ""
	}
}

// parseNs reads a comma-separated list of positive N.
func parseNs(s string) ([]int, error) {
	var ns []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-n %s: %q is not a positive integer", s, f)
		}
		ns = append(ns, n)
	}
	return ns, nil
}

// caseKey is one case as type/lib/repr/layout.
type caseKey struct{ typ, lib, repr, layout string }

func parseCase(s string) (caseKey, error) {
	p := strings.Split(s, "/")
	if len(p) != 4 || slices.Contains(p, "") {
		return caseKey{}, fmt.Errorf("-case %q: want type/lib/repr/layout, such as Signature/blst/affine/pointer", s)
	}
	return caseKey{p[0], p[1], p[2], p[3]}, nil
}

func (k caseKey) String() string { return k.typ + "/" + k.lib + "/" + k.repr + "/" + k.layout }

// cliArgs selects the case in `memprof instances`.
func (k caseKey) cliArgs() []string {
	return []string{"--type", k.typ, "--lib", k.lib, "--repr", k.repr, "--layout", k.layout}
}

// benchPattern selects the case's sub-benchmark of bench (memprof's
// benchmarks name it case=Type:lib:repr:layout/n=N).
func (k caseKey) benchPattern(bench string) string {
	return "^" + bench + "$/^case=" + strings.ReplaceAll(k.String(), "/", ":") + "$"
}
