package render

import (
	"math"

	"github.com/memprof/memprof/units"
	"gonum.org/v1/plot"
)

// roundTicks is an axis' ticks on round numbers: a major tick, labelled,
// every 1, 2 or 5 times a power of ten, the one that gives nearest to
// targetTicks steps across the axis, and four minor ticks between two
// majors. Every label of the axis has the same decimals, the step's (0,
// 0.2, 0.4 ... 1.0, 1.2; whole bytes without any). gonum's default ticker
// labels a bytes axis "0.00" and "250.00" and nothing between.
type roundTicks struct{}

// targetTicks is about how many labelled ticks an axis gets.
const targetTicks = 6

// Ticks implements plot.Ticker.
func (roundTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return []plot.Tick{{Value: lo, Label: units.FormatFigure(lo)}}
	}
	step := roundStep((hi - lo) / targetTicks)
	decimals := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	minor := step / 5
	var ticks []plot.Tick
	first := math.Ceil(lo/minor) * minor
	for i := 0; ; i++ {
		v := first + float64(i)*minor
		if v > hi+minor*1e-9 {
			break
		}
		// Snap to the grid of minor steps so that 0.1+0.2 prints as 0.3.
		v = math.Round(v/minor) * minor
		t := plot.Tick{Value: v}
		if k := math.Round(v / step); math.Abs(v-k*step) < minor*1e-6 {
			t.Label = units.FormatFixed(k*step, decimals)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// roundStep returns the round number (1, 2 or 5 times a power of ten)
// that cuts a span of targetTicks × raw into the number of steps nearest
// to targetTicks.
func roundStep(raw float64) float64 {
	span := raw * targetTicks
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	best := p
	for _, m := range []float64{1, 2, 5, 10, 20} {
		if math.Abs(span/(m*p)-targetTicks) < math.Abs(span/best-targetTicks) {
			best = m * p
		}
	}
	return best
}

// logTicks is a log axis' ticks: a labelled major tick at each power of
// ten, written as figures are (0.01, 1, 1000: one style, never 1e+01),
// minor ticks at 2 to 9 times each, and, when zeroAt is set, the floor
// that stands for zero labelled "0".
type logTicks struct {
	zeroAt float64 // the axis' floor, where zeros are drawn (0: none)
}

// maxLogLabels is the most powers of ten a log axis labels: beyond, it
// labels every second (or third...) one, so that labels never crowd.
const maxLogLabels = 6

// Ticks implements plot.Ticker.
func (l logTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	if l.zeroAt > 0 {
		ticks = append(ticks, plot.Tick{Value: l.zeroAt, Label: "0"})
	}
	first, last := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	every := math.Ceil((last - first + 1) / maxLogLabels)
	for e := first; e <= last; e++ {
		p := math.Pow(10, e)
		for m := 1.0; m < 10; m++ {
			v := m * p
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) || l.zeroAt > 0 && v <= l.zeroAt*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 && math.Mod(last-e, every) == 0 {
				t.Label = units.FormatNumber(v)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// scale is how one axis of a chart draws its values (figures that are
// not negative): linear from 0, or, where the positive values span more
// than a factor of maxLinearSpan, logarithmic, from a floor a power of ten
// below the smallest of them that stands for zero (zeros are drawn on it,
// and its tick reads "0").
type scale struct {
	log   bool
	floor float64 // the log axis' floor
	zeros bool    // a value is zero (or below): the floor stands for it
}

// maxLinearSpan is the largest ratio of the largest positive value to the
// smallest that a linear axis shows: beyond, the small ones would be
// drawn at zero.
const maxLinearSpan = 100

// scaleFor returns the scale of an axis of values (negative ones read as
// zero).
func scaleFor(values ...float64) scale {
	lo, hi := math.Inf(1), 0.0
	zeros := false
	for _, v := range values {
		if v > 0 {
			lo, hi = min(lo, v), max(hi, v)
		} else {
			zeros = true
		}
	}
	if hi == 0 || hi/lo <= maxLinearSpan {
		return scale{}
	}
	floor := math.Pow(10, math.Floor(math.Log10(lo)))
	if floor >= lo*(1-1e-9) {
		floor /= 10 // the smallest value is a power of ten: one below it
	}
	return scale{log: true, floor: floor, zeros: zeros}
}

// at returns where v is drawn: v, or 0 for a negative figure (a figure
// within its resolution is drawn at zero, with its range); on a log axis
// the floor for zero.
func (s scale) at(v float64) float64 {
	v = max(v, 0)
	if s.log {
		return max(v, s.floor)
	}
	return v
}

// apply sets a to the scale, from its floor (or 0) to hi with some
// room, its ticks the scale's, and its label "name (unit)", or "name
// (unit, log scale)" (", 0 at the floor" where a value is zero). Keep
// the label short: gonum narrows the plot to fit a wider one.
func (s scale) apply(a *plot.Axis, hi float64, name, unit string) {
	a.Label.Text = name + " (" + unit + ")"
	if !s.log {
		a.Min, a.Max = 0, max(hi*1.15, 1e-9)
		a.Tick.Marker = roundTicks{}
		return
	}
	a.Scale = plot.LogScale{}
	a.Min, a.Max = s.floor, math.Pow(10, math.Ceil(math.Log10(hi*1.15)))
	a.Label.Text = name + " (" + unit + ", log scale)"
	if s.zeros {
		a.Tick.Marker = logTicks{zeroAt: s.floor}
		a.Label.Text = name + " (" + unit + ", log scale, 0 at the floor)"
		return
	}
	a.Tick.Marker = logTicks{}
}
