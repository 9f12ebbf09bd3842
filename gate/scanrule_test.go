package gate

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
)

// withScanBytes gives f's first instances row a scan figure (known: with
// its resolution): the compare fixtures predate the figure.
func withScanBytes(f *results.File) {
	f.Instances[0].ScanBytesPerInstance, f.Instances[0].ScanResolution = 8, 0.01
}

// TestCompareScanRuleWithoutScanBytes: files that hold no scan bytes (the
// compare fixtures predate them) draw no word of the scan rule, whatever
// they record of it: nothing of theirs depends on it.
func TestCompareScanRuleWithoutScanBytes(t *testing.T) {
	base := readFixture(t, "../fixtures/compare/base.json")
	c, err := Compare(base, base, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(c.Warnings, func(w string) bool { return strings.Contains(w, "scan") }) {
		t.Errorf("warnings %q speak of the scan rule of files without scan bytes", c.Warnings)
	}
}

// TestCompareScanRule: base and head whose recorded scan rules differ are
// refused as results of different environments, the error saying why
// scan bytes do not compare (and, allowed, the difference is listed);
// one rule on both sides passes with no word of it; where a side records
// none (a file written before scan_rule) compare says it cannot tell,
// never passing in silence.
func TestCompareScanRule(t *testing.T) {
	tests := []struct {
		name       string
		base, head measure.ScanRule
		refused    bool
		warning    string
	}{
		{"one rule", measure.ScanDense, measure.ScanDense, false, ""},
		{"different rules", measure.ScanDense, measure.ScanToLastPointer, true, ""},
		{"base unknown", "", measure.ScanDense, false, "the base records no scan_rule"},
		{"head unknown", measure.ScanToLastPointer, "", false, "the head records no scan_rule"},
		{"both unknown", "", "", false, "neither base nor head records a scan_rule"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, head := readFixture(t, "../fixtures/compare/base.json"), readFixture(t, "../fixtures/compare/base.json")
			base.Env.ScanRule, head.Env.ScanRule = tt.base, tt.head
			withScanBytes(base)
			withScanBytes(head)
			c, err := Compare(base, head, CompareOptions{})
			var em *EnvMismatchError
			if tt.refused {
				if !errors.As(err, &em) {
					t.Fatalf("got %v, want an *EnvMismatchError", err)
				}
				for _, w := range []string{`scan_rule (base "dense", head "last-pointer")`, results.ScanRuleWhy} {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not say %q", err, w)
					}
				}
				c, err = Compare(base, head, CompareOptions{AllowEnvMismatch: true})
				if err != nil {
					t.Fatalf("allowed mismatch: %v", err)
				}
				if !slices.ContainsFunc(c.EnvDiffs, func(d results.EnvDiff) bool { return d.Field == results.ScanRuleField }) {
					t.Errorf("allowed mismatch: env diffs %v lack %s", c.EnvDiffs, results.ScanRuleField)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			said := slices.ContainsFunc(c.Warnings, func(w string) bool { return strings.Contains(w, "scan") })
			switch {
			case tt.warning == "" && said:
				t.Errorf("warnings %q speak of the scan rule, want nothing where both record one", c.Warnings)
			case tt.warning != "" && !slices.ContainsFunc(c.Warnings, func(w string) bool {
				return strings.Contains(w, tt.warning) && strings.Contains(w, "cannot tell")
			}):
				t.Errorf("warnings %q, want one saying it cannot tell (%q)", c.Warnings, tt.warning)
			}
		})
	}
}
