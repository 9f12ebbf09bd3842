package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
)

func tradeoffFixture() *results.File {
	return &results.File{
		Env:       measure.Env{GOMAXPROCS: 2, CPU: "test cpu"},
		Agreement: &results.Agreement{Cases: 20, Libs: []vocab.Lib{"circl", "gnark"}, OK: true, Unavailable: []string{"blst: no cgo"}},
		Instances: []results.Row{
			{Key: results.Key{Type: "Signature", Lib: "gnark", Repr: "affine", Layout: "pointer"}, Measurement: measure.Measurement{BytesPerInstance: 192}},
			{Key: results.Key{Type: "Signature", Lib: "gnark", Repr: "affine", Layout: "slice"}, Measurement: measure.Measurement{BytesPerInstance: 190}},
			{Key: results.Key{Type: "Signature", Lib: "circl", Repr: "compressed", Layout: "pointer"}, Measurement: measure.Measurement{BytesPerInstance: 96}},
		},
		Throughput: []results.ThroughputRow{
			{Key: results.Key{Type: "Signature", Lib: "gnark", Repr: "affine", Op: "verify", Batch: 1}, Timing: measure.Timing{Samples: 3, NsPerOpMedian: 1e6, NsPerOpQ1: 9e5, NsPerOpQ3: 1.2e6, CPUNsPerOpMedian: 2e6, OpsPerSecond: 1000}, Note: "pairing"},
			{Key: results.Key{Type: "Signature", Lib: "circl", Repr: "compressed", Op: "decompress-checked", Batch: 1}, Timing: measure.Timing{Samples: 3, NsPerOpMedian: 250e3}},
			{Key: results.Key{Type: "Signature", Lib: "gnark", Repr: "compressed", Op: "decompress-checked", Batch: 1}, Error: "boom"},
		},
		Unavailable: []results.Unavailable{
			{Key: results.Key{Type: "Signature", Lib: "circl", Repr: "compressed", Op: "verify"}, Why: vocab.Why{Reason: "not offered by circl: test"}},
			{Key: results.Key{Type: "Signature", Lib: "circl", Repr: "compressed", Op: "fast-aggregate-verify"}, Why: vocab.Why{Reason: "not offered by circl: timed nowhere"}},
			{Key: results.Key{Type: "Signature", Lib: "blst", Repr: "affine", Layout: "pointer"}, Why: vocab.Why{Reason: "no cgo"}},
		},
	}
}

// lineCheck is a line of a table (the first with every part of row) and
// what must be on it.
type lineCheck struct {
	row  []string
	want []string
}

// checkLines checks every line check on out.
func checkLines(t *testing.T, out string, checks []lineCheck) {
	t.Helper()
	for _, c := range checks {
		l := lineWith(out, c.row...)
		if l == "" {
			t.Errorf("no line with %v in:\n%s", c.row, out)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(l, w) {
				t.Errorf("line %q lacks %q", l, w)
			}
		}
	}
}

// lineWith returns the first line of s containing every part.
func lineWith(s string, parts ...string) string {
	for _, l := range strings.Split(s, "\n") {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(l, p)
		}
		if all {
			return l
		}
	}
	return ""
}

func TestTradeoffTables(t *testing.T) {
	var buf bytes.Buffer
	if err := TradeoffTablesFit(&buf, tradeoffFixture(), TableOptions{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	checks := []lineCheck{
		{[]string{"lib", "repr", "B/instance"}, []string{"decompress-checked", "verify"}},
		{[]string{"gnark", "affine"}, []string{"192", strings.ReplaceAll(units.FormatNs(1e6), " ", "")}},
		{[]string{"circl", "compressed"}, []string{"96", strings.ReplaceAll(units.FormatNs(250e3), " ", ""), "n/a"}},
		{[]string{"gnark", "compressed"}, []string{"error"}},
		{[]string{"agreement:"}, []string{"circl, gnark agree on 20 cases", "not checked: blst: no cgo"}},
	}
	checkLines(t, out, checks)
	if strings.Contains(out, "190") {
		t.Errorf("the slice layout replaced the pointer layout's bytes:\n%s", out)
	}
	if strings.Contains(out, "fast-aggregate-verify") {
		t.Errorf("an operation timed nowhere got a column:\n%s", out)
	}
}

func TestThroughputTable(t *testing.T) {
	var buf bytes.Buffer
	if err := ThroughputTableFit(&buf, tradeoffFixture(), TableOptions{Wide: true}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	compact := func(s string) string { return strings.ReplaceAll(s, " ", "") }
	checks := []lineCheck{
		{[]string{"gnark", "affine", "verify"}, []string{compact(units.FormatNs(1e6)), compact(units.FormatNs(9e5) + " – " + units.FormatNs(1.2e6)), compact(units.FormatNs(2e6)), "1000", "[2]"}},
		{[]string{"circl", "compressed", "verify"}, []string{"n/a[3]"}},
		{[]string{"gnark", "decompress-checked"}, []string{"error[1]"}},
		{[]string{"Signature min-pk"}, nil},
		{[]string{"GOMAXPROCS 2"}, []string{"test cpu"}},
	}
	checkLines(t, out, checks)
	for _, note := range []string{"[1] error: boom.", "[2] pairing.", "[3] not offered by circl: test."} {
		if !strings.Contains(out, note) {
			t.Errorf("no footnote %q in\n%s", note, out)
		}
	}
	// Rows come in the sampler's order: decompress-checked before verify.
	if strings.Index(out, "decompress-checked") > strings.Index(out, "  verify") {
		t.Errorf("rows out of order:\n%s", out)
	}
}
