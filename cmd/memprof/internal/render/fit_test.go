package render

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter/pkg/twwidth"

	"github.com/memprof/memprof/model"
)

// TestTablesFitTheWidth: at 80 and 120 columns every line the instances
// and throughput tables print (their sites and footnotes included) fits
// the width; at 120 the instances table has every default column, at 80
// the figures it leaves out are named under it; no row is lost; and
// --wide keeps every column whatever the width.
func TestTablesFitTheWidth(t *testing.T) {
	rs := loadFixture(t)
	labels := func(cols []model.Column) []string {
		var out []string
		for _, c := range cols {
			out = append(out, c.Header(model.InTable))
		}
		return append(out, "note")
	}
	tests := []struct {
		name   string
		render func(io.Writer, *model.Results, TableOptions) error
		cols   []model.Column
	}{
		{"instances", InstancesTableFit, model.InstanceColumns(model.InDefaultTable)},
		{"throughput", ThroughputTableFit, model.ThroughputColumns(model.InDefaultTable)},
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
				header := cellsByRepr(out, "│")["repr"]
				want := labels(tt.cols)
				var shown, omitted []string
				for _, h := range want {
					if slices.Contains(header, h) {
						shown = append(shown, h)
					} else {
						omitted = append(omitted, h)
					}
				}
				if !slices.Equal(header, shown) {
					t.Errorf("header: got %q, want the default columns %q in order, or a part of them", header, want)
				}
				if len(omitted) > 0 && !strings.Contains(out, "Not shown at "+itoa(width)+" columns: "+strings.Join(omitted, ", ")) {
					t.Errorf("columns %q are left out without a line naming them:\n%s", omitted, out)
				}
				for _, must := range []string{"type", "lib", "repr", "note"} {
					if !slices.Contains(header, must) {
						t.Errorf("header %q lacks %s", header, must)
					}
				}
				if tt.name == "instances" && width == 120 && len(omitted) > 0 {
					t.Errorf("at 120 columns the instances table leaves out %q, want every default column", omitted)
				}
				if got, wantRows := countRows(out, "│"), tableRows(t, rs, tt.name); got < wantRows {
					t.Errorf("got %d rows starting with a type, want at least %d", got, wantRows)
				}
			})
		}
	}
	var buf bytes.Buffer
	if err := InstancesTableFit(&buf, rs, TableOptions{Width: 80, Wide: true}); err != nil {
		t.Fatal(err)
	}
	if got, want := cellsByRepr(buf.String(), "│")["repr"], labels(model.InstanceColumns(model.InTable)); !slices.Equal(got, want) {
		t.Errorf("--wide at 80: header got %q, want every column %q", got, want)
	}
}

func itoa(n int) string { return model.FormatFixed(float64(n), 0) }

// countRows counts the rows of box-drawn tables whose first cell names a
// type of the vocabulary.
func countRows(out, sep string) int {
	n := 0
	for _, line := range strings.Split(out, "\n") {
		cells := strings.Split(strings.Trim(line, sep), sep)
		if len(cells) > 1 && model.Known(model.Type(strings.TrimSpace(cells[0])), model.Types) {
			n++
		}
	}
	return n
}

// tableRows is how many rows the fixture's table of kind has at least:
// its measured rows (the sites table adds more of the same type).
func tableRows(t *testing.T, rs *model.Results, kind string) int {
	t.Helper()
	if kind == "instances" {
		return len(rs.Instances)
	}
	return len(rs.Throughput)
}

// TestWrapText: every line fits, nothing is lost, and a long word breaks
// after a path separator where one fits.
func TestWrapText(t *testing.T) {
	tests := []struct {
		s     string
		width int
		want  string
	}{
		{"n=100000", 16, "n=100000"},
		{"n/a: circl has no affine point type: ecc/bls12381 G1/G2 are homogeneous projective", 24,
			"n/a: circl has no affine\npoint type: ecc/bls12381\nG1/G2 are homogeneous\nprojective"},
		{"github.com/memprof/memprof/suites/internal/suitekit.Fill[...].Pointer.func1.1:132", 33,
			"github.com/memprof/memprof/\nsuites/internal/suitekit.\nFill[...].Pointer.func1.1:132"},
		{"aaaaaaaaaaaaaaaaaaaaaaaaa", 10, "aaaaaaaaaa\naaaaaaaaaa\naaaaa"},
	}
	for _, tt := range tests {
		t.Run(tt.s, func(t *testing.T) {
			got := wrapText(tt.s, tt.width)
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			for _, l := range strings.Split(got, "\n") {
				if twwidth.Width(l) > tt.width {
					t.Errorf("line %q is wider than %d", l, tt.width)
				}
			}
			if strings.ReplaceAll(strings.ReplaceAll(got, "\n", ""), " ", "") != strings.ReplaceAll(tt.s, " ", "") {
				t.Errorf("wrapping lost text: %q from %q", got, tt.s)
			}
		})
	}
}

func TestChooseColumns(t *testing.T) {
	instances := func(c model.Column) bool { return c.Instance != nil }
	tests := []struct {
		names []string
		want  []string // column names, or the error's text
		err   bool
	}{
		{[]string{"type", "B/instance", "sizeof_bytes", "C heap B"}, []string{"type", "bytes_per_instance", "sizeof_bytes", "c_heap_bytes_per_instance"}, false},
		{[]string{"sites"}, []string{`--columns: column "sites" is not one of the instance table's: choose from `}, true},
		{[]string{"time/op"}, []string{`--columns: column "time/op" is not one of the instance table's`}, true},
		{[]string{"bogus"}, []string{`--columns: unknown column "bogus": choose from the instance table's kind, name, type, lib`}, true},
		{[]string{"note"}, []string{"--columns: the instance table always ends with its note: leave note out"}, true},
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
