package render

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter/pkg/twwidth"

	"github.com/memprof/memprof/cmd/memprof/internal/tabletest"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
)

// TestTablesFitTheWidth: at 80 and 120 columns every line the instances
// and throughput tables print fits the width (their footnotes and sites
// included); every default figure column is there at 120 and at 80 for
// the instances, the figures left out are named; no row is lost; and
// --wide keeps every column whatever the width.
func TestTablesFitTheWidth(t *testing.T) {
	rs := loadFixture(t)
	tests := []struct {
		name   string
		render func(io.Writer, *results.File, TableOptions) error
		cols   []results.Column
	}{
		{"instances", InstancesTableFit, results.InstanceColumns(results.InDefaultTable)},
		{"throughput", ThroughputTableFit, results.ThroughputColumns(results.InDefaultTable)},
	}
	for _, tt := range tests {
		for _, width := range []int{80, 120} {
			t.Run(tt.name+"/"+itoa(width), func(t *testing.T) {
				var buf bytes.Buffer
				if err := tt.render(&buf, rs, TableOptions{Width: width}); err != nil {
					t.Fatal(err)
				}
				out := buf.String()
				for i, line := range strings.Split(out, "\n") {
					if w := twwidth.Width(line); w > width {
						t.Errorf("line %d is %d columns wide, want at most %d: %q", i+1, w, width, line)
					}
				}
				tables, _ := tabletest.Parse(out)
				rows := 0
				for _, tb := range tables {
					if !slices.Contains(tb.Header, "repr") || slices.Contains(tb.Header, "allocation site") {
						continue // the sites
					}
					rows += len(tb.Rows)
					var omitted []string
					for _, c := range tt.cols {
						if isKey(c) {
							continue
						}
						if !slices.Contains(tb.Header, c.Header(results.InTable)) && !slices.Contains(tb.Header, c.ShortLabel()) {
							omitted = append(omitted, c.Header(results.InTable))
						}
					}
					if len(omitted) > 0 && !strings.Contains(strings.Join(strings.Fields(out), " "), "Not shown at "+itoa(width)+" columns: ") {
						t.Errorf("columns %q are left out without a line naming them:\n%s", omitted, out)
					}
					if len(omitted) > 0 && (tt.name == "instances" || width == 120) {
						t.Errorf("at %d columns the %s table leaves out %q, want every default figure", width, tt.name, omitted)
					}
				}
				if want := tableRows(t, rs, tt.name); rows < want {
					t.Errorf("got %d rows, want at least %d", rows, want)
				}
			})
		}
	}
	var buf bytes.Buffer
	if err := InstancesTableFit(&buf, rs, TableOptions{Width: 80, Wide: true}); err != nil {
		t.Fatal(err)
	}
	tables, _ := tabletest.Parse(buf.String())
	for _, c := range results.InstanceColumns(results.InTable) {
		if isKey(c) {
			continue
		}
		if !slices.Contains(tables[0].Header, c.Header(results.InTable)) && !slices.Contains(tables[0].Header, c.ShortLabel()) {
			t.Errorf("--wide at 80: no column %s in %q", c.Header(results.InTable), tables[0].Header)
		}
	}
}

func itoa(n int) string { return units.FormatFixed(float64(n), 0) }

// tableRows is how many rows the fixture's table of kind has at least:
// its measured rows.
func tableRows(t *testing.T, rs *results.File, kind string) int {
	t.Helper()
	if kind == "instances" {
		return len(rs.Instances)
	}
	return len(rs.Throughput)
}

// TestWrap: every line fits, no word is split (a word wider than the
// line has a line of its own), nothing is lost.
func TestWrap(t *testing.T) {
	tests := []struct {
		s     string
		width int
		want  string
	}{
		{"n=100000", 16, "n=100000"},
		{"n/a: circl has no affine point type: ecc/bls12381 G1/G2 are homogeneous projective", 24,
			"n/a: circl has no affine\npoint type: ecc/bls12381\nG1/G2 are homogeneous\nprojective"},
		{"see github.com/memprof/memprof/suites/internal/suitekit.Fill[...].Pointer.func1.1:132 here", 33,
			"see\ngithub.com/memprof/memprof/suites/internal/suitekit.Fill[...].Pointer.func1.1:132\nhere"},
		{"population=1000000 and more", 10, "population=1000000\nand more"},
	}
	for _, tt := range tests {
		t.Run(tt.s, func(t *testing.T) {
			got := Wrap(tt.s, tt.width, "")
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			for _, l := range strings.Split(got, "\n") {
				if twwidth.Width(l) > tt.width && strings.Contains(l, " ") {
					t.Errorf("line %q is wider than %d and has a space to break at", l, tt.width)
				}
			}
			if !slices.Equal(strings.Fields(got), strings.Fields(tt.s)) {
				t.Errorf("wrapping changed the words: %q from %q", got, tt.s)
			}
		})
	}
}

func TestChooseColumns(t *testing.T) {
	instances := func(c results.Column) bool { return c.Instance != nil }
	tests := []struct {
		names []string
		want  []string // column names, or the error's text
		err   bool
	}{
		{[]string{"type", "B/instance", "sizeof_bytes", "C heap B"}, []string{"type", "bytes_per_instance", "sizeof_bytes", "c_heap_bytes_per_instance"}, false},
		{[]string{"sites"}, []string{`--columns: column "sites" is not one of the instance table's: choose from `}, true},
		{[]string{"time/op"}, []string{`--columns: column "time/op" is not one of the instance table's`}, true},
		{[]string{"bogus"}, []string{`--columns: unknown column "bogus": choose from the instance table's kind, name, type, lib`}, true},
		{[]string{"note"}, []string{"--columns: the instance table's notes are footnotes under it: leave note out"}, true},
		{[]string{"lib", "lib"}, []string{`--columns: column "lib" is named twice`}, true},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.names, ","), func(t *testing.T) {
			cols, err := ChooseColumns(tt.names, "instance", instances)
			if tt.err {
				if err == nil || !strings.HasPrefix(err.Error(), tt.want[0]) {
					t.Errorf("got %v, want an error starting %q", err, tt.want[0])
				}
				// It offers the instance table's columns only.
				if err != nil && strings.Contains(err.Error(), "ns_per_op_median") {
					t.Errorf("got %v, which offers a column of the throughput table", err)
				}
				return
			}
			var got []string
			for _, c := range cols {
				got = append(got, c.Name)
			}
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
