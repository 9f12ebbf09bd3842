package units

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The largest values ParseSize, ParseDuration and ParseCount take: a
// number past them is a typo or an overflow (1e308GiB is +Inf bytes),
// never a value meant (the gate's budgets and compare's tolerances).
const (
	// MaxSize is the largest size: 1 TiB.
	MaxSize = 1 << 40
	// MaxDuration is the largest duration: one hour, in nanoseconds.
	MaxDuration = 3600e9
	// MaxCount is the largest count (allocations): 10^12.
	MaxCount = 1e12
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
// It must be finite and at most MaxSize; -0 is 0.
func ParseSize(s string) (float64, error) {
	v, err := parseWithUnit(s, sizeUnits, MaxSize, "1 TiB")
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
// only one unit. It must be finite and at most MaxDuration (one hour).
func ParseDuration(s string) (float64, error) {
	v, err := parseWithUnit(s, durationUnits, MaxDuration, "1 hour")
	if err != nil {
		return 0, fmt.Errorf("duration %q: %w (write 800ns, 800us, 2ms or 1.5s)", s, err)
	}
	return v, nil
}

// ParseCount parses a count (allocations): a plain non-negative number, at
// most MaxCount.
func ParseCount(s string) (float64, error) {
	v, err := parseWithUnit(s, nil, MaxCount, "10^12")
	if err != nil {
		return 0, fmt.Errorf("count %q: %w", s, err)
	}
	return v, nil
}

// ParsePercent parses a percentage such as "5%" or "2.5%" into a
// fraction: finite, from 0 to 100%.
func ParsePercent(s string) (float64, error) {
	num, ok := strings.CutSuffix(strings.TrimSpace(s), "%")
	if !ok {
		return 0, fmt.Errorf("%q is not a percentage: write it with %%, as 5%%", s)
	}
	v, err := parseWithUnit(num, nil, 100, "100%")
	if err != nil {
		return 0, fmt.Errorf("percentage %q: %w", s, err)
	}
	return v / 100, nil
}

// parseWithUnit parses a non-negative number followed by at most one of
// units (the first whose suffix matches), in the base unit: finite and at
// most most (said as mostText).
func parseWithUnit(s string, units []unitSuffix, most float64, mostText string) (float64, error) {
	t := strings.TrimSpace(s)
	num, factor := t, 1.0
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			num, factor = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.factor
			break
		}
	}
	v, err := parseNonNegative(num)
	if err != nil {
		return 0, err
	}
	if v *= factor; !(v <= most) { // an overflow to +Inf included
		return 0, fmt.Errorf("must be at most %s", mostText)
	}
	return v, nil
}

// parseNonNegative parses a finite number >= 0; -0 is 0.
func parseNonNegative(s string) (float64, error) {
	if s == "" {
		return 0, fmt.Errorf("missing number")
	}
	v, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil && math.IsInf(v, 0):
		return 0, fmt.Errorf("must be a finite number >= 0")
	case err != nil:
		return 0, fmt.Errorf("not a number")
	case v < 0 || math.IsNaN(v) || math.IsInf(v, 0):
		return 0, fmt.Errorf("must be a finite number >= 0")
	case v == 0:
		return 0, nil // not -0
	}
	return v, nil
}

// ParseBytes parses a byte count, as the flags that bound what a command
// reads take it: a whole number, optionally followed by B, KiB, MiB or GiB.
func ParseBytes(s string) (int64, error) {
	units := []struct {
		suffix string
		mult   int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}}
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("size %q must be a positive whole number of bytes, optionally with KiB, MiB or GiB", s)
	}
	return n * mult, nil
}
