// Package render turns memprof results into terminal tables (and, through
// its other files, into the other output formats). It only formats: it
// never measures, and it writes only to the io.Writer it is given.
package render

import (
	"math"
	"strconv"
)

// Num formats a per-instance figure: whole numbers without decimals (the
// exact figures are whole), others with two, and small fractions with two
// significant digits so that they do not read as zero.
func Num(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	if math.Abs(v) < 0.01 {
		return strconv.FormatFloat(v, 'g', 2, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}
