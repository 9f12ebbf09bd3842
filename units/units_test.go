package units

import (
	"math"
	"strconv"
	"testing"
)

func TestFormatters(t *testing.T) {
	tests := []struct {
		name   string
		format func(float64) string
		cases  map[float64]string
	}{
		// Exact per-instance figures stay exact; others get two decimals;
		// small fractions two significant digits, without an exponent.
		{"FormatFigure", FormatFigure, map[float64]string{
			192: "192", -4: "-4", 0: "0", 32.03096: "32.03", 0.006: "0.006",
			0.0012345: "0.0012", -0.0046: "-0.0046", 1.2e-5: "0.000012",
		}},
		{"FormatBytes", FormatBytes, map[float64]string{192: "192 B", 131.072: "131.07 B"}},
		// Times: benchunit's scaling, at least three significant digits,
		// no higher than seconds and no lower than nanoseconds.
		{"FormatNs", FormatNs, map[float64]string{
			812: "812.0 ns", 0: "0 ns", 0.5: "0.5000 ns", 1500: "1.500 µs", 52_340: "52.34 µs",
			999_999: "1.000 ms", 1_234_567: "1.235 ms", 2e9: "2.000 s", 3e12: "3000.0 s", -100_450: "-100.5 µs",
		}},
		// Files: exact, no exponent.
		{"FormatExact", FormatExact, map[float64]string{
			96.01024: "96.01024", 1e9 / 3000: "333333.3333333333", 6.670854480868546e-05: "0.00006670854480868546",
		}},
		// Numbers someone chose: exact when short.
		{"FormatNumber", FormatNumber, map[float64]string{0.05: "0.05", 5: "5", 0.07 * 100: "7"}},
		{"FormatPercent", FormatPercent, map[float64]string{0.5: "50.0%", 0.0004: "0.0%"}},
		{"FormatFixed 1", func(v float64) string { return FormatFixed(v, 1) }, map[float64]string{192: "192.0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for in, want := range tt.cases {
				if got := tt.format(in); got != want {
					t.Errorf("%s(%v): got %q, want %q", tt.name, in, got, want)
				}
			}
		})
	}
}

func TestUnitFormat(t *testing.T) {
	tests := []struct {
		unit       Unit
		v          float64
		cell, text string
	}{
		{Bytes, 192, "192", "192 B"},
		{Count, 0.5, "0.50", "0.50"},
		{Nanoseconds, 2080800, "2.081 ms", "2.081 ms"},
		{PerSecond, 333333.3333333333, "333333", "333333/s"},
	}
	for _, tt := range tests {
		t.Run(string(tt.unit), func(t *testing.T) {
			if got := tt.unit.FormatCell(tt.v); got != tt.cell {
				t.Errorf("FormatCell(%v): got %q, want %q", tt.v, got, tt.cell)
			}
			if got := tt.unit.Format(tt.v); got != tt.text {
				t.Errorf("Format(%v): got %q, want %q", tt.v, got, tt.text)
			}
		})
	}
}

// TestNsScale checks the one unit of a set of times: every value keeps at
// least three significant digits in it, and no formatter panics on the
// values a bad file could carry.
func TestNsScale(t *testing.T) {
	tests := []struct {
		ns   []float64
		unit string
		size float64
	}{
		{[]float64{812}, "ns", 1},
		{[]float64{1e6, 1.2e6}, "ms", 1e6},
		{[]float64{9e5, 1.2e6}, "µs", 1e3}, // the smallest decides
		{[]float64{2e9}, "s", 1e9},
		{[]float64{3e12}, "s", 1e9},
		{[]float64{0, 0}, "ns", 1},
		{[]float64{0.5}, "ns", 1},
		{[]float64{math.SmallestNonzeroFloat64}, "ns", 1},
	}
	for _, tt := range tests {
		unit, size := NsScale(tt.ns...)
		if unit != tt.unit || size != tt.size {
			t.Errorf("NsScale(%v): got %s, %v; want %s, %v", tt.ns, unit, size, tt.unit, tt.size)
		}
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64} {
		t.Run(strconv.FormatFloat(v, 'g', -1, 64), func(t *testing.T) {
			for _, s := range []string{FormatNs(v), FormatFigure(v), FormatExact(v), FormatNumber(v)} {
				if s == "" {
					t.Errorf("empty text for %v", v)
				}
			}
		})
	}
}

// TestFormatExtremes: the extremes a figure or a budget can hold print
// as numbers people read: the smallest float with an exponent (not
// "0."), the largest with one (not 309 digits), and -0 as 0 (not "-0").
func TestFormatExtremes(t *testing.T) {
	negZero := math.Copysign(0, -1)
	tests := []struct {
		name   string
		format func(float64) string
		in     float64
		want   string
	}{
		{"FormatBytes", FormatBytes, math.SmallestNonzeroFloat64, "4.9e-324 B"},
		{"FormatBytes", FormatBytes, 1e308, "1e+308 B"},
		{"FormatBytes", FormatBytes, -1e308, "-1e+308 B"},
		{"FormatBytes", FormatBytes, 1.5e20, "1.5e+20 B"},
		// At most MaxDigits significant digits, whatever the figure.
		{"FormatBytes", FormatBytes, 123456789012345, "1.23456789012e+14 B"},
		{"FormatBytes", FormatBytes, 999999999999, "999999999999 B"},
		{"FormatFigure", FormatFigure, 12345678901.234, "12345678901.2"},
		{"FormatNs", FormatNs, 1e300, "1e+291 s"},
		{"FormatNs", FormatNs, 123456789012345678, "123456789.0 s"},
		{"FormatExact", FormatExact, 1e300, "1e+300"},
		{"FormatExact", FormatExact, 283.96282923860116, "283.96282923860116"},
		{"FormatBytes", FormatBytes, negZero, "0 B"},
		{"FormatFigure", FormatFigure, 3e-7, "3e-07"},
		{"FormatFigure", FormatFigure, 1.2e-6, "0.0000012"},
		{"FormatFigure", FormatFigure, negZero, "0"},
		{"FormatFixed", func(v float64) string { return FormatFixed(v, 2) }, -0.0001, "0.00"},
		{"FormatFixed", func(v float64) string { return FormatFixed(v, 0) }, negZero, "0"},
		{"FormatPercent", FormatPercent, -0.0001, "0.0%"},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/"+strconv.FormatFloat(tt.in, 'g', -1, 64), func(t *testing.T) {
			if got := tt.format(tt.in); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
