package main

import (
	"path/filepath"
	"strings"
	"testing"
)

const compareDir = "../../fixtures/compare/"

// headline is compare's verdict on head.json with --fail-on-time: its
// failures counted by kind; timeWarning the same without it, the time
// regression a warning.
const (
	headline    = "1 bytes regression, 1 time regression, 1 missing case"
	timeWarning = "1 bytes regression, 1 missing case, 1 time warning (times fail only with --fail-on-time)"
)

func TestCompareExitCodes(t *testing.T) {
	base, head := compareDir+"base.json", compareDir+"head.json"
	tests := []cliCase{
		{"regressions", []string{base, head, "--fail-on-time"}, exitFailure,
			[]string{"FAIL    Signature/blst/affine/pointer/min-pk  ", "  +96  +50.0%  ", "  missing", "not significant", "memprof compare: " + headline},
			[]string{"memprof compare: " + headline}},
		{"regressions, the time a warning", []string{base, head}, exitFailure,
			[]string{"FAIL    Signature/blst/affine/pointer/min-pk  ", "warn    Signature/blst/affine/op=verify  ", "memprof compare: " + timeWarning},
			[]string{"memprof compare: " + timeWarning}},
		{"only a time regression: a warning, exit 0", []string{base, head, "--allow-missing", "--tolerance-bytes", "96B"}, exitOK,
			[]string{"memprof compare: no memory regression; 1 time warning (times fail only with --fail-on-time)"},
			[]string{"memprof compare: warning: no memory regression; 1 time warning"}},
		{"only a time regression, --fail-on-time", []string{base, head, "--allow-missing", "--tolerance-bytes", "96B", "--fail-on-time"}, exitFailure,
			[]string{"memprof compare: 1 time regression"}, nil},
		{"flags after files", []string{base, head, "--format", "markdown", "--fail-on-time"}, exitFailure,
			[]string{"### ❌ memprof: " + headline, "<details>"}, nil},
		{"flags before files", []string{"--format=json", "--fail-on-time", base, head}, exitFailure,
			[]string{`"verdict": "4 regressions"`}, nil},
		{"same file", []string{base, base}, exitOK, []string{"no regression detected"}, nil},
		{"allow missing, loose tolerances", []string{base, head, "--allow-missing", "--tolerance-bytes", "96B", "--tolerance", "11%", "--fail-on-time"}, exitOK,
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
	if first, _, _ := strings.Cut(string(data), "\n"); !strings.Contains(first, timeWarning) {
		t.Errorf("first line %q lacks the verdict", first)
	}
}
