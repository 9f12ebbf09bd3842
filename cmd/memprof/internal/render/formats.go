package render

import (
	"io"

	"github.com/memprof/memprof/export"
	"github.com/memprof/memprof/heapscan"
	"github.com/memprof/memprof/results"
)

// WriteResults writes rs in format, as every command that prints results
// writes them: json (the results file), markdown, csv, bench (Go
// benchmark text), or the command's own table (any other format).
func WriteResults(w io.Writer, rs *results.File, format string, table func(io.Writer, *results.File) error) error {
	switch format {
	case "json":
		return rs.WriteJSON(w)
	case "markdown":
		return Markdown(w, rs)
	case "csv":
		return CSV(w, rs)
	case "bench":
		return export.Bench(w, rs)
	}
	return table(w, rs)
}

// WriteHeapscan writes a profile's summary s in format: json, markdown,
// csv, or the table (any other format) at width columns in style.
func WriteHeapscan(w io.Writer, s *heapscan.Summary, view HeapscanView, format string, width int, style Style) error {
	switch format {
	case "json":
		return s.WriteJSON(w, view.Instances)
	case "markdown":
		return HeapscanMarkdown(w, s, view)
	case "csv":
		return HeapscanCSV(w, s, view)
	}
	return HeapscanTableFit(w, s, view, width, style)
}
