package main

import (
	"flag"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter/pkg/twwidth"

	"github.com/memprof/memprof/cmd/memprof/internal/resultsfixture"
	"github.com/memprof/memprof/cmd/memprof/internal/tabletest"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/stats"
)

var everyWidth = flag.Bool("cli.every-width", false, "TestNoTokenSplit renders each table at every width from 60 to 200 columns (.ci/run does; go test renders each at widths around 60, 80, 100, 120 and 200)")

// tokenWidths are the widths TestNoTokenSplit renders at: every width
// from 60 to 200 with -cli.every-width, and otherwise the widths where a
// table's layout rule changes (60, the 80 from which lines must fit, a
// hundred, 120) with their neighbours, a few between and 200.
func tokenWidths() []int {
	if *everyWidth {
		var all []int
		for w := 60; w <= 200; w++ {
			all = append(all, w)
		}
		return all
	}
	return []int{60, 61, 67, 73, 79, 80, 81, 87, 93, 99, 100, 101, 111, 119, 120, 121, 133, 147, 160, 177, 199, 200}
}

// TestNoTokenSplit renders every kind of table the commands print, from
// fixtures, at widths from 60 to 200 columns (tokenWidths), and checks that every
// word of the output is a whole word of the same output without a width
// limit, or one shortened visibly ("…"): no token is ever split; and from
// 80 columns on, that every line but a single wide word fits. The
// tables: show's instances (with sweeps and a C heap), sites and
// throughput tables, in the default, --wide and box styles, and the
// Signature table the README shows (fixtures/docs/signature.json); heapscan's by
// function, site and stack, sampled, and a diff; compare's; list's
// matrix and its --long sentences.
func TestNoTokenSplit(t *testing.T) {
	t.Parallel() // renders fixtures; the width is standard output's own (runAt), not $COLUMNS
	const signatureDoc = "../../fixtures/docs/signature.json"
	shown := sweepFixture(t)
	prof := "../../fixtures/profiles/"
	commands := [][]string{
		{"show", shown},
		{"show", shown, "--wide"},
		{"show", shown, "--type", "Signature", "--style", "box"},
		{"show", signatureDoc, "--type", "Signature"},
		{"show", signatureDoc, "--type", "Signature", "--style", "box"},
		{"heapscan", prof + "before.pb.gz"},
		{"heapscan", "--group-by", "site", prof + "before.pb.gz"},
		{"heapscan", "--group-by", "stack", "--top", "8", prof + "before.pb.gz"},
		{"heapscan", "--instances", "1000", prof + "sampled.pb.gz"},
		{"heapscan", "--base", prof + "before.pb.gz", prof + "after.pb.gz"},
		{"compare", compareDir + "base.json", compareDir + "head.json"},
		{"list"},
		{"list", "--long", "--type", "kzg"},
	}
	extra := tabletest.Tokens("Not shown at columns --wide shows them, as do CSV and JSON --format csv or json = B/inst allocs slots b a")
	for _, c := range results.Columns {
		for w := range tabletest.Tokens(c.ShortLabel()) {
			extra[w] = true
		}
	}
	render := func(t *testing.T, width int, args []string) string {
		code, stdout, stderr := runAt(registry, width, args...)
		if code == exitUsage {
			t.Fatalf("memprof %s: exit %d: %s", strings.Join(args, " "), code, stderr)
		}
		return stdout
	}
	for _, args := range commands {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			extra := maps.Clone(extra)
			words := tabletest.Tokens(render(t, 100000, args))
			for _, width := range tokenWidths() {
				extra[strconv.Itoa(width)] = true
				out := render(t, width, args)
				if split := tabletest.SplitWords(words, out, extra); len(split) > 0 {
					t.Errorf("at %d columns: words not in the unlimited output: %q", width, split)
				}
				// Every cell holds something: a row has a cell for each
				// column of its header (awk counts them).
				if !slices.Contains(args, "box") {
					tables, _ := tabletest.Parse(out)
					for _, tb := range tables {
						for _, r := range tb.Rows {
							if len(r) != len(tb.Header) {
								t.Errorf("at %d columns: a row of %d cells under %d columns: %q under %q", width, len(r), len(tb.Header), r, tb.Header)
							}
						}
					}
				}
				// From 80 columns on, every line fits but a word wider
				// than the width (at fewer, a table's key may not).
				for _, line := range strings.Split(out, "\n") {
					if w := twwidth.Width(line); width >= 80 && w > width && strings.Contains(strings.TrimSpace(line), " ") && !slices.Contains(args, "--wide") {
						t.Errorf("at %d columns: a line of %d: %q", width, w, line)
					}
				}
				delete(extra, strconv.Itoa(width))
			}
		})
	}
}

// sweepFixture writes the results fixture with two sweeps added (a line
// that fits, steps that do not) and a C heap, so that show prints the
// sweep table and the C heap column too; it returns the file's path.
func sweepFixture(t *testing.T) string {
	t.Helper()
	rs := resultsfixture.Load(t)
	for i, step := range []bool{false, true} {
		r := &rs.Instances[i]
		var pts []measure.SweepPoint
		for _, n := range stats.DefaultSweep {
			b := r.BytesPerInstance * float64(n)
			if step {
				b += float64(n%7) * 1e6
			}
			pts = append(pts, measure.SweepPoint{N: n, Bytes: b, BytesPerInstance: b / float64(n)})
		}
		s, err := stats.FitSweep(pts)
		if err != nil {
			t.Fatal(err)
		}
		r.Sweep = s
	}
	cheap := 27.5 * (1 << 20)
	rs.Instances[2].CHeapBytesPerInstance = &cheap
	path := filepath.Join(t.TempDir(), "results.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := rs.WriteJSON(f); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSplitFindsSplitWords: the check of TestNoTokenSplit finds a word
// wrapped in two ("population=100000" and "0" from "population=1000000")
// and accepts one shortened with "…", a site's type among them.
func TestSplitFindsSplitWords(t *testing.T) {
	whole := "lru  population=1000000  github.com/x/y.Fill:132  n/a[3]"
	if got := tabletest.Split(whole, "lru  population=100000\n0  …y.Fill:132  n/a[1]", nil); !slices.Equal(got, []string{"0", "population=100000"}) {
		t.Errorf("got %q, want the two halves of the split word", got)
	}
	if got := tabletest.Split(whole, "lru  population=1000000  github.com/…Fill:132", nil); len(got) > 0 {
		t.Errorf("a word shortened visibly is reported split: %q", got)
	}
	// A bracketed number inside a word is the word's, not a footnote's.
	site := "prepared  new([2][63]bls12381.LineEvaluationAff)  24576"
	if got := tabletest.Split(site, "prepared  …63]bls12381.LineEvaluationAff)  24576", nil); len(got) > 0 {
		t.Errorf("a site shortened visibly is reported split: %q", got)
	}
	if got := tabletest.Split(site, "prepared  new([2][63]bls12381.Line\nEvaluationAff)  24576", nil); len(got) != 2 {
		t.Errorf("got %q, want the two halves of the split site", got)
	}
}
