package render

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/memprof/memprof/heapscan"
	"github.com/memprof/memprof/units"
)

// HeapscanView says what the heapscan renderers show besides the summary.
type HeapscanView struct {
	// Source and Base name the profile and, in a diff, the base profile.
	Source string
	Base   string
	// Instances, when positive, adds bytes and objects per instance.
	Instances int64
}

// heapscanTable is the summary as header and cells, shared by the table
// and Markdown renderers. A figure the profile cannot know (objects of a
// profile that counts none, a sampled profile's error without counts) is
// "?"; one that does not apply (bytes per object of a row without a
// positive count) is empty.
func heapscanTable(s *heapscan.Summary, v HeapscanView) (header []string, right []bool, rows [][]string) {
	sampled := !s.Exact() && !s.NoSamplingError
	col := func(name string, r bool) {
		header = append(header, name)
		right = append(right, r)
	}
	col(s.GroupBy, false)
	if s.Diff {
		col("status", false)
	}
	col("objects", true)
	if s.Diff {
		col("Δobjects", true)
	}
	col("bytes", true)
	if s.Diff {
		col("Δbytes", true)
		col("base bytes", true)
	}
	col("B/object", true)
	col("sizes", false)
	col("share", true)
	if v.Instances > 0 {
		col("B/instance", true)
		col("objects/instance", true)
	}
	if sampled {
		col("±", true)
		col("sampled", true)
		col("note", false)
	}
	unknown := func(known bool, text string) string {
		if !known {
			return "?"
		}
		return text
	}
	for i := range s.Rows {
		r := &s.Rows[i]
		var c []string
		c = append(c, r.Key)
		if s.Diff {
			c = append(c, r.Status)
		}
		c = append(c, unknown(!s.NoObjects, strconv.FormatInt(r.Objects, 10)))
		if s.Diff {
			c = append(c, unknown(!s.NoObjects, signed(r.DeltaObjects())))
		}
		c = append(c, strconv.FormatInt(r.Bytes, 10))
		if s.Diff {
			c = append(c, signed(r.DeltaBytes()), strconv.FormatInt(r.BaseBytes, 10))
		}
		perObject := ""
		if bpo, ok := s.BytesPerObject(r); ok {
			perObject = Num(bpo)
		} else if s.NoObjects {
			perObject = "?"
		}
		c = append(c, perObject, sizesText(r.Sizes), percent(s.Share(r)))
		if v.Instances > 0 {
			n := float64(v.Instances)
			c = append(c, Num(float64(r.Bytes)/n), unknown(!s.NoObjects, Num(float64(r.Objects)/n)))
		}
		if sampled {
			relErr, count, note := "", "", ""
			if e, ok := s.RelError(r); ok {
				relErr = percent(e)
				if r.LowSamples {
					note = fmt.Sprintf("few samples (<%d)", heapscan.MinSampled)
				}
			} else if s.NoObjects {
				relErr = "?"
			}
			if n, ok := s.Sampled(r); ok {
				count = strconv.FormatInt(n, 10)
			} else if s.NoObjects {
				count = "?"
			}
			c = append(c, relErr, count, note)
		}
		rows = append(rows, c)
	}
	return header, right, rows
}

// heapscanPreamble is the text above the table: what was read and how
// far its figures can be trusted.
func heapscanPreamble(s *heapscan.Summary, v HeapscanView) []string {
	var lines []string
	objects := func(n int64) string {
		if s.NoObjects {
			return "?"
		}
		return strconv.FormatInt(n, 10)
	}
	lines = append(lines, fmt.Sprintf("profile %s: %s, grouped by %s; total %d B in %s objects", v.Source, s.Sample, s.GroupBy, s.TotalBytes, objects(s.TotalObjects)))
	if s.Diff {
		lines = append(lines, fmt.Sprintf("base %s: total %d B in %s objects; rows sorted by absolute change in bytes", v.Base, s.BaseTotalBytes, objects(s.BaseTotalObjects)))
	}
	lines = append(lines, samplingNote("profile", s.Period, s.NoSamplingError))
	if s.Diff && s.BasePeriod != s.Period {
		lines = append(lines, samplingNote("base", s.BasePeriod, s.NoSamplingError))
	}
	if v.Instances > 0 {
		lines = append(lines, fmt.Sprintf("per instance: divided by %d instances", v.Instances))
	}
	for _, n := range s.Notes {
		lines = append(lines, "note: "+n)
	}
	return lines
}

func samplingNote(which string, period int64, noError bool) string {
	switch {
	case period <= 0:
		return fmt.Sprintf("%s sampling period unknown (%d): figures as stated, error not estimated", which, period)
	case noError:
		return fmt.Sprintf("%s sampling period %d: figures as stated, error not estimated", which, period)
	case period == 1:
		return fmt.Sprintf("%s sampling period 1: exact, every allocation recorded", which)
	default:
		return fmt.Sprintf("%s sampling period %d B: figures are the runtime's estimates; ± is each row's relative error from its sampled objects (1/√sampled); rows with fewer than %d sampled objects are marked", which, period, heapscan.MinSampled)
	}
}

func heapscanOmitted(s *heapscan.Summary) string {
	if s.OmittedRows == 0 {
		return ""
	}
	return fmt.Sprintf("(%d more rows, %d B, not shown: see --top)", s.OmittedRows, s.OmittedBytes)
}

// HeapscanTableFit writes the summary as a terminal table fitted to width
// (0: no limit), in the style of go tool pprof -top: the figures, then
// the group's name last, shortened visibly ("…") where it does not fit
// (a function or rule keeps its end, a site or stack its start: the
// allocating frame). A row with few sampled objects refers to a
// footnote.
func HeapscanTableFit(w io.Writer, s *heapscan.Summary, v HeapscanView, width int, style Style) error {
	pw := &paraWriter{w: w, width: width}
	for _, l := range heapscanPreamble(s, v) {
		pw.para(l, "")
	}
	if pw.err != nil {
		return pw.err
	}
	header, right, rows := heapscanTable(s, v)
	g := &grid{more: "--format csv or json shows them"}
	for i, h := range header[1:] {
		// The bytes, objects and share (and, in a diff, the change in
		// bytes; with --instances, bytes per instance) are never left
		// out; the other figures go before the name is shortened.
		c := gridCol{label: h, right: right[i+1], kind: rangeCol}
		switch h {
		case "objects", "bytes", "share", "status", "Δbytes", "B/instance":
			c.kind, c.keep = figureCol, true
		case "note":
			c.kind = proseCol
		}
		g.cols = append(g.cols, c)
	}
	g.cols = append(g.cols, gridCol{label: header[0], kind: keyCol, shorten: true, fromLeft: s.GroupBy == "function" || s.GroupBy == "rule"})
	few := fmt.Sprintf("few sampled objects (fewer than %d): the estimate is rough", heapscan.MinSampled)
	for _, r := range rows {
		var cells []gridCell
		for i, c := range r[1:] {
			switch {
			case header[i+1] == "note" && c != "":
				cells = append(cells, gridCell{text: "few", note: g.note(few)})
			case c == "":
				cells = append(cells, plain("-"))
			case header[i+1] == "sizes":
				cells = append(cells, plain(strings.ReplaceAll(c, " ", ",")))
			default:
				cells = append(cells, plain(c))
			}
		}
		g.add(append(cells, plain(r[0]))...)
	}
	if o := heapscanOmitted(s); o != "" {
		g.after = []string{o}
	}
	return writeGrid(w, g, width, false, style)
}

// HeapscanMarkdown writes the summary as Markdown.
func HeapscanMarkdown(w io.Writer, s *heapscan.Summary, v HeapscanView) error {
	mw := NewMarkdownWriter(w)
	for _, l := range heapscanPreamble(s, v) {
		mw.Line("- " + l)
	}
	mw.Line("")
	header, right, rows := heapscanTable(s, v)
	for _, r := range rows {
		r[0] = "`" + strings.ReplaceAll(r[0], "`", "'") + "`"
	}
	mw.Table(MarkdownTable{Header: header, Right: right, Rows: rows})
	if o := heapscanOmitted(s); o != "" {
		mw.Line("")
		mw.Line(o)
	}
	return mw.Err()
}

// HeapscanCSVHeader is the header of the heapscan CSV output. Every row
// has every column; base columns are empty outside a diff, per-instance
// columns without instances.
var HeapscanCSVHeader = []string{
	"key", "objects", "bytes", "bytes_per_object", "sizes", "share",
	"sampled", "rel_error", "low_samples", "base_objects", "base_bytes", "status",
	"bytes_per_instance", "objects_per_instance",
}

// HeapscanCSV writes the summary as comma-separated values, numbers
// unformatted; sizes are separated by spaces. A cell is empty where the
// figure does not apply or is not known (the JSON's null).
func HeapscanCSV(w io.Writer, s *heapscan.Summary, v HeapscanView) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(HeapscanCSVHeader); err != nil {
		return err
	}
	f := units.FormatExact
	for i := range s.Rows {
		r := &s.Rows[i]
		rec := []string{
			r.Key, "", strconv.FormatInt(r.Bytes, 10),
			"", sizesText(r.Sizes), f(s.Share(r)),
			"", "", "",
			"", "", r.Status, "", "",
		}
		if !s.NoObjects {
			rec[1] = strconv.FormatInt(r.Objects, 10)
		}
		if bpo, ok := s.BytesPerObject(r); ok {
			rec[3] = f(bpo)
		}
		if n, ok := s.Sampled(r); ok {
			rec[6] = strconv.FormatInt(n, 10)
		}
		if e, ok := s.RelError(r); ok {
			rec[7], rec[8] = f(e), strconv.FormatBool(r.LowSamples)
		}
		if s.Diff {
			rec[10] = strconv.FormatInt(r.BaseBytes, 10)
			if !s.NoObjects {
				rec[9] = strconv.FormatInt(r.BaseObjects, 10)
			}
		}
		if v.Instances > 0 {
			n := float64(v.Instances)
			rec[12] = f(float64(r.Bytes) / n)
			if !s.NoObjects {
				rec[13] = f(float64(r.Objects) / n)
			}
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func sizesText(sizes []int64) string {
	var b strings.Builder
	for i, s := range sizes {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.FormatInt(s, 10))
	}
	return b.String()
}

func signed(v int64) string {
	if v > 0 {
		return "+" + strconv.FormatInt(v, 10)
	}
	return strconv.FormatInt(v, 10)
}

func percent(v float64) string { return units.FormatPercent(v) }

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
