package memprof

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// fakeClock is a sampler clock that only moves when a fake operation runs:
// the test decides exactly what every call costs.
type fakeClock struct {
	now, cpuNow    time.Duration
	mallocs, bytes uint64
	log            []string
	cpuErr         error
}

func (c *fakeClock) wall() time.Duration         { return c.now }
func (c *fakeClock) cpu() (time.Duration, error) { return c.cpuNow, c.cpuErr }
func (c *fakeClock) mem() (uint64, uint64)       { return c.mallocs, c.bytes }

// op returns a fake operation that logs its name and costs wall of wall
// time, threads times as much CPU time, and allocs allocations of size.
func (c *fakeClock) op(name string, wall time.Duration, threads int, allocs, size uint64) func() error {
	return func() error {
		c.log = append(c.log, name)
		c.now += wall
		c.cpuNow += wall * time.Duration(threads)
		c.mallocs += allocs
		c.bytes += allocs * size
		return nil
	}
}

// runs collapses consecutive repeats: [A A B B A] -> [A B A].
func runs(log []string) []string {
	var out []string
	for _, s := range log {
		if len(out) == 0 || out[len(out)-1] != s {
			out = append(out, s)
		}
	}
	return out
}

func TestMeasureThroughputInterleaves(t *testing.T) {
	clk := &fakeClock{}
	const samples = 4
	groups := [][]ThroughputCase{
		{
			{Name: "a/x", Run: clk.op("A", time.Microsecond, 1, 0, 0)},
			{Name: "b/x", Run: clk.op("B", 3*time.Microsecond, 1, 0, 0)},
			{Name: "c/x", Run: clk.op("C", 2*time.Microsecond, 1, 0, 0)},
		},
		{
			{Name: "d/y", Run: clk.op("D", time.Microsecond, 1, 0, 0)},
			{Name: "e/y", Run: clk.op("E", time.Microsecond, 1, 0, 0)},
		},
	}
	rows, err := MeasureThroughput(context.Background(), groups, ThroughputOptions{Samples: samples, MinSample: time.Millisecond, clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	// Warm-up of each case in turn, then round-robin samples within the
	// group; the second group starts after the first is done.
	var want []string
	want = append(want, "A", "B", "C")
	for range samples {
		want = append(want, "A", "B", "C")
	}
	want = append(want, "D", "E")
	for range samples {
		want = append(want, "D", "E")
	}
	if got := runs(clk.log); !slices.Equal(got, want) {
		t.Errorf("call order:\ngot  %v\nwant %v", got, want)
	}
	if len(rows) != 5 {
		t.Fatalf("got %d rows, want 5", len(rows))
	}
	for i, name := range []string{"a/x", "b/x", "c/x", "d/y", "e/y"} {
		if rows[i].Name != name || rows[i].Samples != samples || len(rows[i].SamplesNs) != samples {
			t.Errorf("row %d: got %s with %d samples (%d kept), want %s with %d", i, rows[i].Name, rows[i].Samples, len(rows[i].SamplesNs), name, samples)
		}
	}
}

func TestMeasureThroughputFigures(t *testing.T) {
	clk := &fakeClock{}
	cost := 2500 * time.Nanosecond
	groups := [][]ThroughputCase{{{
		Name: "T/l/r op=o",
		Run:  clk.op("A", cost, 3, 2, 48),
	}}}
	minSample := 10 * time.Millisecond
	rows, err := MeasureThroughput(context.Background(), groups, ThroughputOptions{Samples: 5, MinSample: minSample, clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	r := rows[0]
	if r.Err != nil {
		t.Fatalf("unexpected error: %v", r.Err)
	}
	wantNs := float64(cost.Nanoseconds())
	checks := []struct {
		what      string
		got, want float64
	}{
		{"median", r.NsPerOpMedian, wantNs},
		{"q1", r.NsPerOpQ1, wantNs},
		{"q3", r.NsPerOpQ3, wantNs},
		{"cpu", r.CPUNsPerOpMedian, 3 * wantNs},
		{"ops/s", r.OpsPerSecond, 1e9 / wantNs},
		{"allocs/op", r.AllocsPerOp, 2},
		{"B/op", r.BytesPerOp, 96},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.what, c.got, c.want)
		}
	}
	if len(r.SamplesBytesPerOp) != 5 || len(r.SamplesAllocsPerOp) != 5 || r.AllocsVary() {
		t.Errorf("per-sample allocations: got %v B and %v objects per call, want 96 and 2 in each of 5 samples", r.SamplesBytesPerOp, r.SamplesAllocsPerOp)
	}
	for i := range r.SamplesBytesPerOp {
		if r.SamplesBytesPerOp[i] != 96 || r.SamplesAllocsPerOp[i] != 2 {
			t.Errorf("sample %d: got %v B and %v objects per call, want 96 and 2", i, r.SamplesBytesPerOp[i], r.SamplesAllocsPerOp[i])
		}
	}
	if r.Name != "T/l/r op=o" || r.Note != "" || r.Samples != 5 {
		t.Errorf("got name %q note %q samples %d, want the case's name, no note, 5", r.Name, r.Note, r.Samples)
	}
	// Every sample lasted at least MinSample of (fake) wall time.
	calls := len(clk.log) // all calls, warm-up included
	if perSample := int(minSample / cost); calls < 5*perSample {
		t.Errorf("got %d calls in all, want at least %d (5 samples of %d)", calls, 5*perSample, perSample)
	}
}

// TestMeasureThroughputVaryingAllocs: an operation that allocates on
// some calls only (every fifth) has per-sample figures that differ,
// whose calls-weighted mean is the row's B/op.
func TestMeasureThroughputVaryingAllocs(t *testing.T) {
	clk := &fakeClock{}
	var calls int
	run := func() error {
		calls++
		clk.now += 3 * time.Microsecond
		if calls%5 == 0 {
			clk.mallocs++
			clk.bytes += 1024
		}
		return nil
	}
	rows, err := MeasureThroughput(context.Background(), [][]ThroughputCase{{{Name: "varying", Run: run}}}, ThroughputOptions{Samples: 6, MinSample: time.Millisecond, clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	r := rows[0]
	if !r.AllocsVary() {
		t.Fatalf("per-sample B/op %v: want them to vary", r.SamplesBytesPerOp)
	}
	var bytes, iters float64
	for i, b := range r.SamplesBytesPerOp {
		bytes += b * float64(r.SamplesIters[i])
		iters += float64(r.SamplesIters[i])
	}
	if got := bytes / iters; math.Abs(got-r.BytesPerOp) > 1e-9*r.BytesPerOp {
		t.Errorf("samples' calls-weighted B/op %v, want the row's %v", got, r.BytesPerOp)
	}
}

func TestMeasureThroughputFailure(t *testing.T) {
	clk := &fakeClock{}
	n := 0
	failing := func() error {
		n++
		clk.now += time.Microsecond
		if n > 3 {
			return errors.New("verification failed")
		}
		return nil
	}
	groups := [][]ThroughputCase{{
		{Name: "bad/verify", Run: failing},
		{Name: "good/verify", Run: clk.op("G", time.Microsecond, 1, 0, 0)},
	}}
	rows, err := MeasureThroughput(context.Background(), groups, ThroughputOptions{Samples: 3, MinSample: time.Millisecond, clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].Err == nil || !strings.Contains(rows[0].Err.Error(), "bad/verify") || !strings.Contains(rows[0].Err.Error(), "verification failed") || rows[0].NsPerOpMedian != 0 {
		t.Errorf("failing case: got error %v median %v, want the verification error naming the case and no figure", rows[0].Err, rows[0].NsPerOpMedian)
	}
	if rows[1].Err != nil || rows[1].Samples != 3 {
		t.Errorf("good case: got error %v and %d samples, want none and 3", rows[1].Err, rows[1].Samples)
	}
}

func TestMeasureThroughputNoCPU(t *testing.T) {
	clk := &fakeClock{cpuErr: errors.New("no getrusage")}
	groups := [][]ThroughputCase{{{Name: "o", Run: clk.op("A", time.Microsecond, 1, 0, 0)}}}
	rows, err := MeasureThroughput(context.Background(), groups, ThroughputOptions{Samples: 2, MinSample: time.Millisecond, clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].CPUNsPerOpMedian != 0 || !strings.Contains(rows[0].Note, "no CPU time") {
		t.Errorf("got cpu %v note %q, want no figure and a note", rows[0].CPUNsPerOpMedian, rows[0].Note)
	}
}

func TestMeasureThroughputBadOptions(t *testing.T) {
	for _, o := range []ThroughputOptions{{Samples: -1}, {MinSample: -time.Second}} {
		if _, err := MeasureThroughput(context.Background(), nil, o); err == nil {
			t.Errorf("options %+v: got no error, want one", o)
		}
	}
}
