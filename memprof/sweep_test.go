package memprof

import (
	"math"
	"testing"

	"github.com/memprof/memprof/model"
)

func TestFitSweepExactLine(t *testing.T) {
	const a, b = 4096.0, 48.0
	var pts []model.SweepPoint
	for _, n := range DefaultSweep {
		pts = append(pts, model.SweepPoint{N: n, Bytes: a + b*float64(n)})
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
	var pts []model.SweepPoint
	for _, n := range []int{1000, 3000, 10_000, 30_000, 100_000} {
		table := 1
		for table < n {
			table *= 2
		}
		pts = append(pts, model.SweepPoint{N: n, Bytes: 100*float64(n) + 16*float64(table)})
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
	if _, err := FitSweep([]model.SweepPoint{{N: 1, Bytes: 1}, {N: 2, Bytes: 2}}); err == nil {
		t.Error("got nil error for two points")
	}
}
