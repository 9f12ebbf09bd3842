package memprof

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/memprof/memprof/measure"
)

// TestScanRule: the dense rule needs the Green Tea collector, amd64 and
// every feature of denseScanFeatures; the basis names what decided it
// (the features missing, when one is).
func TestScanRule(t *testing.T) {
	all := func(string) bool { return true }
	without := func(f string) func(string) bool { return func(g string) bool { return g != f } }
	tests := []struct {
		name   string
		c      measure.Collector
		goarch string
		has    func(string) bool
		want   measure.ScanRule
		basis  string
	}{
		{"green tea, amd64, every feature", measure.GreenTeaGC, "amd64", all, measure.ScanDense, "avx512vbmi"},
		{"green tea, amd64, no gfni", measure.GreenTeaGC, "amd64", without("gfni"), measure.ScanToLastPointer, "lacks gfni"},
		{"green tea, amd64, no avx512vbmi", measure.GreenTeaGC, "amd64", without("avx512vbmi"), measure.ScanToLastPointer, "lacks avx512vbmi"},
		{"green tea, arm64", measure.GreenTeaGC, "arm64", all, measure.ScanToLastPointer, "arm64"},
		{"the old collector", measure.NoGreenTeaGC, "amd64", all, measure.ScanToLastPointer, "nogreenteagc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, basis := scanRule(tt.c, tt.goarch, tt.has)
			if got != tt.want || !strings.Contains(basis, tt.basis) {
				t.Errorf("got %s (%q), want %s with %q", got, basis, tt.want, tt.basis)
			}
		})
	}
	if env := CurrentEnv(); !slices.Contains(measure.ScanRules, env.ScanRule) || env.ScanRuleBasis == "" {
		t.Errorf("env: scan rule %q (%q), want one of %v and its basis", env.ScanRule, env.ScanRuleBasis, measure.ScanRules)
	}
}

// sliceHolder is a 24-byte object whose one pointer is its first word:
// a slot of its own size class.
type sliceHolder struct{ b []byte }

// scanRuleN is the N of TestScanRuleOfThisRuntime.
const scanRuleN = 100_000

// scanRuleTask measures what a sliceHolder scans (fixtureScan) in a fresh
// process: in one whose heap earlier work left with holes in the
// object's size class, the objects fill them, a few to a span, and the
// collector scans such spans by the other rule (see
// TestScanBytesGroundTruth).
func scanRuleTask(context.Context, json.RawMessage) (any, error) {
	got, floor := fixtureScan(scanRuleN, func() *sliceHolder { return &sliceHolder{b: make([]byte, 1)} })
	return [2]float64{got, floor}, nil
}

// TestScanRuleOfThisRuntime: the rule CurrentEnv records is the one the
// running collector counts by, measured in a fresh child process
// (scanRuleTask): objects of sliceHolder, many enough to fill their
// spans densely, scan their whole slot under the dense rule and their
// first word under the other.
func TestScanRuleOfThisRuntime(t *testing.T) {
	slot := float64(unsafe.Sizeof(sliceHolder{}))
	word := float64(unsafe.Sizeof(uintptr(0)))
	var read [2]float64
	if err := RunInChild(t.Context(), Child{Args: []string{"-test.run=^$"}}, "scan-rule", nil, &read); err != nil {
		t.Fatal(err)
	}
	got, floor := read[0], read[1]
	rule, basis := currentScanRule()
	want := map[measure.ScanRule]float64{measure.ScanDense: slot, measure.ScanToLastPointer: word}[rule]
	t.Logf("%s (%s): %v B scanned per %v-byte object", rule, basis, got, slot)
	// Half the two rules' difference tells them apart; the runtime's own
	// objects move the reading by about a page over n.
	if tol := (slot - word) / 2; math.Abs(got-want) > tol || floor > tol {
		t.Errorf("a %v-byte object with one pointer scans %v B, want %v under the %s rule (%s), to %v", slot, got, want, rule, basis, tol)
	}
}
