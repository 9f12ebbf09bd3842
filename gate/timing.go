package gate

import (
	"fmt"
	"math"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
)

// MinSamples is the fewest samples a side of a time comparison needs:
// with fewer, the Mann-Whitney U test cannot reach significance at 0.05
// (its smallest two-sided p for 3 against 3 samples is 0.1), so it could
// never detect a regression.
const MinSamples = 4

// smallestP is the smallest two-sided p-value a Mann-Whitney U test of n1
// against n2 samples can give (all of one side below all of the other):
// 2 / C(n1+n2, n1).
func smallestP(n1, n2 int) float64 {
	// log C(n1+n2, n1) via the log-gamma function, exact enough here.
	lg := func(x int) float64 { v, _ := math.Lgamma(float64(x) + 1); return v }
	return math.Min(1, 2*math.Exp(lg(n2)+lg(n1)-lg(n1+n2)))
}

// tooFewSamples says why a time comparison of n1 against n2 samples at
// alpha cannot detect a change, or returns "".
func tooFewSamples(n1, n2 int, alpha float64) string {
	if n := min(n1, n2); n < MinSamples {
		return fmt.Sprintf("too few samples to judge (n=%d; at least %d needed)", n, MinSamples)
	}
	if p := smallestP(n1, n2); p >= alpha {
		return fmt.Sprintf("too few samples to judge at alpha %s (n=%d+%d: the smallest possible p is %.3g)", units.FormatNumber(alpha), n1, n2, p)
	}
	return ""
}

// disagreement says why the times of rs cannot be trusted (its agreement
// check failed), or returns "".
func disagreement(rs *results.File) string {
	a := rs.Agreement
	if a == nil || a.OK {
		return ""
	}
	libs := "no library"
	if len(a.Libs) > 0 {
		libs = vocab.Join(a.Libs)
	}
	return fmt.Sprintf("the libraries disagreed (agreement.ok is false; %s on %d cases): no time measured with them can be trusted", libs, a.Cases)
}
