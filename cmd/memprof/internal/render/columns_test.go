package render

import (
	"bytes"
	"io"
	"slices"
	"testing"

	"github.com/memprof/memprof/cmd/memprof/internal/tabletest"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
)

// TestHeadersFromSpec checks that every table and the CSV take their
// columns from results.Columns: the figures of each terminal table are the
// spec's figure columns for its rows and format, in order (its key
// columns those of the spec that vary, the others in its heading), and
// the Markdown tables' header is the spec's columns and the note.
func TestHeadersFromSpec(t *testing.T) {
	rs := withThroughput(loadFixture(t))
	// One row with a setting, a path and sites: the columns tables leave
	// out when empty (OmitEmpty) show.
	r := &rs.Throughput[0]
	r.Param, r.Path, r.SitesCalls = "tasks=1", "Uncompress, Verify", 4
	r.Sites = []measure.OpSite{{Function: "pkg.f", File: "f.go", Line: 3, BytesPerOp: 96, AllocsPerOp: 1}}
	labels := func(cols []results.Column, f results.Formats, keys bool) []string {
		var out []string
		for _, c := range cols {
			if isKey(c) == keys {
				out = append(out, c.Header(f))
			}
		}
		return out
	}
	for _, tt := range []struct {
		name   string
		render func(io.Writer, *results.File) error
		cols   []results.Column
	}{
		{"instances table", func(w io.Writer, rs *results.File) error { return InstancesTableFit(w, rs, TableOptions{Wide: true}) }, results.InstanceColumns(results.InTable)},
		{"throughput table", func(w io.Writer, rs *results.File) error { return ThroughputTableFit(w, rs, TableOptions{Wide: true}) }, results.ThroughputColumns(results.InTable)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := tt.render(&buf, rs); err != nil {
				t.Fatal(err)
			}
			tables, _ := tabletest.Parse(buf.String())
			if len(tables) == 0 {
				t.Fatalf("no table in\n%s", buf.String())
			}
			figures := labels(tt.cols, results.InTable, false)
			for _, tb := range tables {
				if slices.Contains(tb.Header, "allocation site") {
					continue
				}
				var gotFigures, gotKeys []string
				for _, h := range tb.Header {
					switch {
					case slices.Contains(figures, h):
						gotFigures = append(gotFigures, h)
					case h != "N" && h != "note":
						gotKeys = append(gotKeys, h)
					}
				}
				if tt.name == "throughput table" {
					// A section leaves out an OmitEmpty column that no row
					// of its type fills.
					figures = slices.DeleteFunc(slices.Clone(figures), func(h string) bool { return !slices.Contains(tb.Header, h) && (h == "top site" || h == "path") })
				}
				if !slices.Equal(gotFigures, figures) {
					t.Errorf("figures: got %q, want %q", gotFigures, figures)
				}
				keys := append(labels(tt.cols, results.InTable, true), "scheme", "param")
				for _, k := range gotKeys {
					if !slices.Contains(keys, k) {
						t.Errorf("column %q is neither a figure nor a key of the spec (%q)", k, keys)
					}
				}
			}
		})
	}
	for _, tt := range []struct {
		name   string
		render func(io.Writer, *results.File) error
		want   []string
	}{
		{"instances markdown", func(w io.Writer, rs *results.File) error {
			mw := NewMarkdownWriter(w)
			InstancesMarkdownTable(mw, rs)
			return mw.Err()
		}, append(labels(results.InstanceColumns(results.InMarkdown), results.InMarkdown, true), append(labels(results.InstanceColumns(results.InMarkdown), results.InMarkdown, false), "note")...)},
		{"throughput markdown", func(w io.Writer, rs *results.File) error {
			mw := NewMarkdownWriter(w)
			ThroughputMarkdownTable(mw, rs, "")
			return mw.Err()
		}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := tt.render(&buf, rs); err != nil {
				t.Fatal(err)
			}
			got := cellsByRepr(buf.String(), "|")["repr"]
			want := tt.want
			if want == nil {
				for _, c := range results.ThroughputColumns(results.InMarkdown) {
					want = append(want, c.Header(results.InMarkdown))
				}
				want = append(want, "note")
			}
			if !slices.Equal(got, want) {
				t.Errorf("header: got %q, want %q", got, want)
			}
		})
	}
	if !slices.Equal(CSVHeader, results.CSVHeader()) {
		t.Errorf("CSVHeader: got %v, want results.CSVHeader() %v", CSVHeader, results.CSVHeader())
	}
}

// TestOmitEmptyColumns: a table of the default columns leaves out an
// OmitEmpty column that no row fills (results without paths or sites),
// and keeps it when one row does; columns a reader chose are all shown.
func TestOmitEmptyColumns(t *testing.T) {
	var chosen []results.Column
	for _, name := range []string{"type", "lib", "repr", "top_site"} {
		c, err := results.LookupColumn(name)
		if err != nil {
			t.Fatal(err)
		}
		chosen = append(chosen, c)
	}
	withSite := func(r *results.ThroughputRow) {
		r.Sites, r.SitesCalls = []measure.OpSite{{Function: "example.com/lib.Verify", File: "lib.go", Line: 7, BytesPerOp: 64, AllocsPerOp: 1}}, 10
	}
	for _, tt := range []struct {
		name string
		edit func(*results.ThroughputRow)
		opts TableOptions
		want bool
	}{
		{"no row has sites", func(*results.ThroughputRow) {}, TableOptions{Wide: true}, false},
		{"one row has sites", withSite, TableOptions{Wide: true}, true},
		{"chosen, though no row has sites", func(*results.ThroughputRow) {}, TableOptions{Columns: chosen}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rs := withThroughput(loadFixture(t))
			tt.edit(&rs.Throughput[0])
			var buf bytes.Buffer
			if err := ThroughputTableFit(&buf, rs, tt.opts); err != nil {
				t.Fatal(err)
			}
			tables, _ := tabletest.Parse(buf.String())
			got := slices.ContainsFunc(tables, func(tb tabletest.Table) bool { return slices.Contains(tb.Header, "top site") })
			if got != tt.want {
				t.Errorf("got a top site column %v, want %v:\n%s", got, tt.want, buf.String())
			}
		})
	}
}
