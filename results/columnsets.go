package results

import (
	"fmt"
	"strconv"
	"strings"
)

// InstanceColumns returns the columns of instance rows that show in one
// of the formats show, in order.
func InstanceColumns(show Formats) []Column {
	return selectColumns(show, func(c Column) bool { return c.Instance != nil })
}

// ThroughputColumns returns the columns of throughput rows that show in
// one of the formats show, in order.
func ThroughputColumns(show Formats) []Column {
	return selectColumns(show, func(c Column) bool { return c.Throughput != nil })
}

// CSVColumns returns the columns of the CSV file, in order: every row of
// it has every column, empty where the column does not apply.
func CSVColumns() []Column {
	return selectColumns(InCSV, func(Column) bool { return true })
}

// CSVHeader returns the header row of the CSV file: the names of
// CSVColumns.
func CSVHeader() []string {
	var h []string
	for _, c := range CSVColumns() {
		h = append(h, c.Name)
	}
	return h
}

func selectColumns(show Formats, ok func(Column) bool) []Column {
	var out []Column
	for _, c := range Columns {
		if c.Show&show != 0 && ok(c) {
			out = append(out, c)
		}
	}
	return out
}

// LookupColumn returns the column called name: its JSON name, its
// terminal label or its Markdown label. The error lists the names.
func LookupColumn(name string) (Column, error) {
	for _, c := range Columns {
		if name != "" && (name == c.Name || name == c.Label || name == c.MarkdownLabel) {
			return c, nil
		}
	}
	var names []string
	for _, c := range Columns {
		names = append(names, strconv.Quote(c.Name))
	}
	return Column{}, fmt.Errorf("unknown column %q: must be one of %s (or a table's header label)", name, strings.Join(names, ", "))
}
