package gatereport

import (
	"bytes"
	"encoding/json"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/gate"
	"github.com/memprof/memprof/internal/goldenfile"
	"github.com/memprof/memprof/results"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

const fixtures = "../../../../fixtures/"

func compare(t *testing.T, head string, opts gate.CompareOptions) *gate.Comparison {
	t.Helper()
	base, err := results.ReadFile(fixtures + "compare/base.json")
	if err != nil {
		t.Fatal(err)
	}
	h, err := results.ReadFile(fixtures + "compare/" + head)
	if err != nil {
		t.Fatal(err)
	}
	c, err := gate.Compare(base, h, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), got, *update)
}

func TestMarkdownGolden(t *testing.T) {
	tests := []struct {
		golden string
		head   string
		opts   gate.CompareOptions
	}{
		{"compare-regressions.md", "head.json", gate.CompareOptions{Tolerance: 0.05, FailOnTime: true}},
		{"compare-time-warning.md", "head.json", gate.CompareOptions{Tolerance: 0.05}},
		{"compare-clean.md", "base.json", gate.CompareOptions{Tolerance: 0.05}},
		{"compare-env-mismatch-allowed.md", "head-other-env.json", gate.CompareOptions{Tolerance: 0.05, AllowEnvMismatch: true}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Markdown(&buf, compare(t, tt.head, tt.opts)); err != nil {
				t.Fatal(err)
			}
			golden(t, tt.golden, buf.Bytes())
		})
	}
}

// TestMarkdownLayout checks the contract of the pull-request comment
// independently of the golden file: the verdict on the first line, failing
// rows (signed, with units) before the <details> block holding the full
// table, and both environments.
func TestMarkdownLayout(t *testing.T) {
	var buf bytes.Buffer
	c := compare(t, "head.json", gate.CompareOptions{Tolerance: 0.05})
	if err := Markdown(&buf, c); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	first, _, _ := strings.Cut(md, "\n")
	if want := Headline(c); !strings.Contains(first, want) {
		t.Errorf("first line %q does not carry the verdict %q", first, want)
	}
	details := strings.Index(md, "<details>")
	failing := strings.Index(md, "| Signature/blst/affine/pointer/min-pk | bytes/instance | 192 B | 288 B | +96 B (+50.0%)")
	if failing < 0 || details < 0 || failing > details {
		t.Errorf("failing row at %d, <details> at %d: want the signed failing row before the details block", failing, details)
	}
	if n := strings.Count(md, "| Signature/blst/affine op=sign |"); n != 1 {
		t.Errorf("improved row appears %d times, want once (only in the full table)", n)
	}
	if !strings.Contains(md, "-20.0%") {
		t.Errorf("markdown lacks the signed improvement -20.0%%")
	}
	for _, w := range []string{"Environments", "| cpu | Fixture CPU @ 3.00GHz | Fixture CPU @ 3.00GHz |"} {
		if !strings.Contains(md, w) {
			t.Errorf("markdown lacks %q", w)
		}
	}
	var clean bytes.Buffer
	if err := Markdown(&clean, compare(t, "base.json", gate.CompareOptions{Tolerance: 0.05})); err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(clean.String(), "\n"); !strings.Contains(first, "no regression detected") {
		t.Errorf("clean first line %q, want the verdict %q", first, "no regression detected")
	}
}

func TestJSON(t *testing.T) {
	var buf bytes.Buffer
	if err := JSON(&buf, compare(t, "head.json", gate.CompareOptions{Tolerance: 0.05, FailOnTime: true})); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Verdict  string     `json:"verdict"`
		OK       bool       `json:"ok"`
		Failures int        `json:"failures"`
		Rows     []gate.Row `json:"rows"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("output is not JSON: %v", err)
	}
	if got.Verdict != "4 regressions" || got.OK || got.Failures != 4 || len(got.Rows) != 12 {
		t.Errorf("got verdict %q ok %v failures %d rows %d; want 4 regressions, false, 4, 12", got.Verdict, got.OK, got.Failures, len(got.Rows))
	}
}

func TestCheckText(t *testing.T) {
	rs, err := results.ReadFile(fixtures + "budgets/results.json")
	if err != nil {
		t.Fatal(err)
	}
	f, err := gate.ReadFile(fixtures + "budgets/exceeded.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Check(&buf, gate.Check(f, rs, gate.CheckOptions{})); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	// The failure comes first and carries everything a reader needs.
	want := []string{
		"FAIL  Signature/blst/affine/pointer/min-pk  bytes per instance: 192 B > budget 128 B (+64 B, +50.0%)",
		"exceeded.yaml:7  select {type: Signature, lib: blst, repr: affine, layout: pointer, scheme: min-pk}  owner: crypto-team",
		"reason: signatures cached per attestation",
		"PASS  PublicKey/blst/affine/pointer/min-pk  bytes per instance: 96 B <= budget 96 B",
		"memprof check: FAIL: 1 budget exceeded, 1 holds",
	}
	last := -1
	for _, w := range want {
		i := strings.Index(out, w)
		if i < 0 {
			t.Errorf("output lacks %q:\n%s", w, out)
			continue
		}
		if i < last {
			t.Errorf("%q is out of order:\n%s", w, out)
		}
		last = i
	}
}

// TestHeadline: the headline counts the failures by kind, a missing case
// once whatever number of its figures are missing (head.json has one
// bytes regression, one time regression and one missing case of two
// figures: four failing rows).
func TestHeadline(t *testing.T) {
	c := compare(t, "head.json", gate.CompareOptions{Tolerance: 0.05, FailOnTime: true})
	if c.Failures != 4 {
		t.Fatalf("got %d failing rows, want 4", c.Failures)
	}
	if got, want := Headline(c), "1 bytes regression, 1 time regression, 1 missing case"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// Without --fail-on-time the time regression is a warning, counted
	// after the failures; with only times changed, memory is said clean.
	if got, want := Headline(compare(t, "head.json", gate.CompareOptions{Tolerance: 0.05})), "1 bytes regression, 1 missing case, 1 time warning (times fail only with --fail-on-time)"; got != want {
		t.Errorf("times warning: got %q, want %q", got, want)
	}
	onlyTime := &gate.Comparison{TimeWarnings: 2}
	if got, want := Headline(onlyTime), "no memory regression; 2 time warnings (times fail only with --fail-on-time)"; got != want {
		t.Errorf("only times: got %q, want %q", got, want)
	}
	same := compare(t, "base.json", gate.CompareOptions{Tolerance: 0.05})
	if got := Headline(same); got != "no regression detected" {
		t.Errorf("base against itself: got %q", got)
	}
	var tab bytes.Buffer
	if err := TableFit(&tab, c, 0, render.Plain); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(tab.String(), "memprof compare: "+Headline(c)+"\n") {
		t.Errorf("the table does not end with the headline:\n%s", tab.String())
	}
}
