package gate

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/memprof/memprof/model"
)

// unitSuffix is a unit a value may carry and its size in the value's
// base unit.
type unitSuffix struct {
	suffix string
	factor float64
}

// sizeUnits are the units a size may carry, longest suffix first so that
// "KiB" is tried before "B". Binary units are powers of 1024, decimal ones
// powers of 1000.
var sizeUnits = []unitSuffix{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
	{"kB", 1e3}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9},
	{"B", 1},
}

// ParseSize parses a size in bytes: a plain non-negative number ("192") or
// a number with a unit ("192B", "1.5KiB", "2MiB", "1kB"). Binary units
// (KiB, MiB, GiB) are powers of 1024, decimal ones (kB, MB, GB) of 1000.
func ParseSize(s string) (float64, error) {
	v, err := parseWithUnit(s, sizeUnits)
	if err != nil {
		return 0, fmt.Errorf("size %q: %w (write bytes as 192, 192B, 1.5KiB or 2MiB)", s, err)
	}
	return v, nil
}

// durationUnits are the units a duration may carry, in nanoseconds,
// longest suffix first.
var durationUnits = []unitSuffix{
	{"ns", 1}, {"us", 1e3}, {"µs", 1e3}, {"μs", 1e3}, {"ms", 1e6}, {"s", 1e9},
}

// ParseDuration parses a duration in nanoseconds: a plain number of
// nanoseconds ("1500") or a number with a unit ("800us", "2ms", "1.5s").
// Unlike time.ParseDuration it keeps fractions of a nanosecond and accepts
// only one unit.
func ParseDuration(s string) (float64, error) {
	v, err := parseWithUnit(s, durationUnits)
	if err != nil {
		return 0, fmt.Errorf("duration %q: %w (write 800ns, 800us, 2ms or 1.5s)", s, err)
	}
	return v, nil
}

// parseWithUnit parses a non-negative number followed by at most one of
// units (the first whose suffix matches), in the base unit.
func parseWithUnit(s string, units []unitSuffix) (float64, error) {
	t := strings.TrimSpace(s)
	num, factor := t, 1.0
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			num, factor = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.factor
			break
		}
	}
	v, err := parseNonNegative(num)
	return v * factor, err
}

func parseNonNegative(s string) (float64, error) {
	if s == "" {
		return 0, fmt.Errorf("missing number")
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("not a number")
	}
	if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("must be a finite number >= 0")
	}
	return v, nil
}

// FormatSize writes a byte count for a budgets file: exactly, in bytes,
// in the file's style ("192B", "96.01024B"), so that parsing it gives back
// the same value.
func FormatSize(b float64) string {
	return model.FormatExact(b) + "B"
}

// FormatCount writes a count (allocations) exactly.
func FormatCount(v float64) string {
	return model.FormatExact(v)
}

// FormatDuration writes ns nanoseconds for a budgets file in the unit
// model.NsScale picks for it (the largest that keeps the number at least
// 1; "us" for µs, which the file takes in ASCII), rounded up to three
// significant digits so that the written budget is never below ns:
// 2080800 -> "2.09ms".
func FormatDuration(ns float64) string {
	unit, size := model.NsScale(ns)
	if unit == "µs" {
		unit = "us"
	}
	return formatNumber(ceilSignificant(ns/size, 3)) + unit
}

// ceilSignificant rounds v > 0 up to digits significant digits, at any
// magnitude: the result is never below v, and is v itself when v already
// has that many digits (2.08 stays 2.08).
func ceilSignificant(v float64, digits int) float64 {
	if !(v > 0) || math.IsInf(v, 0) {
		return 0
	}
	s := strconv.FormatFloat(v, 'e', digits-1, 64) // nearest: "2.08e+00"
	r, _ := strconv.ParseFloat(s, 64)
	if r >= v {
		return r
	}
	// Rounded down: add one in the last digit ("208e-2" + 1).
	mant, exp, _ := strings.Cut(s, "e")
	m, _ := strconv.ParseInt(strings.Replace(mant, ".", "", 1), 10, 64)
	e, _ := strconv.Atoi(exp)
	r, _ = strconv.ParseFloat(strconv.FormatInt(m+1, 10)+"e"+strconv.Itoa(e-(digits-1)), 64)
	return r
}

// formatNumber writes v exactly and short: plainly, or with an exponent
// when plain digits would run long (5e-324, 1.5e+291).
func formatNumber(v float64) string {
	if v != 0 && (math.Abs(v) < 1e-4 || math.Abs(v) >= 1e21) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return model.FormatExact(v)
}

var inf = math.Inf(1)
