package render

import (
	"math"

	"gonum.org/v1/plot"

	"github.com/memprof/memprof/model"
)

// roundTicks is an axis' ticks on round numbers: a major tick, labelled,
// every 1, 2 or 5 times a power of ten, the one that gives nearest to
// targetTicks steps across the axis, and four minor ticks between two majors. Labels
// are written as figures are (model.FormatFigure): whole numbers without
// decimals. gonum's default ticker labels a bytes axis "0.00" and
// "250.00" and nothing between.
type roundTicks struct{}

// targetTicks is about how many labelled ticks an axis gets.
const targetTicks = 6

// Ticks implements plot.Ticker.
func (roundTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return []plot.Tick{{Value: lo, Label: model.FormatFigure(lo)}}
	}
	step := roundStep((hi - lo) / targetTicks)
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
			t.Label = model.FormatFigure(k * step)
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
