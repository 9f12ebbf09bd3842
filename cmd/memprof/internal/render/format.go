// Package render turns memprof results into terminal tables (and, through
// its other files, into the other output formats). It only formats: it
// never measures, and it writes only to the io.Writer it is given. The
// columns of its tables and of the CSV file are results.Columns, and every
// figure is written by model's unit formatters.
package render

import "github.com/memprof/memprof/units"

// Num formats a per-instance figure: units.FormatFigure (kept under this
// name for the packages that call it).
func Num(v float64) string { return units.FormatFigure(v) }

// Duration formats a time in nanoseconds: units.FormatNs.
func Duration(ns float64) string { return units.FormatNs(ns) }
