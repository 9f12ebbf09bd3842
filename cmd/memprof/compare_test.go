package main

import (
	"path/filepath"
	"strings"
	"testing"
)

const compareDir = "../../fixtures/compare/"

// headline is compare's verdict on head.json: its failures counted by
// kind.
const headline = "1 bytes regression, 1 time regression, 1 missing case"

func TestCompareExitCodes(t *testing.T) {
	base, head := compareDir+"base.json", compareDir+"head.json"
	tests := []cliCase{
		{"regressions", []string{base, head}, exitFailure,
			[]string{"FAIL    Signature/blst/affine/pointer  ", "  +96  +50.0%  ", "  missing", "not significant", "memprof compare: " + headline},
			[]string{"memprof compare: " + headline}},
		{"flags after files", []string{base, head, "--format", "markdown"}, exitFailure,
			[]string{"### ❌ memprof: " + headline, "<details>"}, nil},
		{"flags before files", []string{"--format=json", base, head}, exitFailure,
			[]string{`"verdict": "4 regressions"`}, nil},
		{"same file", []string{base, base}, exitOK, []string{"no regression detected"}, nil},
		{"allow missing, loose tolerances", []string{base, head, "--allow-missing", "--tolerance-bytes", "96B", "--tolerance", "11%"}, exitOK,
			[]string{"missing(allowed)", "no regression detected"}, nil},
		{"env mismatch refused", []string{base, compareDir + "head-other-env.json"}, exitUsage,
			nil, []string{"different environments", "cpu", "go_version", "--allow-env-mismatch"}},
		{"env mismatch allowed", []string{base, compareDir + "head-other-env.json", "--allow-env-mismatch"}, exitOK,
			[]string{`environment differs: cpu: base "Fixture CPU @ 3.00GHz", head "Other CPU @ 2.00GHz"`}, nil},
		{"no samples", []string{base, compareDir + "head-no-samples.json"}, exitUsage, nil, []string{"has no samples_ns"}},
		{"missing file", []string{base, compareDir + "nope.json"}, exitUsage, nil, []string{"head: reading results", "nope.json"}},
		{"one file", []string{base}, exitUsage, nil, []string{"want two results files"}},
		{"bad tolerance", []string{base, head, "--tolerance", "5"}, exitUsage, nil, []string{`--tolerance: "5" is not a percentage`}},
		{"bad tolerance-bytes", []string{base, head, "--tolerance-bytes", "5XB"}, exitUsage, nil, []string{"--tolerance-bytes"}},
		{"bad format", []string{base, head, "--format", "html"}, exitUsage, nil, []string{`unknown format "html"`, "table, markdown, json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.check(t, "compare") })
	}
}

func TestCompareOutputFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "comment.md")
	data := runToFile(t, out, exitFailure, "compare", compareDir+"base.json", compareDir+"head.json", "--format", "markdown", "-o", out)
	if first, _, _ := strings.Cut(string(data), "\n"); !strings.Contains(first, headline) {
		t.Errorf("first line %q lacks the verdict", first)
	}
}
