package gatereport

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/gate"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
)

// clock is a fixed instant for the golden files.
var clock = time.Date(2027, 4, 2, 9, 30, 0, 0, time.UTC)

// measuredEnv is where the check fixtures say they were measured.
var measuredEnv = measure.Env{Machine: "runner-amd64", Commit: "44550ef1d2c3b4a5968778695a4b3c2d1e0f9a8b", Time: "2027-04-02T09:00:00Z"}

// waivers is a budgets file with a waiver that ended on 2027-03-31, one
// that holds until 2027-06-30, and a time budget with a noise floor, all
// checked against fixtures/budgets/results.json.
const waivers = `version: 1
budgets:
  - select: {type: Signature, lib: blst, repr: affine}
    max_bytes_per_instance: 192B
    expires: 2027-03-31
    issue: https://github.com/example/node/issues/812
    owner: crypto-team
  - select: {type: PublicKey, lib: blst}
    max_bytes_per_instance: 96B
    expires: 2027-06-30
    issue: https://github.com/example/node/issues/901
  - select: {type: Signature, lib: blst, op: verify}
    max_ns_per_op: 1.15ms
    min_delta: 30%
    reason: block verification must keep up with the slot time
`

// checkReport checks budgets (named memprof.budgets.yaml) against
// fixtures/budgets/results.json at clock.
func checkReport(t *testing.T, budgets []byte) *gate.Report {
	t.Helper()
	rs, err := results.ReadFile(fixtures + "budgets/results.json")
	if err != nil {
		t.Fatal(err)
	}
	f, err := gate.Parse("memprof.budgets.yaml", budgets)
	if err != nil {
		t.Fatal(err)
	}
	return gate.Check(f, rs, gate.CheckOptions{Now: func() time.Time { return clock }})
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// staleComparison compares the compare fixtures as if the base had been
// measured nine days before clock at another commit than expected.
func staleComparison(t *testing.T) *gate.Comparison {
	t.Helper()
	var sides []*results.File
	for _, name := range []string{"base.json", "head.json"} {
		rs, err := results.ReadFile(fixtures + "compare/" + name)
		if err != nil {
			t.Fatal(err)
		}
		sides = append(sides, rs)
	}
	base, head := sides[0], sides[1]
	base.Env.Commit, base.Env.Time, base.Env.Machine = "0123abcd4567ef890123abcd4567ef8901234567", clock.Add(-9*24*time.Hour).Format(time.RFC3339), "runner-7"
	head.Env.Commit, head.Env.Time, head.Env.Machine = measuredEnv.Commit, measuredEnv.Time, "runner-3"
	c, err := gate.Compare(base, head, gate.CompareOptions{Tolerance: 0.05, FailOnTime: true, BaseCommit: "89abcdef0123", MaxBaseAge: gate.DefaultMaxBaseAge, Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestPullRequestMarkdownGolden(t *testing.T) {
	tests := []struct {
		golden string
		render func(t *testing.T, w *bytes.Buffer) error
	}{
		{"check-exceeded.md", func(t *testing.T, w *bytes.Buffer) error {
			return CheckMarkdown(w, checkReport(t, readFile(t, fixtures+"budgets/exceeded.yaml")), measuredEnv)
		}},
		{"check-waivers.md", func(t *testing.T, w *bytes.Buffer) error {
			return CheckMarkdown(w, checkReport(t, []byte(waivers)), measuredEnv)
		}},
		{"compare-stale-base.md", func(t *testing.T, w *bytes.Buffer) error {
			return CompareMarkdown(w, staleComparison(t), MarkdownOptions{BaseURL: "https://github.com/example/node/actions/runs/1234"})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			var buf bytes.Buffer
			if err := tt.render(t, &buf); err != nil {
				t.Fatal(err)
			}
			golden(t, tt.golden, buf.Bytes())
		})
	}
}

// TestCheckMarkdownLayout checks what a pull-request comment on a check
// needs, independently of the golden files: the verdict first, the
// failure with its change against the budget in bytes and percent before
// the full table, an expired waiver as a failure with its date, owner and
// issue, an active waiver with the time left, and a time within its noise
// floor as a warning.
func TestCheckMarkdownLayout(t *testing.T) {
	var buf bytes.Buffer
	if err := CheckMarkdown(&buf, checkReport(t, readFile(t, fixtures+"budgets/exceeded.yaml")), measuredEnv); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	first, _, _ := strings.Cut(md, "\n")
	if !strings.HasPrefix(first, "### ❌ memprof check: FAIL: 1 budget exceeded, 1 holds") {
		t.Errorf("first line %q, want the verdict", first)
	}
	failing := strings.Index(md, "| Signature/blst/affine/pointer/min-pk | bytes per instance | 192 B | 128 B | +64 B (+50.0%) | FAIL |")
	details := strings.Index(md, "<details>")
	if failing < 0 || details < 0 || failing > details {
		t.Errorf("failing row at %d, <details> at %d: want the failure, with its change, before the details\n%s", failing, details, md)
	}
	checkContains(t, md, "Results: commit `44550ef1d2c3`, measured 2027-04-02 09:00 UTC, on `runner-amd64`.",
		"| PublicKey/blst/affine/pointer/min-pk | bytes per instance | 96 B | 96 B | 0 | PASS |")

	buf.Reset()
	if err := CheckMarkdown(&buf, checkReport(t, []byte(waivers)), measure.Env{}); err != nil {
		t.Fatal(err)
	}
	md = buf.String()
	checkContains(t, md,
		"| Signature/blst/affine/pointer/min-pk | bytes per instance | 192 B | 192 B | 0 | FAIL (expired) — budget expired on 2027-03-31 (crypto-team, https://github.com/example/node/issues/812) |",
		"- `memprof.budgets.yaml:10` select {type: PublicKey, lib: blst}: budget expires on 2027-06-30 (https://github.com/example/node/issues/901), 89 days left",
		"| WARN — above the budget by",
		"within its min_delta 30%: below the noise floor")
	if strings.Contains(md, "Results:") {
		t.Errorf("a results file without commit, time or machine got a provenance line:\n%s", md)
	}
	var text bytes.Buffer
	if err := Check(&text, checkReport(t, []byte(waivers))); err != nil {
		t.Fatal(err)
	}
	checkContains(t, text.String(),
		"FAIL  Signature/blst/affine/pointer/min-pk  bytes per instance: budget expired on 2027-03-31 (crypto-team, https://github.com/example/node/issues/812); measured 192 B, budget 192 B\n",
		"memprof check: FAIL: 1 budget expired, 1 warning, 1 holds (memprof.budgets.yaml)")
}

// TestCompareMarkdownStaleBase: the comment links the base run, says at
// which commits, when and where both sides were measured, and warns that
// the base is stale and of another commit, without failing more rows.
func TestCompareMarkdownStaleBase(t *testing.T) {
	var buf bytes.Buffer
	c := staleComparison(t)
	if err := CompareMarkdown(&buf, c, MarkdownOptions{BaseURL: "https://github.com/example/node/actions/runs/1234"}); err != nil {
		t.Fatal(err)
	}
	checkContains(t, buf.String(),
		"**Base**: [run](https://github.com/example/node/actions/runs/1234), commit `0123abcd4567`, measured 2027-03-24 09:30 UTC, on `runner-7`; **head**: commit `44550ef1d2c3`",
		"> [!WARNING]\n> The base was measured at commit 0123abcd4567, not at the expected base commit 89abcdef0123",
		"> The base is stale: measured 9 days ago (2027-03-24T09:30:00Z), more than the 7 days allowed.\n")
	if c.Failures != 4 {
		t.Errorf("failures: got %d, want the 4 regressions only", c.Failures)
	}
	var table bytes.Buffer
	if err := TableFit(&table, c, 0, render.Plain); err != nil {
		t.Fatal(err)
	}
	checkContains(t, table.String(), "warning: the base is stale: measured 9 days ago")
}

func checkContains(t *testing.T, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

// TestWaiversListDates: a waiver dated 0001-01-01 is a waiver (long
// expired, listed and failing), not "no date"; a far one lists the days
// it truly has left (the parser refuses one past gate.MaxWaiverYears, so
// no time left overflows a time.Duration into 106751 days).
func TestWaiversListDates(t *testing.T) {
	src := `version: 1
budgets:
  - select: {type: Signature, lib: blst, repr: affine}
    max_bytes_per_instance: 192B
    expires: 0001-01-01
  - select: {type: PublicKey, lib: blst}
    max_bytes_per_instance: 96B
    expires: 2099-12-31
`
	var buf bytes.Buffer
	if err := CheckMarkdown(&buf, checkReport(t, []byte(src)), measure.Env{}); err != nil {
		t.Fatal(err)
	}
	days := int(time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC).Sub(clock.Round(time.Minute)) / (24 * time.Hour))
	checkContains(t, buf.String(),
		"- `memprof.budgets.yaml:5` select {type: Signature, lib: blst, repr: affine}: budget expired on 0001-01-01\n",
		fmt.Sprintf("- `memprof.budgets.yaml:8` select {type: PublicKey, lib: blst}: budget expires on 2099-12-31, %d days left\n", days),
		"| FAIL (expired) — budget expired on 0001-01-01 |")
}
