package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
	"github.com/memprof/memprof/workflow"
)

// gibEntry is a fake entry whose instances would keep 1 GiB each: the
// estimate of any N of them is known, and its case panics when built, so
// a refusal allocates nothing (the estimate's probe of what a constructor
// allocates recovers and counts nothing).
var gibEntry = suites.Entry{
	Key:         results.Key{Type: vocab.G1, Lib: vocab.Gnark, Repr: vocab.Affine, Layout: measure.Pointer},
	Constructor: "1 GiB per instance (test only)", SizeHint: 48, BytesHint: 1 << 30,
	Case: func() memprof.Case { panic("a refused case was built") },
}

// TestMemoryRefusal: instances and report refuse (exit 2) a run whose
// estimate exceeds --memory-available before anything runs, naming the
// estimate and --force; --memory-available must be a size.
func TestMemoryRefusal(t *testing.T) {
	useRegistry(t, func() *suites.Registry {
		r, err := suites.NewRegistry(suites.Suite{Name: "test", Entries: []suites.Entry{gibEntry}})
		if err != nil {
			panic(err)
		}
		return r
	})
	// 100 instances of 1 GiB (and the holder's 16 B), twice over for the
	// heap's growth before a collection: 214.7 GB, against 1 GiB.
	refusal := "memprof %s: refusing to measure: the run would need about 214.7GB at the peak (1 case at a time; the largest " + gibEntry.Key.String() + " at N=100, 214.7GB), beyond the 1.074GB of memory available (--force to measure anyway)"
	for _, cmd := range []string{"instances", "report"} {
		t.Run(cmd, func(t *testing.T) {
			args := []string{cmd, "--type", "G1", "-n", "100", "--memory-available", "1GiB"}
			if cmd == "report" {
				args = append(args, "--throughput=false", "--out", t.TempDir())
			}
			runChecked(t, args, exitUsage, nil, []string{strings.Replace(refusal, "%s", cmd, 1)})
		})
	}
	runChecked(t, []string{"instances", "--type", "G1", "--memory-available", "lots"}, exitUsage, nil,
		[]string{`--memory-available: want a positive size, got "lots"`})
}

// TestMemoryAnnounced: the estimate of a large run is printed before it
// starts, with the memory available.
func TestMemoryAnnounced(t *testing.T) {
	var stderr bytes.Buffer
	inv := &invocation{cmd: instancesCommand, stderr: &stderr}
	est := workflow.EstimateMemory([]suites.Entry{gibEntry}, workflow.Options{N: 3, Jobs: 1, MemoryAvailable: 1 << 40})
	(&progress{inv: inv}).event(workflow.Event{Kind: workflow.MemoryEstimated, Estimate: est})
	want := "memprof instances: this run will need about 6.442GB at the peak (1 case at a time; the largest " + gibEntry.Key.String() + " at N=3, 6.442GB); 1.100TB available\n"
	if stderr.String() != want {
		t.Errorf("got %q, want %q", stderr.String(), want)
	}
}

// TestMemoryProbeFailedSaid: a run whose constructors could not be
// probed says that its estimate has the sizes alone, and why.
func TestMemoryProbeFailedSaid(t *testing.T) {
	var stderr bytes.Buffer
	inv := &invocation{cmd: instancesCommand, stderr: &stderr}
	(&progress{inv: inv}).event(workflow.Event{Kind: workflow.MemoryProbeFailed, Message: "allocation probe: exit status 2"})
	want := "memprof instances: the memory estimate has the sizes alone, not what the constructors drop: probing them failed: allocation probe: exit status 2\n"
	if stderr.String() != want {
		t.Errorf("got %q, want %q", stderr.String(), want)
	}
}
