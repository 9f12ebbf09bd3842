package memprof

import (
	"context"
	"testing"
	"time"
)

// TestMeasureThroughputKeepsIters: every sample records how many calls it
// timed, so that each sample can be a benchmark line with its own
// iteration count. With a fake operation of a fixed cost the calls of a
// sample are known: the sampler runs whole chunks of MinSample/20 worth
// of calls until MinSample has passed, which is MinSample/cost calls when
// the cost divides MinSample.
func TestMeasureThroughputKeepsIters(t *testing.T) {
	clk := &fakeClock{}
	cost := 2500 * time.Nanosecond
	minSample := 10 * time.Millisecond
	const samples = 5
	rows, err := MeasureThroughput(context.Background(), [][]ThroughputCase{{{Name: "a", Run: clk.op("A", cost, 1, 0, 0)}}},
		ThroughputOptions{Samples: samples, MinSample: minSample, clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	r := rows[0]
	if len(r.SamplesIters) != samples || len(r.SamplesNs) != samples {
		t.Fatalf("got %d iteration counts and %d samples, want %d of each", len(r.SamplesIters), len(r.SamplesNs), samples)
	}
	want := int64(minSample / cost)
	for i, n := range r.SamplesIters {
		if n != want {
			t.Errorf("sample %d: got %d calls, want %d", i, n, want)
		}
		if got := r.SamplesNs[i] * float64(n); got != float64(minSample.Nanoseconds()) {
			t.Errorf("sample %d: ns/op × calls got %v ns, want the sample's wall time %v", i, got, minSample.Nanoseconds())
		}
	}
}
