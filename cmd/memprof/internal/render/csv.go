package render

import (
	"encoding/csv"
	"io"

	"github.com/memprof/memprof/results"
)

// CSVHeader is the header row of the CSV output: the names of
// results.CSVColumns. Every row has every column; a column that does not
// apply to a row's kind is empty. Numbers carry no unit: the unit is in
// the column name.
var CSVHeader = results.CSVHeader()

// The kinds of CSV rows (its "kind" column).
const (
	CSVKindInstances   = string(results.RowInstances)   // one case of the instances measurement
	CSVKindThroughput  = string(results.RowThroughput)  // one operation of one case
	CSVKindUnavailable = string(results.RowUnavailable) // a combination or operation not offered, with the reason in note
)

// CSV writes rs as comma-separated values: the header row, then one row per
// measured case (kind "instances"), one per timed operation (kind
// "throughput") and one per combination that could not be measured (kind
// "unavailable", numbers empty, the reason in "note"). A failed case keeps
// its row, with its numbers empty and the message in "error". Figures are
// raw (results.Column.FormatRaw): exact, whatever their resolution, a
// reading below zero written 0.
func CSV(w io.Writer, rs *results.File) error {
	cols := results.CSVColumns()
	cw := csv.NewWriter(w)
	write := func(read func(results.Column) results.Cell) error {
		rec := make([]string, len(cols))
		for i, c := range cols {
			rec[i] = c.FormatRaw(read(c))
		}
		return cw.Write(rec)
	}
	header := make([]string, len(cols))
	for i, c := range cols {
		header[i] = c.Header(results.InCSV)
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	instances := append([]results.Row(nil), rs.Instances...)
	SortInstances(instances)
	for _, r := range instances {
		if err := write(func(c results.Column) results.Cell { return c.ReadInstance(&r) }); err != nil {
			return err
		}
	}
	for _, r := range SortedThroughput(rs.Throughput) {
		if err := write(func(c results.Column) results.Cell { return c.ReadThroughput(&r) }); err != nil {
			return err
		}
	}
	for _, u := range append(unavailableInstances(rs), unavailableOps(rs)...) {
		if err := write(func(c results.Column) results.Cell { return c.ReadUnavailable(&u) }); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
