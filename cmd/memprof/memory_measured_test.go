package main

import (
	"flag"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/memprof/memprof/internal/peakrss"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/suites/all"
	"github.com/memprof/memprof/vocab"
	"github.com/memprof/memprof/workflow"
)

var memoryMeasured = flag.Bool("memory.measured", false, "TestMemoryEstimateMeasured measures the peak of real cases' children against the memory estimate (.ci/run does)")

// childPeakEnv names a file a measuring child writes its peak resident
// set (VmHWM) to, in bytes, as it ends.
const childPeakEnv = "MEMPROF_TEST_CHILD_PEAK"

func writePeak(path string) {
	if rss, err := peakrss.Self(); err == nil {
		os.WriteFile(path, []byte(strconv.FormatInt(rss, 10)), 0o644)
	}
}

// TestMemoryEstimateMeasured: the memory estimate's growth from one N to
// another is the measuring child's peak's, for a case whose constructor
// makes a thousand times the garbage its instance keeps (bn256-google's
// G2 points decoded by big.Int arithmetic) and for an ordinary one: what
// the process holds whatever N is (the binary, the runtime, the case's
// set-up) cancels. Both Ns are at most the profiled pass's two sets, so
// the pass builds all N with the collector off. The measured slope may
// exceed the estimate's by the runtime's bookkeeping beside each profile
// record (about 1.7 B per object, TestRecordSizes) and the heap's spans:
// 10% is allowed; for the ordinary case, whose slope is a few hundred
// bytes, a page per instance. The ordinary case's Ns lie as far apart as
// that allows: between 100 and 400 its peak grew by less than the peak
// moves from run to run (it fell by 1 MB once in .ci/run).
func TestMemoryEstimateMeasured(t *testing.T) {
	if !*memoryMeasured {
		t.Skip("measures real cases in children: -memory.measured (.ci/run does)")
	}
	allProfiled := 2 * memprof.ProfiledInstances(measure.Pointer, math.MaxInt)
	for _, c := range []struct {
		name, lib, repr string
		lo, hi          int
	}{
		{"garbage", "bn256-google", "decoded", 100, 400},
		{"ordinary", "gnark", "affine", 100, allProfiled},
	} {
		lo, hi := c.lo, c.hi
		t.Run(c.name, func(t *testing.T) {
			var name string
			for _, e := range all.Registry().Entries() {
				if e.Key.Type == vocab.Groth16VerifyingKey && string(e.Key.Lib) == c.lib && string(e.Key.Repr) == c.repr && e.Key.Layout == measure.Pointer {
					name = e.Key.String()
					peak := func(n int) (est, measured float64) {
						est = workflow.EstimateMemory(append(all.Registry().Entries()[:0:0], e), workflow.Options{N: n, Jobs: 1, MemoryAvailable: 1 << 50}).PeakBytes
						out := t.TempDir() + "/peak"
						t.Setenv(childPeakEnv, out)
						runChecked(t, []string{"instances", "--type", "Groth16VerifyingKey", "--lib", c.lib, "--repr", c.repr, "--layout", "pointer", "-n", strconv.Itoa(n), "--jobs", "1", "--format", "csv"}, 0, nil, nil)
						b, err := os.ReadFile(out)
						if err != nil {
							t.Fatalf("the child wrote no peak: %v", err)
						}
						v, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
						if err != nil {
							t.Fatal(err)
						}
						return est, v
					}
					estLo, gotLo := peak(lo)
					estHi, gotHi := peak(hi)
					est, got := (estHi-estLo)/float64(hi-lo), (gotHi-gotLo)/float64(hi-lo)
					t.Logf("%s: estimated %.0f and %.0f B at N=%d and %d, measured peaks %.0f and %.0f: %.0f B per instance estimated, %.0f measured", name, estLo, estHi, lo, hi, gotLo, gotHi, est, got)
					if slack := max(est/10, float64(os.Getpagesize())); got < est-slack || got > est+slack {
						t.Errorf("%s: the peak grows by %.0f B per instance, the estimate by %.0f (to %.0f)", name, got, est, slack)
					}
				}
			}
			if name == "" {
				t.Fatalf("no pointer entry of %s %s", c.lib, c.repr)
			}
		})
	}
}
