package stats

import (
	"fmt"
	"math"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/units"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// DefaultSweep are the N at which a sweep measures.
var DefaultSweep = []int{1_000, 10_000, 100_000, 1_000_000}

// FitSweep fits bytes = Intercept + Slope*N by least squares over points
// (each point's Bytes is the total Go heap kept by its N instances) and
// returns the fit with a 95% confidence interval on the slope (Student's t
// with len(points)-2 degrees of freedom) and R². An exact linear cost gives
// a zero-width interval and R² = 1; a structure that grows in steps (maps,
// slices grown by append) shows as a wider interval.
func FitSweep(points []measure.SweepPoint) (*measure.Sweep, error) {
	if len(points) < 3 {
		return nil, fmt.Errorf("a sweep needs at least 3 values of N for a confidence interval, got %d", len(points))
	}
	xs := make([]float64, len(points))
	ys := make([]float64, len(points))
	for i, p := range points {
		xs[i], ys[i] = float64(p.N), p.Bytes
	}
	alpha, beta := stat.LinearRegression(xs, ys, nil, false)
	var ssr, sxx float64
	mx := stat.Mean(xs, nil)
	for i := range xs {
		res := ys[i] - (alpha + beta*xs[i])
		ssr += res * res
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	if sxx == 0 {
		return nil, fmt.Errorf("a sweep needs distinct values of N")
	}
	df := float64(len(points) - 2)
	se := math.Sqrt(ssr / df / sxx)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(0.975)
	r2 := stat.RSquared(xs, ys, nil, alpha, beta)
	if math.IsNaN(r2) {
		r2 = 1 // every point on the line: ys had no variance left
	}
	return &measure.Sweep{
		Points:    points,
		Intercept: alpha,
		Slope:     beta,
		SlopeLow:  beta - t*se,
		SlopeHigh: beta + t*se,
		R2:        r2,
	}, nil
}

// SweepFits reports whether the line of s describes its points: every
// point within measure.SweepPointResolution of the line, and an intercept that is
// not negative beyond it (no structure keeps less than nothing). Where it
// does not, why says so, and the points alone tell the cost: a map grows
// its tables in steps, and a line through a step function has an R² near
// 1 and a meaningless intercept.
func SweepFits(s *measure.Sweep) (ok bool, why string) {
	worst, at := 0.0, 0
	for _, p := range s.Points {
		if r := math.Abs(p.Bytes - (s.Intercept + s.Slope*float64(p.N))); r > worst {
			worst, at = r, p.N
		}
	}
	switch {
	case worst > measure.SweepPointResolution:
		return false, fmt.Sprintf("the points are off any line by up to %s B (at N=%d), more than their resolution of %d B: the cost grows in steps", units.FormatFixed(worst, 0), at, measure.SweepPointResolution)
	case s.Intercept < -measure.SweepPointResolution:
		return false, fmt.Sprintf("the best line has a negative intercept (%s B)", units.FormatFixed(s.Intercept, 0))
	}
	return true, ""
}
