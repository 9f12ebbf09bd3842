package render

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memprof/memprof/cmd/memprof/internal/resultsfixture"
	"github.com/memprof/memprof/internal/goldenfile"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// loadFixture returns the results file of a real run that the golden
// tests render.
func loadFixture(t *testing.T) *results.File { return resultsfixture.Load(t) }

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), got, *update)
}

func TestGolden(t *testing.T) {
	rs := loadFixture(t)
	tests := []struct {
		name   string
		render func(io.Writer, *results.File) error
	}{
		{"fixture.md", Markdown},
		{"fixture.csv", CSV},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := tt.render(&buf, rs); err != nil {
				t.Fatal(err)
			}
			golden(t, tt.name, buf.Bytes())
		})
	}
}

// measured returns the instances of rs that carry a measurement.
func measured(rs *results.File) []results.Row {
	var out []results.Row
	for _, r := range rs.Instances {
		if r.Error == "" {
			out = append(out, r)
		}
	}
	return out
}

// withThroughput returns a copy of rs with an "aggregate" row of batch 128
// for every measured Signature and PublicKey representation, its times
// made up from the row's position (1, 2, 3... µs), so that the truth of
// every chart and sentence is known.
func withThroughput(rs *results.File) *results.File {
	c := *rs
	c.Throughput = nil
	i := 0
	for _, r := range measured(rs) {
		if r.Type != "Signature" && r.Type != "PublicKey" || r.Layout != "pointer" {
			continue
		}
		i++
		ns := float64(i) * 1000
		c.Throughput = append(c.Throughput, results.ThroughputRow{Key: results.Key{Type: r.Type, Lib: r.Lib, Repr: r.Repr, Op: "aggregate", Batch: 128}, Timing: measure.Timing{Samples: 10, NsPerOpMedian: ns, NsPerOpQ1: ns - 100, NsPerOpQ3: ns + 100, CPUNsPerOpMedian: ns, OpsPerSecond: 1e9 / ns, BytesPerOp: float64(i), AllocsPerOp: 1}})
	}
	c.Throughput = append(c.Throughput, results.ThroughputRow{Key: results.Key{Type: "Signature", Lib: "blst", Repr: "affine", Op: "verify", Batch: 1}, Error: "made-up failure"})
	c.Unavailable = append(slices.Clone(c.Unavailable), results.Unavailable{Key: results.Key{Type: "Signature", Lib: "circl", Repr: "affine", Op: "aggregate"}, Why: vocab.Why{Reason: "not offered by circl: made up"}})
	return &c
}

func TestGoldenThroughput(t *testing.T) {
	rs := withThroughput(loadFixture(t))
	for _, tt := range []struct {
		name   string
		render func(io.Writer, *results.File) error
	}{
		{"madeup.md", Markdown},
		{"madeup.csv", CSV},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := tt.render(&buf, rs); err != nil {
				t.Fatal(err)
			}
			golden(t, tt.name, buf.Bytes())
		})
	}
}

func TestCSV(t *testing.T) {
	for _, tc := range []struct {
		name string
		rs   *results.File
	}{
		{"fixture", loadFixture(t)},
		{"with throughput", withThroughput(loadFixture(t))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := tc.rs
			var buf bytes.Buffer
			if err := CSV(&buf, rs); err != nil {
				t.Fatal(err)
			}
			recs, err := csv.NewReader(&buf).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(recs[0], CSVHeader) {
				t.Fatalf("header: got %v, want %v", recs[0], CSVHeader)
			}
			if got, want := len(recs)-1, len(rs.Instances)+len(rs.Throughput)+len(rs.Unavailable); got != want {
				t.Fatalf("got %d rows, want %d (one per instance, throughput row and unavailable combination)", got, want)
			}
			col := map[string]int{}
			for i, h := range CSVHeader {
				col[h] = i
			}
			numeric := func(h string) bool {
				return strings.HasSuffix(h, "_bytes") || strings.Contains(h, "_per_") || slices.Contains([]string{"n", "batch", "samples", "ops_per_s"}, h)
			}
			byKey := map[string][]string{}
			for _, rec := range recs[1:] {
				for i, h := range CSVHeader {
					if numeric(h) && rec[i] != "" {
						if _, err := strconv.ParseFloat(rec[i], 64); err != nil {
							t.Errorf("column %s: %q is not a plain number: %v", h, rec[i], err)
						}
					}
				}
				if rec[col["kind"]] == CSVKindInstances {
					byKey[strings.Join(rec[col["type"]:col["layout"]+1], "/")] = rec
				}
			}
			for _, r := range measured(rs) {
				rec, ok := byKey[string(r.Type)+"/"+string(r.Lib)+"/"+string(r.Repr)+"/"+string(r.Layout)]
				if !ok {
					t.Errorf("%s: no CSV row", r.Key.String())
					continue
				}
				got, _ := strconv.ParseFloat(rec[col["bytes_per_instance"]], 64)
				if got != r.BytesPerInstance {
					t.Errorf("%s: bytes_per_instance got %v, want %v", r.Key.String(), got, r.BytesPerInstance)
				}
				got, _ = strconv.ParseFloat(rec[col["allocs_per_instance"]], 64)
				if got != r.AllocsPerInstance {
					t.Errorf("%s: allocs_per_instance got %v, want %v", r.Key.String(), got, r.AllocsPerInstance)
				}
			}
		})
	}
}

// svgTexts parses data as XML and returns the text of its <text> elements.
func svgTexts(t *testing.T, data []byte) []string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	var texts []string
	inText := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			inText = tok.Name.Local == "text"
		case xml.EndElement:
			inText = false
		case xml.CharData:
			if inText {
				texts = append(texts, string(tok))
			}
		}
	}
	return texts
}

// drawTwice draws a chart twice and returns it, failing the test when
// drawing fails or the two renderings of the same results differ (the
// charts are deterministic, so that they diff cleanly).
func drawTwice(t *testing.T, draw func(io.Writer) error) []byte {
	t.Helper()
	var a, b bytes.Buffer
	if err := draw(&a); err != nil {
		t.Fatal(err)
	}
	if err := draw(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Errorf("two renderings of the same results differ")
	}
	return a.Bytes()
}

func TestBytesPerInstanceChart(t *testing.T) {
	rs := loadFixture(t)
	svg := drawTwice(t, func(w io.Writer) error { return BytesPerInstanceChart(context.Background(), w, rs) })
	texts := svgTexts(t, svg)
	axis := "bytes per instance (B)"
	if !slices.Contains(texts, axis) {
		axis = "bytes per instance (B, log scale)" // sizes far apart
	}
	want := []string{axis, "Bytes per instance (Go heap, holder excluded)"}
	for _, typ := range TypesMeasured(rs) {
		want = append(want, string(typ))
	}
	for _, r := range measured(rs) {
		want = append(want, SeriesOf(r).Label()+": "+Num(r.BytesPerInstance), string(r.Lib))
	}
	for _, w := range want {
		if !slices.Contains(texts, w) {
			t.Errorf("chart has no text %q", w)
		}
	}
	if !bytes.Contains(svg, []byte(`fill="#FFFFFF"`)) && !bytes.Contains(svg, []byte("fill:#FFFFFF")) && !bytes.Contains(svg, []byte(`fill="#ffffff"`)) {
		t.Errorf("chart does not fill its own white background")
	}
}

func TestBytesPerInstanceChartNoData(t *testing.T) {
	rs := &results.File{Schema: results.Schema, Instances: []results.Row{{Key: results.Key{Type: "Signature", Lib: "blst", Repr: "affine", Layout: "pointer"}, Error: "boom"}}}
	err := BytesPerInstanceChart(context.Background(), io.Discard, rs)
	if !errors.Is(err, ErrNoData) {
		t.Errorf("got %v, want ErrNoData", err)
	}
}

func TestTradeoffChart(t *testing.T) {
	rs := withThroughput(loadFixture(t))
	texts := svgTexts(t, drawTwice(t, func(w io.Writer) error { return TradeoffChart(w, rs, "Signature") }))
	want := []string{
		"bytes per instance (B)",
		"aggregate (batch 128)",
		"time per use (µs)",
		// The title, in two lines: one would be wider than the panel.
		"Signature: bytes per instance against the time of each use",
		"(median, bar Q1 to Q3)",
		"filled: Pareto-optimal",
	}
	for _, r := range measured(rs) {
		if r.Type == "Signature" && r.Layout == "pointer" {
			want = append(want, SeriesOf(r).Label())
		}
	}
	for _, w := range want {
		if !slices.Contains(texts, w) {
			t.Errorf("chart has no text %q; it has %q", w, texts)
		}
	}
	noThroughput := loadFixture(t)
	noThroughput.Throughput = nil
	if err := TradeoffChart(io.Discard, noThroughput, "Signature"); !errors.Is(err, ErrNoData) {
		t.Errorf("without throughput: got %v, want ErrNoData", err)
	}
}

func TestKeyOpOf(t *testing.T) {
	keys := KeyOps{"Signature": {"verify", "aggregate"}, "G1": {"aggregate"}}
	row := func(typ, lib, repr, op string, batch int) results.ThroughputRow {
		return results.ThroughputRow{Key: results.Key{Type: vocab.Type(typ), Lib: vocab.Lib(lib), Repr: vocab.Repr(repr), Op: vocab.Op(op), Batch: batch}, Timing: measure.Timing{NsPerOpMedian: 1}}
	}
	tests := []struct {
		name string
		rows []results.ThroughputRow
		typ  string
		want KeyOp
		ok   bool
	}{
		{"none", nil, "Signature", KeyOp{}, false},
		{"preferred op wins", []results.ThroughputRow{
			row("Signature", "blst", "affine", "verify", 1), row("Signature", "blst", "jacobian", "verify", 1),
			row("Signature", "blst", "affine", "aggregate", 128), row("Signature", "blst", "jacobian", "aggregate", 128),
		}, "Signature", KeyOp{"verify", 1}, true},
		{"preferred op needs two representations", []results.ThroughputRow{
			row("Signature", "blst", "affine", "verify", 1),
			row("Signature", "blst", "affine", "aggregate", 128), row("Signature", "blst", "jacobian", "aggregate", 128),
		}, "Signature", KeyOp{"aggregate", 128}, true},
		{"other types ignored", []results.ThroughputRow{row("G1", "blst", "affine", "aggregate", 128)}, "Signature", KeyOp{}, false},
		{"unknown ops: most timed", []results.ThroughputRow{
			row("Custom", "blst", "a", "x", 1), row("Custom", "blst", "a", "y", 1), row("Custom", "blst", "b", "y", 1),
		}, "Custom", KeyOp{"y", 1}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := KeyOpOf(&results.File{Throughput: tt.rows}, vocab.Type(tt.typ), keys)
			if got != tt.want || ok != tt.ok {
				t.Errorf("got %v, %v; want %v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestMarkdownTableEscapesAndAligns(t *testing.T) {
	var buf bytes.Buffer
	mw := NewMarkdownWriter(&buf)
	mw.Table(MarkdownTable{Header: []string{"name", "B"}, Right: []bool{false, true}, Rows: [][]string{{"a|b", "1"}, {"µs", "100"}}})
	want := "| name |   B |\n| ---- | --: |\n| a\\|b |   1 |\n| µs   | 100 |\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestProgress(t *testing.T) {
	t.Run("disabled writes nothing", func(t *testing.T) {
		var buf bytes.Buffer
		p := NewProgress(&buf, "case", 2, false, 0)
		p.Start("type=Signature/lib=blst/repr=affine/layout=pointer")
		if w := p.Writer(&buf); w != io.Writer(&buf) {
			t.Errorf("Writer of a disabled progress: got %T, want the writer itself", w)
		}
		p.Finish()
		if buf.Len() != 0 {
			t.Errorf("got %q, want nothing", buf.String())
		}
	})
	t.Run("enabled", func(t *testing.T) {
		var buf bytes.Buffer
		p := NewProgress(&buf, "case", 2, true, 0)
		start := p.start
		p.now = func() time.Time { return start.Add(1500 * time.Millisecond) }
		p.Start("first")
		fmt.Fprintf(p.Writer(&buf), "a message\n")
		p.Start("second")
		p.Finish()
		if !strings.Contains(buf.String(), "(1.5s elapsed)\x1b[K\r\x1b[Ka message\n") {
			t.Errorf("got %q, want the progress line cleared before a message", buf.String())
		}
		for _, want := range []string{"case 1 of 2: first (1.5s elapsed)", "case 2 of 2: second (1.5s elapsed)", "case: 2 of 2 done in 1.5s\n"} {
			if !strings.Contains(buf.String(), want) {
				t.Errorf("got %q, want it to contain %q", buf.String(), want)
			}
		}
	})
	t.Run("with the RSS", func(t *testing.T) {
		var buf bytes.Buffer
		p := NewProgress(&buf, "case", 2, true, 0)
		start := p.start
		p.now = func() time.Time { return start.Add(1500 * time.Millisecond) }
		readable := true
		p.ShowRSS(func() (uint64, bool) { return 1_234_000_000, readable })
		p.Start("first")
		readable = false
		p.Start("second")
		p.Finish()
		for _, want := range []string{"case 1 of 2: first (1.5s elapsed, RSS 1.234GB)\x1b[K", "case 2 of 2: second (1.5s elapsed)\x1b[K"} {
			if !strings.Contains(buf.String(), want) {
				t.Errorf("got %q, want it to contain %q", buf.String(), want)
			}
		}
	})
}
