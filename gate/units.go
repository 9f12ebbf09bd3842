package gate

import (
	"math"
	"strconv"
	"strings"

	"github.com/memprof/memprof/units"
)

// The largest values a budgets file and compare's tolerances take: a
// number past them is a typo or an overflow (1e308GiB is +Inf bytes, an
// infinite budget), never a budget. docs/refuses.md lists them.
const (
	// MaxSize is the largest size: 1 TiB (units.ParseSize's bound).
	MaxSize = units.MaxSize
	// MaxDuration is the largest duration: one hour, in nanoseconds.
	MaxDuration = units.MaxDuration
	// MaxCount is the largest count (allocations): 10^12.
	MaxCount = units.MaxCount
	// MaxHeadroom is the largest headroom check --update multiplies
	// times by: 100 (a budget a hundred times the median).
	MaxHeadroom = 100
	// maxGOMAXPROCS is the largest gomaxprocs a budget names.
	maxGOMAXPROCS = 1 << 20
	// MaxN is the largest number of instances a budget names (n): 10^9.
	MaxN = 1_000_000_000
)

// FormatSize writes a byte count for a budgets file: exactly, in bytes,
// in the file's style ("192B", "96.01024B"), so that parsing it gives back
// the same value.
func FormatSize(b float64) string {
	return units.FormatExact(b) + "B"
}

// FormatCount writes a count (allocations) exactly.
func FormatCount(v float64) string {
	return units.FormatExact(v)
}

// FormatDuration writes ns nanoseconds for a budgets file in the unit
// units.NsScale picks for it (the largest that keeps the number at least
// 1; "us" for µs, which the file takes in ASCII), rounded up to three
// significant digits so that the written budget is never below ns:
// 2080800 -> "2.09ms".
func FormatDuration(ns float64) string {
	unit, size := units.NsScale(ns)
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
	return units.FormatExact(v)
}

var inf = math.Inf(1)
