package render

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// Markdown writes rs as GitHub-flavoured Markdown tables: the instances
// (failed and unavailable cases included, with the reason), the throughput
// rows when there are any, and the allocation sites. It is the
// --format markdown output of the instances and throughput commands.
func Markdown(w io.Writer, rs *results.File) error {
	mw := &mdWriter{w: w}
	if len(rs.Instances) > 0 || len(unavailableInstances(rs)) > 0 {
		mw.line("### Bytes per instance")
		mw.line("")
		InstancesMarkdownTable(mw, rs)
	}
	if len(rs.Throughput) > 0 || len(unavailableOps(rs)) > 0 {
		mw.sep()
		mw.line("### Throughput")
		mw.line("")
		ThroughputMarkdownTable(mw, rs, "")
	}
	if hasSites(rs) {
		mw.sep()
		mw.line("### Allocation sites")
		mw.line("")
		SitesMarkdownTable(mw, rs)
	}
	return mw.err
}

// InstancesMarkdownTable writes one Markdown row per case of rs and per
// unavailable combination: the columns of the terminal table.
func InstancesMarkdownTable(mw *MarkdownWriter, rs *results.File) {
	t, _ := instanceTable(rs, results.InstanceColumns(results.InMarkdown), results.InMarkdown, false)
	mw.Table(t)
}

// ThroughputMarkdownTable writes the throughput rows of rs (only those of
// type typ when typ is not empty) with the operations a library does not
// offer, as one Markdown table.
func ThroughputMarkdownTable(mw *MarkdownWriter, rs *results.File, typ vocab.Type) {
	mw.Table(throughputTable(rs, omitEmpty(results.ThroughputColumns(results.InMarkdown), rs, typ), results.InMarkdown, typ, func(r *results.ThroughputRow) string { return r.Note }, unavailableNote))
}

// SitesMarkdownTable writes the allocation sites of every measured case.
func SitesMarkdownTable(mw *MarkdownWriter, rs *results.File) {
	mw.Table(sitesTable(rs, true))
}

func hasSites(rs *results.File) bool {
	for _, r := range rs.Instances {
		if len(r.Sites) > 0 {
			return true
		}
	}
	return false
}

// MarkdownTable is a Markdown table: a header, rows of cells, and which
// columns align right (numbers).
type MarkdownTable struct {
	Header []string
	Right  []bool
	Rows   [][]string
}

// MarkdownWriter writes Markdown to w and remembers the first error, so a
// document is written without an error check per line.
type MarkdownWriter struct {
	w       io.Writer
	err     error
	started bool
}

type mdWriter = MarkdownWriter

// NewMarkdownWriter returns a MarkdownWriter that writes to w.
func NewMarkdownWriter(w io.Writer) *MarkdownWriter { return &MarkdownWriter{w: w} }

// Err returns the first write error.
func (mw *MarkdownWriter) Err() error { return mw.err }

// Printf writes formatted text.
func (mw *MarkdownWriter) Printf(format string, a ...any) {
	if mw.err != nil {
		return
	}
	mw.started = true
	_, mw.err = fmt.Fprintf(mw.w, format, a...)
}

func (mw *MarkdownWriter) line(s string) { mw.Printf("%s\n", s) }

// Line writes s and a newline.
func (mw *MarkdownWriter) Line(s string) { mw.line(s) }

// sep writes a blank line unless nothing was written yet.
func (mw *MarkdownWriter) sep() {
	if mw.started {
		mw.line("")
	}
}

// Table writes t with its columns padded, so the source reads as a table
// too. Pipes inside cells are escaped. A table without rows is written as
// its header and a "(none)" line.
func (mw *MarkdownWriter) Table(t MarkdownTable) {
	width := make([]int, len(t.Header))
	cell := func(s string) string {
		return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
	}
	rows := make([][]string, 0, len(t.Rows)+1)
	rows = append(rows, t.Header)
	rows = append(rows, t.Rows...)
	for i, r := range rows {
		esc := make([]string, len(t.Header))
		for j := range t.Header {
			if j < len(r) {
				esc[j] = cell(r[j])
			}
			width[j] = max(width[j], utf8.RuneCountInString(esc[j]), 3)
		}
		rows[i] = esc
	}
	right := func(j int) bool { return j < len(t.Right) && t.Right[j] }
	pad := func(s string, j int) string {
		n := width[j] - utf8.RuneCountInString(s)
		if right(j) {
			return strings.Repeat(" ", n) + s
		}
		return s + strings.Repeat(" ", n)
	}
	for i, r := range rows {
		var b strings.Builder
		b.WriteString("|")
		for j, c := range r {
			b.WriteString(" " + pad(c, j) + " |")
		}
		mw.line(b.String())
		if i == 0 {
			b.Reset()
			b.WriteString("|")
			for j := range t.Header {
				if right(j) {
					b.WriteString(" " + strings.Repeat("-", width[j]-1) + ": |")
				} else {
					b.WriteString(" " + strings.Repeat("-", width[j]) + " |")
				}
			}
			mw.line(b.String())
		}
	}
	if len(t.Rows) == 0 {
		mw.line("")
		mw.line("(none)")
	}
}
