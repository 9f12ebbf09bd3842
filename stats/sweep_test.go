package stats

import (
	"math"
	"testing"

	"github.com/memprof/memprof/measure"
)

func TestFitSweepExactLine(t *testing.T) {
	const a, b = 4096.0, 48.0
	var pts []measure.SweepPoint
	for _, n := range DefaultSweep {
		pts = append(pts, measure.SweepPoint{N: n, Bytes: a + b*float64(n)})
	}
	s, err := FitSweep(pts)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(s.Slope-b) > 1e-9 || math.Abs(s.Intercept-a) > 1e-3 {
		t.Errorf("got bytes = %v + %v*N, want %v + %v*N", s.Intercept, s.Slope, a, b)
	}
	if s.SlopeHigh-s.SlopeLow > 1e-9 || math.Abs(s.R2-1) > 1e-12 {
		t.Errorf("exact line: got CI [%v, %v], R² %v; want zero width and 1", s.SlopeLow, s.SlopeHigh, s.R2)
	}
}

func TestFitSweepSteps(t *testing.T) {
	// A structure that doubles its table at powers of two: per-instance
	// cost is not constant, so the slope has a visible interval.
	var pts []measure.SweepPoint
	for _, n := range []int{1000, 3000, 10_000, 30_000, 100_000} {
		table := 1
		for table < n {
			table *= 2
		}
		pts = append(pts, measure.SweepPoint{N: n, Bytes: 100*float64(n) + 16*float64(table)})
	}
	s, err := FitSweep(pts)
	if err != nil {
		t.Fatal(err)
	}
	if !(s.SlopeLow < s.Slope && s.Slope < s.SlopeHigh) || s.SlopeHigh-s.SlopeLow < 0.01 {
		t.Errorf("stepped cost: got slope %v in [%v, %v], want a non-degenerate interval", s.Slope, s.SlopeLow, s.SlopeHigh)
	}
	if s.Slope < 100 || s.Slope > 100+2*16 {
		t.Errorf("slope %v outside [100, 132]", s.Slope)
	}
	if s.R2 >= 1 || s.R2 < 0.9 {
		t.Errorf("R² %v, want just under 1", s.R2)
	}
}

func TestFitSweepNeedsThreePoints(t *testing.T) {
	if _, err := FitSweep([]measure.SweepPoint{{N: 1, Bytes: 1}, {N: 2, Bytes: 2}}); err == nil {
		t.Error("got nil error for two points")
	}
}

// TestSweepFits: a line fits a cost proportional to N (within a page of
// the runtime's own objects), and neither a stepped cost nor one whose
// best line starts below zero.
func TestSweepFits(t *testing.T) {
	line := func(a, b float64, jitter func(i int) float64) []measure.SweepPoint {
		var pts []measure.SweepPoint
		for i, n := range DefaultSweep {
			pts = append(pts, measure.SweepPoint{N: n, Bytes: a + b*float64(n) + jitter(i)})
		}
		return pts
	}
	none := func(int) float64 { return 0 }
	steps := func(n int) float64 {
		table := 1
		for table < n {
			table *= 2
		}
		return float64(table)
	}
	var stepped []measure.SweepPoint
	for _, n := range DefaultSweep {
		stepped = append(stepped, measure.SweepPoint{N: n, Bytes: 48 * steps(n)})
	}
	// Points on a line of slope 100 whose best fit starts well below 0:
	// a cost that falls per instance as N grows.
	var falling []measure.SweepPoint
	for _, n := range DefaultSweep {
		falling = append(falling, measure.SweepPoint{N: n, Bytes: math.Max(0, 100*float64(n)-4*measure.SweepPointResolution)})
	}
	tests := []struct {
		name string
		pts  []measure.SweepPoint
		want bool
	}{
		{"exact line", line(0, 192, none), true},
		{"line and a fixed cost", line(4096, 48, none), true},
		{"within a page", line(0, 192, func(i int) float64 { return float64(i%2) * measure.SweepPointResolution / 2 }), true},
		{"steps", stepped, false},
		{"negative intercept", falling, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := FitSweep(tt.pts)
			if err != nil {
				t.Fatal(err)
			}
			ok, why := SweepFits(s)
			if ok != tt.want {
				t.Errorf("got %v (%s), want %v; fit %v + %v N", ok, why, tt.want, s.Intercept, s.Slope)
			}
			if !ok && why == "" {
				t.Errorf("no reason given")
			}
		})
	}
}
