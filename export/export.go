package export

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
)

// Format is an export format, named as the tool that reads it.
type Format string

// The formats.
const (
	// GitHubActionBenchmark is github-action-benchmark's
	// customSmallerIsBetter JSON (ActionBenchmarkEntry).
	GitHubActionBenchmark Format = "github-action-benchmark"
	// BencherMetricFormat is Bencher's Metric Format JSON (BencherMetrics).
	BencherMetricFormat Format = "bencher"
	// Benchfmt is the Go benchmark format, as results.bench holds it
	// (Bench).
	Benchfmt Format = "benchfmt"
)

// Formats lists the formats, in the order help lists them.
var Formats = []Format{GitHubActionBenchmark, BencherMetricFormat, Benchfmt}

// Write writes rs to w in format f. An unknown format is an error that
// lists the formats.
func Write(w io.Writer, rs *results.File, f Format) error { return WritePart(w, rs, f, All) }

// Part is which figures a dashboard export holds: all of them, the
// memory figures that are exact (bytes and allocations per instance: any
// increase is a change), or the figures that move from run to run (the
// times, and the figures read to a resolution, such as the collector's
// scan bytes). A dashboard action has one alert threshold for all the
// entries of a call: the exact part can alert on any increase while the
// rest is charted, in a series of its own, without alerts.
type Part string

// The parts.
const (
	All    Part = ""
	Memory Part = "memory"
	Time   Part = "time"
)

// Parts lists the parts a user names (export --only).
var Parts = []Part{Memory, Time}

// Has reports whether figure f is of part p: an exact figure in bytes or
// a count (measure.JudgeExact, not a time) is of Memory, any other of Time;
// every figure is of All.
func (p Part) Has(f *results.Figure) bool {
	exact := f.Unit != units.Nanoseconds && f.Judge == measure.JudgeExact
	switch p {
	case Memory:
		return exact
	case Time:
		return !exact
	}
	return true
}

// ErrNothingOfPart is wrapped by WritePart's error for results that have
// no figure of the part asked for: an export of nothing is bad input, not
// an empty series.
var ErrNothingOfPart = errors.New("nothing to export")

func noFigureOf(part Part) error {
	return fmt.Errorf("no %s figure in it: %w with --only %s", part, ErrNothingOfPart, part)
}

// WritePart writes the figures of part of rs to w in format f, a
// dashboard format (the benchmark format holds every figure: benchstat
// selects units itself). An unknown format is an error that lists the
// formats; results with no figure of part (not All) an error wrapping
// ErrNothingOfPart, before anything is written.
func WritePart(w io.Writer, rs *results.File, f Format, part Part) error {
	switch f {
	case GitHubActionBenchmark:
		return gitHubActionBenchmarkJSON(w, rs, part)
	case BencherMetricFormat:
		return bencher(w, rs, part)
	case Benchfmt:
		if part != All {
			return fmt.Errorf("the %s format holds every figure (benchstat chooses units with -filter): it takes no part", f)
		}
		return Bench(w, rs)
	}
	return fmt.Errorf("unknown export format %q: must be one of %s", string(f), vocab.Join(Formats))
}

// Failed returns the cases of rs that failed to measure (instances and
// operations), which no format can hold, in the one ordering of keys.
func Failed(rs *results.File) []results.Key {
	var out []results.Key
	for _, r := range sortedInstances(rs) {
		if r.Error != "" {
			out = append(out, r.Key)
		}
	}
	for _, t := range sortedThroughput(rs) {
		if t.Error != "" {
			out = append(out, t.Key)
		}
	}
	return out
}

// ErrAmbiguousNames is wrapped by the error of every format for results
// in which two measured cases have one export name (their keys' bench
// name): a dashboard would keep one figure for both, or show two entries
// under one name. Cases of the library API's are named by their names,
// their words joined with _, so "my key" and "my  key" (or "my_key")
// collide.
var ErrAmbiguousNames = errors.New("two cases have one export name")

// checkNames returns an error wrapping ErrAmbiguousNames, naming each
// pair, when two measured cases of rs have one bench name.
func checkNames(rs *results.File) error {
	seen := map[string]results.Key{}
	var clashes []string
	add := func(k results.Key) {
		n := k.BenchName()
		if prev, ok := seen[n]; ok && prev != k {
			clashes = append(clashes, fmt.Sprintf("%q and %q are both exported as %q", prev.String(), k.String(), n))
			return
		}
		seen[n] = k
	}
	for _, r := range sortedInstances(rs) {
		if r.Error == "" {
			add(r.Key)
		}
	}
	for _, t := range sortedThroughput(rs) {
		if t.Error == "" {
			add(t.Key)
		}
	}
	if len(clashes) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s: rename one of each (an export name joins a name's words with _)", ErrAmbiguousNames, strings.Join(clashes, "; "))
}
