package report

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/cmd/memprof/internal/resultsfixture"
	"github.com/memprof/memprof/internal/goldenfile"
	"github.com/memprof/memprof/internal/testfs"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// loadFixture returns the results file of a real run that the golden
// tests render.
func loadFixture(t *testing.T) *results.File { return resultsfixture.Load(t) }

// withThroughput adds, for every measured Signature representation, an
// aggregate row whose time is made up from its position, so the summary's
// sentence has a known truth: the first representation listed is the
// fastest.
func withThroughput(rs *results.File) *results.File {
	c := *rs
	c.Throughput = nil
	i := 0
	for _, r := range rs.Instances {
		if r.Type != "Signature" || r.Layout != "pointer" || r.Error != "" {
			continue
		}
		i++
		ns := float64(i) * 10_000
		c.Throughput = append(c.Throughput, results.ThroughputRow{Key: results.Key{Type: r.Type, Lib: r.Lib, Repr: r.Repr, Op: "aggregate", Batch: 128}, Timing: measure.Timing{Samples: 10, NsPerOpMedian: ns, NsPerOpQ1: ns - 100, NsPerOpQ3: ns + 100, CPUNsPerOpMedian: ns, OpsPerSecond: 1e9 / ns}})
	}
	c.Method = "Made-up rows for a golden test."
	return &c
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), got, *update)
}

func TestWriteListsEveryFile(t *testing.T) {
	instancesOnly := loadFixture(t)
	instancesOnly.Throughput = nil
	// The fixture's own throughput rows give a trade-off chart to every
	// type with an operation timed for a measured representation.
	var fixtureTradeoffs []string
	fixture := loadFixture(t)
	for _, typ := range render.TypesMeasured(fixture) {
		if _, ok := results.TradeoffOf(fixture, typ); ok {
			fixtureTradeoffs = append(fixtureTradeoffs, string(typ))
		}
	}
	if len(fixtureTradeoffs) == 0 {
		t.Fatalf("%s has no throughput rows that match its instances; regenerate it with throughput", resultsfixture.Path())
	}
	tests := []struct {
		name      string
		rs        *results.File
		tradeoffs []string
	}{
		{"instances only", instancesOnly, nil},
		{"fixture", fixture, fixtureTradeoffs},
		{"made-up throughput", withThroughput(loadFixture(t)), []string{"Signature"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "review")
			files, err := Write(out, tt.rs, Options{Source: "results.json"})
			if err != nil {
				t.Fatal(err)
			}
			want := []string{ReadmeFile, BytesChart, ResultsJSON, ResultsCSV, ResultsBench}
			if render.GCChart(context.Background(), io.Discard, tt.rs) == nil {
				want = append(want, GCChart) // the rows have the GC CPU figure
			}
			for _, typ := range tt.tradeoffs {
				want = append(want, TradeoffFile(typ))
			}
			onDisk := testfs.Names(t, out)
			slices.Sort(want)
			if !slices.Equal(onDisk, want) {
				t.Errorf("files in %s: got %v, want %v", out, onDisk, want)
			}
			slices.Sort(files)
			if !slices.Equal(files, want) {
				t.Errorf("files returned: got %v, want %v", files, want)
			}
			readme, err := os.ReadFile(filepath.Join(out, ReadmeFile))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range want[1:] {
				if f != ReadmeFile && !bytes.Contains(readme, []byte("("+f+")")) {
					t.Errorf("README.md does not link %s", f)
				}
			}
			// The results file in the review reads back as the input.
			back, err := results.ReadFile(filepath.Join(out, ResultsJSON))
			if err != nil {
				t.Fatal(err)
			}
			if len(back.Instances) != len(tt.rs.Instances) || len(back.Throughput) != len(tt.rs.Throughput) {
				t.Errorf("results.json: got %d instances and %d throughput rows, want %d and %d", len(back.Instances), len(back.Throughput), len(tt.rs.Instances), len(tt.rs.Throughput))
			}
			assertNoTemp(t, filepath.Dir(out))
		})
	}
}

// assertNoTemp fails if a temporary directory of Write is left in dir.
func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	for _, name := range testfs.Names(t, dir) {
		if strings.HasPrefix(name, ".") {
			t.Errorf("left behind: %s", name)
		}
	}
}

func TestReadmeGolden(t *testing.T) {
	for _, tt := range []struct {
		name string
		rs   *results.File
	}{
		{"README.fixture.md", loadFixture(t)},
		{"README.madeup.md", withThroughput(loadFixture(t))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			files, err := Render(tt.rs, Options{Source: "fixtures/results/results.json"})
			if err != nil {
				t.Fatal(err)
			}
			if files[0].Name != ReadmeFile {
				t.Fatalf("first file: got %s, want %s", files[0].Name, ReadmeFile)
			}
			golden(t, tt.name, files[0].Data)
		})
	}
}

func TestRenderIsDeterministic(t *testing.T) {
	rs := withThroughput(loadFixture(t))
	a, err := Render(rs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Render(rs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(b) {
		t.Fatalf("got %d and %d files", len(a), len(b))
	}
	for i := range a {
		if a[i].Name != b[i].Name || !bytes.Equal(a[i].Data, b[i].Data) {
			t.Errorf("%s: two renderings differ", a[i].Name)
		}
	}
}

// TestTradeoffSentence checks the sentence against the figures of the
// made-up rows: in each library the smallest representation against the
// fastest at the key operation, with both differences from the rows' own
// figures (CPU time per call).
func TestTradeoffSentence(t *testing.T) {
	rs := withThroughput(loadFixture(t))
	tr, ok := results.TradeoffOf(rs, "Signature")
	if !ok {
		t.Fatal("no trade-off for Signature")
	}
	got := tradeoffSentence(rs, tr, builtinKeyOps())
	j := render.KeyColumn(tr, builtinKeyOps())
	for _, lib := range []vocab.Lib{"blst", "gnark"} {
		var smallest, fastest *results.TradeoffRow
		for i := range tr.Rows {
			r := &tr.Rows[i]
			if r.Lib != lib || r.NsPerUse[j] == nil {
				continue
			}
			if smallest == nil || r.BytesPerInstance < smallest.BytesPerInstance {
				smallest = r
			}
			if fastest == nil || *r.NsPerUse[j] < *fastest.NsPerUse[j] {
				fastest = r
			}
		}
		if smallest == nil || smallest == fastest {
			t.Fatalf("%s: the fixture needs a smallest and a different fastest representation", lib)
		}
		cpu := func(r *results.TradeoffRow) float64 {
			for _, tp := range rs.Throughput {
				if tp.Type == "Signature" && tp.Lib == r.Lib && tp.Repr == r.Repr && tp.Op == tr.Ops[j].Op {
					return tp.CPUNsPerOpMedian
				}
			}
			t.Fatalf("no row for %s %s", r.Lib, r.Repr)
			return 0
		}
		saved := fastest.BytesPerInstance - smallest.BytesPerInstance
		want := "in " + string(lib) + ", keeping Signature " + string(smallest.Repr) + " instead of " + string(fastest.Repr) +
			" saves " + units.FormatFigure(saved) + " B per instance (" + mb(saved) + " MB at 1M instances) and costs " +
			units.FormatNs(cpu(smallest)-cpu(fastest)) + " of CPU per " + render.ColumnName(tr.Ops[j])
		if !strings.Contains(strings.ToLower(got[:1])+got[1:], want) {
			t.Errorf("got %q, want it to contain %q", got, want)
		}
	}
}

func TestOutDirectory(t *testing.T) {
	rs := loadFixture(t)
	t.Run("not empty refused", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "review")
		os.Mkdir(out, 0o755)
		keep := filepath.Join(out, "notes.txt")
		os.WriteFile(keep, []byte("mine"), 0o644)
		_, err := Write(out, rs, Options{})
		if !errors.Is(err, ErrOutNotEmpty) {
			t.Fatalf("got %v, want ErrOutNotEmpty", err)
		}
		entries, _ := os.ReadDir(out)
		if len(entries) != 1 {
			t.Errorf("got %d files in %s, want only notes.txt", len(entries), out)
		}
		assertNoTemp(t, filepath.Dir(out))
	})
	t.Run("empty accepted", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "review")
		os.Mkdir(out, 0o755)
		if _, err := Write(out, rs, Options{}); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(out, ReadmeFile)); err != nil {
			t.Error(err)
		}
	})
	t.Run("force replaces an earlier review", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "review")
		os.Mkdir(out, 0o755)
		old := filepath.Join(out, "tradeoff_OldType.svg")
		os.WriteFile(old, []byte("old"), 0o644)
		if _, err := Write(out, rs, Options{Force: true}); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(old); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("old file: got %v, want it gone", err)
		}
		if _, err := os.Stat(filepath.Join(out, ReadmeFile)); err != nil {
			t.Error(err)
		}
		assertNoTemp(t, filepath.Dir(out))
	})
	t.Run("force refuses a directory that is not a review", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "src")
		os.Mkdir(out, 0o755)
		keep := filepath.Join(out, "main.go")
		os.WriteFile(keep, []byte("package main"), 0o644)
		_, err := Write(out, rs, Options{Force: true})
		if err == nil || !strings.Contains(err.Error(), "main.go") {
			t.Errorf("got %v, want a refusal naming main.go", err)
		}
		if _, err := os.Stat(keep); err != nil {
			t.Errorf("the directory's file is gone: %v", err)
		}
	})
	t.Run("a file refused even with force", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "review")
		os.WriteFile(out, []byte("x"), 0o644)
		if _, err := Write(out, rs, Options{Force: true}); err == nil || !strings.Contains(err.Error(), "not a directory") {
			t.Errorf("got %v, want an error saying it is not a directory", err)
		}
	})
}

// TestReviewJSONTradeoff checks the trade-off tables the review keeps in
// its results.json: derived from the rows (a table the input carried is
// replaced), with pareto: true on the rows no other dominates, and read
// back by the validating reader.
func TestReviewJSONTradeoff(t *testing.T) {
	rs := withThroughput(loadFixture(t))
	rs.Tradeoff = []results.Tradeoff{{Type: "G1", Ops: []results.TradeoffOp{{Op: "verify"}}}} // stale: replaced
	files, err := Render(rs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var data []byte
	for _, f := range files {
		if f.Name == ResultsJSON {
			data = f.Data
		}
	}
	var raw struct {
		Tradeoff []struct {
			Type string `json:"type"`
			Rows []struct {
				Lib    string `json:"lib"`
				Repr   string `json:"repr"`
				Pareto *bool  `json:"pareto"`
			} `json:"rows"`
		} `json:"tradeoff"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	want, _ := results.TradeoffOf(rs, "Signature")
	if len(raw.Tradeoff) != 1 || raw.Tradeoff[0].Type != "Signature" || len(raw.Tradeoff[0].Rows) != len(want.Rows) {
		t.Fatalf("got tradeoff %+v, want Signature's table alone", raw.Tradeoff)
	}
	for i, r := range raw.Tradeoff[0].Rows {
		if r.Pareto == nil || *r.Pareto != want.Rows[i].Pareto {
			t.Errorf("row %s %s: got pareto %v, want %v", r.Lib, r.Repr, r.Pareto, want.Rows[i].Pareto)
		}
	}
	if _, err := results.Read(bytes.NewReader(data)); err != nil {
		t.Errorf("the review's results.json does not read back: %v", err)
	}
}
