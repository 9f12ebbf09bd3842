package render

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/cmd/memprof/internal/tabletest"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/stats"
	"github.com/memprof/memprof/vocab"
)

// TestCHeapInTheDefaultTable: a row that keeps C heap memory (a c-kzg
// context's setup) puts the C heap column in the default table, which
// never leaves it out; without one the default table has no C heap.
func TestCHeapInTheDefaultTable(t *testing.T) {
	label := func() string {
		c, err := results.LookupColumn("c_heap_bytes_per_instance")
		if err != nil {
			t.Fatal(err)
		}
		return c.Header(results.InTable)
	}()
	setup, none := 27.5*(1<<20), 0.0
	rs := &results.File{Schema: results.Schema, Instances: []results.Row{
		{Key: results.Key{Type: vocab.KZGContext, Lib: vocab.CKZG, Repr: vocab.Decoded, Layout: measure.Single, Param: "precompute=6"}, Measurement: measure.Measurement{N: 1, CHeapBytesPerInstance: &setup}},
		{Key: results.Key{Type: vocab.KZGContext, Lib: vocab.GoKZG, Repr: vocab.Decoded, Layout: measure.Single}, Measurement: measure.Measurement{N: 1, BytesPerInstance: 21e6, AllocsPerInstance: 4000, CHeapBytesPerInstance: &none}},
	}}
	for _, width := range []int{60, 80, 120} {
		var buf bytes.Buffer
		if err := InstancesTableFit(&buf, rs, TableOptions{Width: width}); err != nil {
			t.Fatal(err)
		}
		tables, _ := tabletest.Parse(buf.String())
		if len(tables) == 0 || !slices.Contains(tables[0].Header, label) && !slices.Contains(tables[0].Header, "C heap") {
			t.Errorf("at %d columns: no C heap column:\n%s", width, buf.String())
		} else if row, ok := tables[0].Row("ckzg"); !ok || !slices.Contains(row, Num(setup)) {
			t.Errorf("at %d columns: c-kzg's row lacks its C heap %s:\n%s", width, Num(setup), buf.String())
		}
	}
	rs.Instances[0].CHeapBytesPerInstance = &none
	var buf bytes.Buffer
	if err := InstancesTableFit(&buf, rs, TableOptions{Width: 120}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), label) {
		t.Errorf("a C heap column though no row keeps any:\n%s", buf.String())
	}
}

// TestThroughputKeepsBytesAndAllocs: where the throughput table must
// leave columns out, prose goes first (the note, whose footnotes go with
// it) and ranges (the quartiles), never bytes and allocations per
// operation; the type, one value on every row, is in the heading.
func TestThroughputKeepsBytesAndAllocs(t *testing.T) {
	rs := withThroughput(loadFixture(t))
	for i := range rs.Throughput {
		rs.Throughput[i].Note = "made-up note of what is timed"
	}
	var buf bytes.Buffer
	if err := ThroughputTableFit(&buf, rs, TableOptions{Width: 80}); err != nil {
		t.Fatal(err)
	}
	dropped := false
	for _, section := range strings.Split(buf.String(), "\n\n") {
		tables, _ := tabletest.Parse(section)
		for _, tb := range tables {
			has := func(h ...string) bool {
				return slices.ContainsFunc(h, func(h string) bool { return slices.Contains(tb.Header, h) })
			}
			if !has("B/op") || !has("allocs/op", "allocs") {
				t.Errorf("no B/op or allocs/op at 80 columns: %q", tb.Header)
			}
			if has("type") {
				t.Errorf("a type column: %q", tb.Header)
			}
			if !has("Q1 – Q3", "Q1–Q3") {
				dropped = true
				if has("note") {
					t.Errorf("the quartiles were left out before the note: %q", tb.Header)
				}
			}
			if !has("note") && strings.Contains(section, "made-up note") {
				t.Errorf("the notes' footnotes are printed though their column was left out:\n%s", section)
			}
		}
	}
	if !dropped {
		t.Errorf("at 80 columns no table had to leave columns out: the test tests nothing\n%s", buf.String())
	}
}

// TestSweepTable: a sweep whose points lie on a line shows the line (its
// slope, interval and intercept); one that grows in steps shows its
// points alone, "none" and a footnote saying why; both show B/instance
// at each N.
func TestSweepTable(t *testing.T) {
	sweep := func(bytes func(n int) float64) *measure.Sweep {
		var pts []measure.SweepPoint
		for _, n := range stats.DefaultSweep {
			pts = append(pts, measure.SweepPoint{N: n, Bytes: bytes(n), BytesPerInstance: bytes(n) / float64(n)})
		}
		s, err := stats.FitSweep(pts)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	steps := func(n int) float64 {
		table := 1
		for table < n {
			table *= 2
		}
		return 100*float64(n) + 48*float64(table)
	}
	rs := &results.File{Schema: results.Schema, Instances: []results.Row{
		{Key: results.Key{Type: vocab.G1, Lib: vocab.Gnark, Repr: vocab.Affine, Layout: measure.Pointer}, Measurement: measure.Measurement{N: 1000, BytesPerInstance: 96}, Sweep: sweep(func(n int) float64 { return 96 * float64(n) })},
		{Key: results.Key{Type: vocab.G1, Lib: vocab.Gnark, Repr: vocab.Jacobian, Layout: measure.Pointer}, Measurement: measure.Measurement{N: 1000, BytesPerInstance: 144}, Sweep: sweep(steps)},
	}}
	var buf bytes.Buffer
	if err := sweepTable(&buf, rs, TableOptions{}); err != nil {
		t.Fatal(err)
	}
	tables, other := tabletest.Parse(buf.String())
	if len(tables) != 1 {
		t.Fatalf("got %d tables:\n%s", len(tables), buf.String())
	}
	tb := tables[0]
	for _, n := range stats.DefaultSweep {
		if tb.Column("N="+itoa(n)) < 0 {
			t.Errorf("no column of B/instance at N=%d: %q", n, tb.Header)
		}
	}
	line, _ := tb.Row("affine")
	if got := tb.Cell(line, "slope B/instance"); got != "96" || tb.Cell(line, "intercept B") != "~0" {
		t.Errorf("the line: slope %q, intercept %q; want 96 and ~0:\n%s", got, tb.Cell(line, "intercept B"), buf.String())
	}
	stepped, _ := tb.Row("jacobian")
	if got := tb.Cell(stepped, "slope B/instance"); got != "none[1]" || tb.Cell(stepped, "intercept B") != "-" {
		t.Errorf("the steps: slope %q; want none[1] and no intercept:\n%s", got, buf.String())
	}
	if !strings.Contains(strings.Join(other, " "), "[1] no line: the points are off any line") {
		t.Errorf("no footnote saying why the steps have no line: %q", other)
	}
}
