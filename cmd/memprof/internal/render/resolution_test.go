package render

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unsafe"

	"github.com/memprof/memprof/cmd/memprof/internal/tabletest"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
)

// TestRSSResolution renders RSS and unaccounted figures at, within and
// beyond their resolution, in every format. The resolution is what the
// engine records: two pages and two of the runtime's 256 KiB chunks over N
// (see results.Row.RSSResolution); the tables print "~0" for a figure
// within it, "n/a (N too small)" when it is larger than the instance (the
// terminal table "n/a[1]" and a footnote saying so), and the figure
// otherwise. JSON and CSV carry the raw figures and the
// resolution.
func TestRSSResolution(t *testing.T) {
	page := float64(os.Getpagesize())
	resolution := func(n int) float64 { return 2 * (256<<10 + page) / float64(n) }
	size := float64(unsafe.Sizeof([24]uint64{})) // the instance: 192 B
	tests := []struct {
		repr               string // tells the rows apart
		n                  int
		res                float64
		rss, unaccounted   float64
		wantRSS, wantUnacc string
	}{
		// At N = 1 the resolution is larger than the instance: no digit
		// of either figure says anything about it.
		{"affine", 1, resolution(1), 73 * page, 73*page - size, "n/a (N too small)", "n/a (N too small)"},
		// Within the resolution either way: ~0.
		{"jacobian", 1_000_000, resolution(1_000_000), resolution(1_000_000) / 2, -resolution(1_000_000) / 2, "~0", "~0"},
		// Beyond it: the figure.
		{"compressed", 1_000_000, resolution(1_000_000), size + 3*resolution(1_000_000), 3 * resolution(1_000_000), Num(size + 3*resolution(1_000_000)), Num(3 * resolution(1_000_000))},
		// A file written before the resolution was recorded: the figures
		// as they are.
		{"uncompressed", 1, 0, 73 * page, 73*page - size, Num(73 * page), Num(73*page - size)},
	}
	rs := &results.File{Schema: results.Schema}
	for _, tt := range tests {
		rs.Instances = append(rs.Instances, results.Row{Key: results.Key{Type: "G2", Lib: "gnark", Repr: vocab.Repr(tt.repr), Layout: "pointer"}, Measurement: measure.Measurement{N: tt.n, BytesPerInstance: size, AllocsPerInstance: 1, SizeofBytes: int64(size), SlotBytes: size, RSSBytesPerInstance: tt.rss, UnaccountedBytesPerInstance: tt.unaccounted, RSSResolution: tt.res}})
	}

	var table, md, csvOut, js bytes.Buffer
	if err := InstancesTableFit(&table, rs, TableOptions{Wide: true}); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&md, rs); err != nil {
		t.Fatal(err)
	}
	if err := CSV(&csvOut, rs); err != nil {
		t.Fatal(err)
	}
	if err := rs.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	tables, _ := tabletest.Parse(table.String())
	tableHeader := tables[0].Header
	tableRows := map[string][]string{}
	for _, r := range tables[0].Rows {
		tableRows[tables[0].Cell(r, "repr")] = r
	}
	mdRows := cellsByRepr(md.String(), "|")
	mdHeader := mdRows["repr"]
	if !strings.Contains(strings.Join(strings.Fields(table.String()), " "), "[1] "+nTooSmall) {
		t.Errorf("table: no footnote %q:\n%s", nTooSmall, table.String())
	}
	recs, err := csv.NewReader(&csvOut).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Instances []map[string]any `json:"instances"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}

	for i, tt := range tests {
		t.Run(tt.repr, func(t *testing.T) {
			for _, f := range []struct {
				format string
				header []string
				row    []string
			}{{"table", tableHeader, tableRows[tt.repr]}, {"markdown", mdHeader, mdRows[tt.repr]}} {
				// The terminal table refers to a footnote where Markdown
				// writes the words.
				want := func(s string) string {
					if f.format == "table" {
						return strings.Replace(s, NTooSmall, "n/a[1]", 1)
					}
					return s
				}
				if got := cell(f.header, f.row, "RSS B"); got != want(tt.wantRSS) {
					t.Errorf("%s: RSS B: got %q, want %q", f.format, got, want(tt.wantRSS))
				}
				if got := cell(f.header, f.row, "unaccounted B"); got != want(tt.wantUnacc) {
					t.Errorf("%s: unaccounted B: got %q, want %q", f.format, got, want(tt.wantUnacc))
				}
			}
			rec := csvRow(t, recs, tt.repr)
			wantRes := units.FormatExact(tt.res)
			if tt.res == 0 {
				wantRes = "" // not recorded
			}
			// A reading below zero is written 0 (its resolution beside it).
			raw := func(v float64) string { return units.FormatExact(max(v, 0)) }
			for col, want := range map[string]string{"rss_bytes_per_instance": raw(tt.rss), "unaccounted_bytes_per_instance": raw(tt.unaccounted), "rss_resolution_bytes_per_instance": wantRes} {
				if got := cell(recs[0], rec, col); got != want {
					t.Errorf("csv: %s: got %q, want %q", col, got, want)
				}
			}
			m := doc.Instances[i]
			want := map[string]float64{"rss_bytes_per_instance": tt.rss, "unaccounted_bytes_per_instance": tt.unaccounted, "rss_resolution_bytes_per_instance": tt.res}
			if tt.res == 0 {
				delete(want, "rss_resolution_bytes_per_instance") // not recorded: absent
				if v, ok := m["rss_resolution_bytes_per_instance"]; ok {
					t.Errorf("json: rss_resolution_bytes_per_instance: got %v, want it absent", v)
				}
			}
			for key, w := range want {
				if got, ok := m[key].(float64); !ok || got != w {
					t.Errorf("json: %s: got %v, want %v", key, m[key], w)
				}
			}
		})
	}
}

// cellsByRepr splits the table text into rows of cells (sep separates
// them) and indexes them by their third cell, the representation (the
// header row by "repr", the lines of a wrapped header joined: "allocs/"
// and "instance" as "allocs/instance", "GC scan" and "B" as "GC scan B").
func cellsByRepr(text, sep string) map[string][]string {
	out := map[string][]string{}
	var header []string // the header being read, until its rule
	for _, line := range strings.Split(text, "\n") {
		parts := strings.Split(line, sep)
		if len(parts) < 5 {
			header = nil
			continue
		}
		cells := make([]string, 0, len(parts)-2)
		for _, p := range parts[1 : len(parts)-1] {
			cells = append(cells, strings.TrimSpace(p))
		}
		if header != nil && cells[2] == "" {
			for i, c := range cells {
				switch {
				case i >= len(header) || c == "":
				case header[i] == "" || strings.HasSuffix(header[i], "/") || strings.HasSuffix(header[i], "-"):
					header[i] += c
				default:
					header[i] += " " + c
				}
			}
			continue
		}
		header = nil
		if _, seen := out[cells[2]]; !seen && cells[2] != "" {
			out[cells[2]] = cells
			if cells[2] == "repr" {
				header = cells
			}
		}
	}
	return out
}

// cell returns the cell of row under the column named name in header.
func cell(header, row []string, name string) string {
	for i, h := range header {
		if h == name && i < len(row) {
			return row[i]
		}
	}
	return "<no column " + name + ">"
}

func csvRow(t *testing.T, recs [][]string, repr string) []string {
	t.Helper()
	for _, r := range recs[1:] {
		if cell(recs[0], r, "repr") == repr {
			return r
		}
	}
	t.Fatalf("csv has no row of repr %s", repr)
	return nil
}
