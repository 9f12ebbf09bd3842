// Package units writes every number memprof prints (Unit and its
// formatters: FormatFigure, FormatBytes, FormatNs, ...), through
// golang.org/x/perf/benchunit. It imports nothing of memprof.
package units

import (
	"math"
	"strconv"
	"strings"

	"golang.org/x/perf/benchunit"
)

// Unit is what the figures of a column count. It decides how a figure is
// written: every number memprof prints goes through the formatters below,
// which are golang.org/x/perf/benchunit (the formatting benchstat uses)
// behind a small API.
//
// Per-instance byte figures are exact (a heap profile at rate 1), so Bytes
// are written as numbers, never scaled to KiB (192, 32.03); Nanoseconds
// are scaled as benchstat scales them (812.0 ns, 52.34 µs, 1.000 ms); a
// PerSecond rate is a whole number. Text is a column of words (a name, a
// note); List one that holds a list (allocation sites, raw samples),
// which only JSON has.
type Unit string

// The units.
const (
	Text        Unit = ""
	Bytes       Unit = "B"
	Count       Unit = "count" // objects, allocations, instances, samples
	Nanoseconds Unit = "ns"
	PerSecond   Unit = "1/s"
	List        Unit = "list"
)

// FormatCell writes v as a table cell under a header that names the unit: bytes
// and counts as FormatFigure, a time as FormatNs (its unit is in the
// cell, since it is scaled), a rate as a whole number.
func (u Unit) FormatCell(v float64) string {
	switch u {
	case Nanoseconds:
		return FormatNs(v)
	case PerSecond:
		return FormatFixed(v, 0)
	}
	return FormatFigure(v)
}

// Format writes v with its unit, for a sentence or a cell whose header
// does not name the unit: "192 B", "52.34 µs", "1".
func (u Unit) Format(v float64) string {
	switch u {
	case Bytes:
		return FormatBytes(v)
	case PerSecond:
		return FormatFixed(v, 0) + "/s"
	}
	return u.FormatCell(v)
}

// FormatExact writes v in the fewest digits that read back as the same
// float64, without a unit and without an exponent below 10^21 (as
// encoding/json writes numbers): "192", "32.03096", "333333.3333333333",
// "1e+300". It is the form for files other programs read (CSV, budgets):
// benchunit.NoOpScaler, which would write 10^300 in 301 digits.
func FormatExact(v float64) string {
	if math.Abs(v) >= 1e21 {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return benchunit.NoOpScaler.Format(v)
}

// FormatFigure writes a figure for people: a whole number without
// decimals (the exact per-instance figures are whole), others with two
// decimals, and small fractions with two significant digits so that they
// do not read as zero: "192", "32.03", "0.0046".
//
// Figures no measurement gives (a hand-written budget or file, an
// overflow) print short too: below a millionth and from 10^12 on with an
// exponent ("4.9e-324", "1e+308"), and -0 as 0. No figure prints more
// than MaxDigits significant digits.
func FormatFigure(v float64) string {
	a := math.Abs(v)
	switch {
	case v == 0:
		return "0" // -0 too
	case a < 1e-6:
		return strconv.FormatFloat(v, 'g', 2, 64)
	case a >= 1e12:
		return strconv.FormatFloat(v, 'g', MaxDigits, 64)
	case v == math.Trunc(v):
		return FormatFixed(v, 0)
	case a >= 1e10:
		// Two decimals would pass MaxDigits.
		return FormatFixed(v, MaxDigits-1-int(math.Floor(math.Log10(a))))
	case a < 0.01:
		// Two significant digits: as many decimals as the first digit's
		// place, plus one.
		return strings.TrimRight(FormatFixed(v, 1-int(math.Floor(math.Log10(a)))), "0")
	}
	return FormatFixed(v, 2)
}

// FormatBytes writes a byte figure with its unit: FormatFigure and " B"
// ("192 B", "32.03 B"). It is the one style of a size in a sentence.
func FormatBytes(v float64) string {
	return FormatFigure(v) + " B"
}

// MaxDigits is the most significant digits a figure is printed with for
// people (tables, Markdown, sentences): beyond it a number is written
// with an exponent, so that a hand-made 1e300 prints as 1e+300, not as
// 301 digits.
const MaxDigits = 12

// FormatNs writes a time of ns nanoseconds with at least three
// significant digits and the prefix that suits it, as benchstat does
// (benchunit's scaling), with a space before the unit: "812.0 ns",
// "52.34 µs", "1.000 ms", "2.000 s". Zero is "0 ns".
func FormatNs(ns float64) string {
	if ns == 0 {
		return "0 ns"
	}
	if math.Abs(ns) >= 1e9*1e11 { // more than MaxDigits in seconds
		return strconv.FormatFloat(ns/1e9, 'g', MaxDigits, 64) + " s"
	}
	s, unit := nsScaler([]float64{ns})
	return s.Format(ns) + " " + unit
}

// NsScale returns the one unit a set of times is best shown in (the
// scale benchunit.CommonScale picks, which gives every value at least
// three significant digits) and the size of that unit in nanoseconds:
// "µs", 1000. A chart axis divides its times by it.
func NsScale(ns ...float64) (unit string, size float64) {
	s, unit := nsScaler(ns)
	return unit, s.Factor
}

// nsUnits are the time units of benchunit's decimal prefixes of a
// nanosecond.
var nsUnits = map[string]string{"": "ns", "k": "µs", "M": "ms", "G": "s"}

// nsScaler is benchunit's common scale of times in nanoseconds, with the
// time unit of its prefix. It goes no higher than seconds (a kilosecond
// is not a unit people read) and no lower than nanoseconds (where it
// adds decimals instead).
func nsScaler(ns []float64) (benchunit.Scaler, string) {
	s := benchunit.CommonScale(ns, benchunit.Decimal)
	if unit, ok := nsUnits[s.Prefix]; ok {
		s.Prefix = ""
		return s, unit
	}
	if s.Factor > 1 {
		return benchunit.Scaler{Prec: 1, Factor: 1e9}, "s"
	}
	// Below a nanosecond: the same digits, written in nanoseconds.
	return benchunit.Scaler{Prec: s.Prec + int(math.Round(-math.Log10(s.Factor))), Factor: 1}, "ns"
}

// FormatFixed writes v with exactly decimals digits after the point
// (MB at a million instances with one, a rate with none). A value that
// rounds to zero has no sign ("0.00", not "-0.00").
func FormatFixed(v float64, decimals int) string {
	s := benchunit.Scaler{Prec: decimals, Factor: 1}.Format(v)
	if strings.HasPrefix(s, "-") && strings.Trim(s[1:], "0.") == "" {
		return s[1:]
	}
	return s
}

// FormatPercent writes a fraction as a percentage with one decimal:
// 0.5 is "50.0%".
func FormatPercent(f float64) string {
	return FormatFixed(100*f, 1) + "%"
}

// FormatNumber writes a number someone chose (an option's value, a
// resolution) exactly when that is short, else to six significant
// digits: "0.05", "131.072", and "7" for 0.07×100 (7.000000000000001).
func FormatNumber(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return FormatFixed(v, 0)
	}
	if s := FormatExact(v); len(s) <= 12 {
		return s
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}
