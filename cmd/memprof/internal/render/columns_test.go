package render

import (
	"bytes"
	"io"
	"slices"
	"testing"

	"github.com/memprof/memprof/model"
)

// TestHeadersFromSpec checks that every table and the CSV take their
// columns from model.Columns: the header of each is the spec's columns
// for its rows and format (and, in the tables, the note column).
func TestHeadersFromSpec(t *testing.T) {
	rs := withThroughput(loadFixture(t))
	// One row with a setting, a path and sites: the columns tables leave
	// out when empty (OmitEmpty) show.
	r := &rs.Throughput[0]
	r.Param, r.Path, r.SitesCalls = "tasks=1", "Uncompress, Verify", 4
	r.Sites = []model.OpSite{{Function: "pkg.f", File: "f.go", Line: 3, BytesPerOp: 96, AllocsPerOp: 1}}
	labels := func(cols []model.Column, f model.Formats) []string {
		var out []string
		for _, c := range cols {
			out = append(out, c.Header(f))
		}
		return append(out, "note")
	}
	tests := []struct {
		name   string
		render func(io.Writer, *model.Results) error
		sep    string
		want   []string
	}{
		{"instances table", InstancesTable, "│", labels(model.InstanceColumns(model.InTable), model.InTable)},
		{"instances markdown", func(w io.Writer, rs *model.Results) error {
			mw := NewMarkdownWriter(w)
			InstancesMarkdownTable(mw, rs)
			return mw.Err()
		}, "|", labels(model.InstanceColumns(model.InMarkdown), model.InMarkdown)},
		{"throughput table", ThroughputTable, "│", labels(model.ThroughputColumns(model.InTable), model.InTable)},
		{"throughput markdown", func(w io.Writer, rs *model.Results) error {
			mw := NewMarkdownWriter(w)
			ThroughputMarkdownTable(mw, rs, "")
			return mw.Err()
		}, "|", labels(model.ThroughputColumns(model.InMarkdown), model.InMarkdown)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := tt.render(&buf, rs); err != nil {
				t.Fatal(err)
			}
			got := cellsByRepr(buf.String(), tt.sep)["repr"]
			if !slices.Equal(got, tt.want) {
				t.Errorf("header: got %q, want %q", got, tt.want)
			}
		})
	}
	if !slices.Equal(CSVHeader, model.CSVHeader()) {
		t.Errorf("CSVHeader: got %v, want model.CSVHeader() %v", CSVHeader, model.CSVHeader())
	}
}

// TestOmitEmptyColumns: a table of the default columns leaves out an
// OmitEmpty column that no row fills (results without paths or sites),
// and keeps it when one row does; columns a reader chose are all shown.
func TestOmitEmptyColumns(t *testing.T) {
	var chosen []model.Column
	for _, name := range []string{"type", "lib", "repr", "top_site"} {
		c, err := model.LookupColumn(name)
		if err != nil {
			t.Fatal(err)
		}
		chosen = append(chosen, c)
	}
	withSite := func(r *model.ThroughputRow) {
		r.Sites, r.SitesCalls = []model.OpSite{{Function: "example.com/lib.Verify", File: "lib.go", Line: 7, BytesPerOp: 64, AllocsPerOp: 1}}, 10
	}
	for _, tt := range []struct {
		name string
		edit func(*model.ThroughputRow)
		opts TableOptions
		want bool
	}{
		{"no row has sites", func(*model.ThroughputRow) {}, TableOptions{Wide: true}, false},
		{"one row has sites", withSite, TableOptions{Wide: true}, true},
		{"chosen, though no row has sites", func(*model.ThroughputRow) {}, TableOptions{Columns: chosen}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rs := withThroughput(loadFixture(t))
			tt.edit(&rs.Throughput[0])
			var buf bytes.Buffer
			if err := ThroughputTableFit(&buf, rs, tt.opts); err != nil {
				t.Fatal(err)
			}
			if got := slices.Contains(cellsByRepr(buf.String(), "│")["repr"], "top site"); got != tt.want {
				t.Errorf("got a top site column %v, want %v:\n%s", got, tt.want, buf.String())
			}
		})
	}
}
