package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// jsonDoc is a results file as generic JSON, edited the way a person or a
// broken CI job would.
type jsonDoc map[string]any

func (d jsonDoc) row(section string, i int) map[string]any {
	return d[section].([]any)[i].(map[string]any)
}

// editJSON writes src, edited by edit, to dir/name and returns the path.
func editJSON(t *testing.T, src, dir, name string, edit func(d jsonDoc)) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var d jsonDoc
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	edit(d)
	out, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// editResults writes src, edited as decoded results (so that summaries
// can be recomputed and stay valid), to dir/name.
func editResults(t *testing.T, src, dir, name string, edit func(rs *results.File)) string {
	t.Helper()
	rs, err := results.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	edit(rs)
	path := filepath.Join(dir, name)
	var buf bytes.Buffer
	if err := rs.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// snapshot records the bytes of files, to check that a refused command
// damaged none of them.
func snapshot(t *testing.T, paths ...string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		m[p] = data
	}
	return m
}

func checkUnchanged(t *testing.T, before map[string][]byte) {
	t.Helper()
	for p, data := range before {
		if after, err := os.ReadFile(p); err != nil || !bytes.Equal(after, data) {
			t.Errorf("%s was changed (err %v)", p, err)
		}
	}
}

// stderrLines returns the lines of stderr, without the usage hint.
func stderrLines(s string) []string {
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if l != "" && !strings.HasPrefix(l, "Run 'memprof") {
			lines = append(lines, l)
		}
	}
	return lines
}

// TestInvalidResultsRefused: a results file that breaks the schema's
// rules is bad input for every command that reads one: exit 2, every
// problem on stderr as FILE: instances[i] (case): problem, and nothing
// written (the budgets file of check --update stays byte for byte, the
// --out of report is not created).
func TestInvalidResultsRefused(t *testing.T) {
	dir := t.TempDir()
	checkRes := budgetsDir + "results.json"
	base, head := compareDir+"base.json", compareDir+"head.json"
	nullBytes := editJSON(t, checkRes, dir, "null-bytes.json", func(d jsonDoc) { d.row("instances", 1)["bytes_per_instance"] = nil })
	missingAllocs := editJSON(t, checkRes, dir, "missing-allocs.json", func(d jsonDoc) { delete(d.row("instances", 1), "allocs_per_instance") })
	negative := editJSON(t, checkRes, dir, "negative.json", func(d jsonDoc) { d.row("instances", 1)["bytes_per_instance"] = -192 })
	unknownType := editJSON(t, checkRes, dir, "unknown-type.json", func(d jsonDoc) { d.row("instances", 0)["type"] = "PubKey" })
	negSample := editJSON(t, checkRes, dir, "negative-sample.json", func(d jsonDoc) { d.row("throughput", 0)["samples_ns"].([]any)[0] = -1 })
	dupHead := editJSON(t, head, dir, "dup-head.json", func(d jsonDoc) {
		row := map[string]any{}
		for k, v := range d.row("instances", 1) {
			row[k] = v
		}
		row["bytes_per_instance"] = 96 // the duplicate claims an improvement
		d["instances"] = append(d["instances"].([]any), row)
	})
	negBase := editJSON(t, base, dir, "negative-base.json", func(d jsonDoc) { d.row("instances", 0)["bytes_per_instance"] = -96 })
	reportNeg := editJSON(t, resultsFixture, dir, "report-negative.json", func(d jsonDoc) { d.row("instances", 12)["bytes_per_instance"] = -192 })
	reportCase := func() string {
		rs, err := results.ReadFile(resultsFixture)
		if err != nil {
			t.Fatal(err)
		}
		r := rs.Instances[12]
		return r.Key.String()
	}()
	budgets := copyUpdateBudgets(t, dir)
	sig := "(Signature/blst/affine/pointer)"

	tests := []struct {
		name  string
		args  []string
		want  []string // stderr lines, exactly
		files []string // must be unchanged
		out   string   // must not exist afterwards
	}{
		{"check: bytes null", []string{"check", "--budgets", budgetsDir + "pass.yaml", "--results", nullBytes},
			[]string{"memprof check: " + nullBytes + ": instances[1] " + sig + ": bytes_per_instance is null"}, []string{nullBytes}, ""},
		{"check: allocs missing", []string{"check", "--budgets", budgetsDir + "pass.yaml", "--results", missingAllocs},
			[]string{"memprof check: " + missingAllocs + ": instances[1] " + sig + ": allocs_per_instance is missing"}, nil, ""},
		{"check: negative bytes", []string{"check", "--budgets", budgetsDir + "pass.yaml", "--results", negative},
			[]string{"memprof check: " + negative + ": instances[1] " + sig + ": bytes_per_instance is -192, want a non-negative number"}, nil, ""},
		{"check: unknown type", []string{"check", "--budgets", budgetsDir + "pass.yaml", "--results", unknownType},
			[]string{"memprof check: " + unknownType + `: instances[0] (PubKey/blst/affine/pointer): unknown type "PubKey": valid types are ` + vocab.Join(vocab.Types)}, nil, ""},
		{"check: negative sample", []string{"check", "--budgets", budgetsDir + "time.yaml", "--results", negSample},
			[]string{"memprof check: " + negSample + ": throughput[0] (Signature/blst/affine op=verify): samples_ns[0] is -1, want a non-negative number"}, nil, ""},
		{"check --update: bytes null", []string{"check", "--budgets", budgets, "--results", nullBytes, "--update"},
			[]string{"memprof check: " + nullBytes + ": instances[1] " + sig + ": bytes_per_instance is null"}, []string{budgets, nullBytes}, ""},
		{"check --update: negative bytes", []string{"check", "--budgets", budgets, "--results", negative, "--update"},
			[]string{"memprof check: " + negative + ": instances[1] " + sig + ": bytes_per_instance is -192, want a non-negative number"}, []string{budgets}, ""},
		{"compare: duplicated case in head", []string{"compare", base, dupHead},
			[]string{"memprof compare: head: " + dupHead + ": instances[3] " + sig + ": duplicate of instances[1]: one case measured twice"}, []string{dupHead}, ""},
		{"compare: negative bytes in base", []string{"compare", negBase, head},
			[]string{"memprof compare: base: " + negBase + ": instances[0] (PublicKey/blst/affine/pointer): bytes_per_instance is -96, want a non-negative number"}, nil, ""},
		{"compare -o: nothing written", []string{"compare", base, dupHead, "-o", filepath.Join(dir, "comment.md")},
			[]string{"memprof compare: head: " + dupHead + ": instances[3] " + sig + ": duplicate of instances[1]: one case measured twice"}, nil, filepath.Join(dir, "comment.md")},
		{"report --from: negative bytes", []string{"report", "--from", reportNeg, "--out", filepath.Join(dir, "review")},
			[]string{"memprof report: " + reportNeg + ": instances[12] (" + reportCase + "): bytes_per_instance is -192, want a non-negative number"}, []string{reportNeg}, filepath.Join(dir, "review")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := snapshot(t, tt.files...)
			code, stdout, stderr := runCLI(t, tt.args...)
			if code != exitUsage {
				t.Errorf("exit code: got %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitUsage, stdout, stderr)
			}
			if got := stderrLines(stderr); strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("stderr:\ngot  %s\nwant %s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if stdout != "" {
				t.Errorf("stdout: got %q, want nothing (the input is refused before anything is checked)", stdout)
			}
			checkUnchanged(t, before)
			if tt.out != "" {
				if _, err := os.Stat(tt.out); !os.IsNotExist(err) {
					t.Errorf("%s exists (err %v); want nothing written", tt.out, err)
				}
			}
		})
	}
}

// TestUntrustedResults: results that are valid but from which nothing can
// be concluded fail check (time budgets) and compare, each saying why;
// results from another OS are another environment.
func TestUntrustedResults(t *testing.T) {
	dir := t.TempDir()
	checkRes := budgetsDir + "results.json"
	base := compareDir + "base.json"
	disagree := func(rs *results.File) {
		rs.Agreement = &results.Agreement{Cases: 20, Libs: []vocab.Lib{"blst", "circl", "gnark"}, OK: false}
	}
	why := "the libraries disagreed (agreement.ok is false; blst, circl, gnark on 20 cases): no time measured with them can be trusted"
	checkDisagree := editResults(t, checkRes, dir, "check-disagree.json", disagree)
	headDisagree := editResults(t, base, dir, "head-disagree.json", disagree)
	otherOS := editResults(t, base, dir, "head-darwin.json", func(rs *results.File) { rs.Env.GOOS = "darwin" })
	oneSample := editResults(t, base, dir, "head-one-sample.json", func(rs *results.File) {
		for i := range rs.Throughput {
			r := &rs.Throughput[i]
			r.SamplesNs = r.SamplesNs[:1]
			r.Samples = 1
			r.NsPerOpMedian, r.NsPerOpQ1, r.NsPerOpQ3 = r.SamplesNs[0], r.SamplesNs[0], r.SamplesNs[0]
		}
	})
	tests := []cliCase{
		{"check: time budgets after a disagreement", []string{"check", "--budgets", budgetsDir + "time.yaml", "--results", checkDisagree}, exitFailure,
			[]string{"ERROR {type: Signature, lib: blst, repr: affine, op: verify}  ns per op: not checked: " + why, "memprof check: FAIL: 3 not checked (errors)"}, nil},
		{"check: memory budgets after a disagreement", []string{"check", "--budgets", budgetsDir + "pass.yaml", "--results", checkDisagree}, exitOK,
			[]string{"memprof check: ok: 5 hold"}, nil},
		{"compare: head's libraries disagreed", []string{"compare", base, headDisagree}, exitFailure,
			[]string{"error[1]", "[1] head: the libraries disagreed"}, []string{"memprof compare: 4 cases not judged"}},
		{"compare: one sample a side", []string{"compare", base, oneSample, "--fail-on-time"}, exitFailure,
			[]string{"[1] too few samples to judge (n=1; at least 4 needed)", "  exact  -  unchanged"}, []string{"memprof compare: 4 cases not judged"}},
		{"compare: another OS", []string{"compare", base, otherOS}, exitUsage,
			nil, []string{`results come from different environments: goos (base "linux", head "darwin")`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := snapshot(t, checkDisagree, headDisagree, otherOS, oneSample)
			tt.check(t)
			checkUnchanged(t, before)
		})
	}
}

// TestInputSizeLimits: every file check, compare and report read is
// bounded while reading (an endless /dev/zero stops at the limit), the
// error names the file, the limit and --max-bytes, which raises it.
func TestInputSizeLimits(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	checkRes := budgetsDir + "results.json"
	base := compareDir + "base.json"
	budgets := copyUpdateBudgets(t, dir)
	hint := " (raise it with --max-bytes if the file is trusted)"
	tests := []struct {
		name string
		args []string
		code int
		want []string // stderr lines, exactly ("" for any)
	}{
		{"check: --budgets /dev/zero (default limit)", []string{"check", "--budgets", "/dev/zero", "--results", checkRes}, exitUsage,
			[]string{"memprof check: reading budgets /dev/zero: larger than the limit of 4 MiB" + hint}},
		{"check: --results /dev/zero", []string{"check", "--budgets", budgetsDir + "pass.yaml", "--results", "/dev/zero", "--max-bytes", "1MiB"}, exitUsage,
			[]string{"memprof check: reading results /dev/zero: larger than the limit of 1 MiB" + hint}},
		{"check --update: results over the limit", []string{"check", "--budgets", budgets, "--results", checkRes, "--update", "--max-bytes", "1KiB"}, exitUsage,
			[]string{"memprof check: reading results " + checkRes + ": larger than the limit of 1 KiB" + hint}},
		{"compare: base /dev/zero", []string{"compare", "/dev/zero", base, "--max-bytes", "1MiB"}, exitUsage,
			[]string{"memprof compare: base: reading results /dev/zero: larger than the limit of 1 MiB" + hint}},
		{"compare: head over the limit", []string{"compare", "--max-bytes", "4KiB", base, base}, exitUsage,
			[]string{"memprof compare: base: reading results " + base + ": larger than the limit of 4 KiB" + hint}},
		{"compare: the limit raised", []string{"compare", "--max-bytes", "1GiB", base, base}, exitOK, nil},
		{"report: --from /dev/zero", []string{"report", "--from", "/dev/zero", "--max-bytes", "1MiB", "--out", filepath.Join(dir, "review")}, exitUsage,
			[]string{"memprof report: reading results /dev/zero: larger than the limit of 1 MiB" + hint}},
		{"bad size", []string{"check", "--max-bytes", "lots"}, exitUsage,
			[]string{`memprof check: --max-bytes: size "lots" must be a positive whole number of bytes, optionally with KiB, MiB or GiB`}},
		{"report: --max-bytes without --from", []string{"report", "--type", "G1", "--max-bytes", "1MiB", "--out", filepath.Join(dir, "review")}, exitUsage,
			[]string{"memprof report: --max-bytes bounds the --from file: give it with --from"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := snapshot(t, budgets)
			code, stdout, stderr := runCLI(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit code: got %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
			}
			if got := stderrLines(stderr); tt.want != nil && strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("stderr:\ngot  %s\nwant %s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			checkUnchanged(t, before)
			if _, err := os.Stat(filepath.Join(dir, "review")); !os.IsNotExist(err) {
				t.Errorf("report wrote %s (err %v); want nothing written", filepath.Join(dir, "review"), err)
			}
		})
	}
}
