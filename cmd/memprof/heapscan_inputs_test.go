package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/memprof/memprof/fixtures/heapgen/scenario"
	"github.com/memprof/memprof/heapscan"
)

// testProfile is a heap profile built for a CLI test: samples of one
// function each, with the given sample types.
type testProfile struct {
	types      []string // "inuse_objects", "inuse_space", ...
	periodType [2]string
	period     int64
	duration   int64
	samples    []testSample
}

type testSample struct {
	fn, file string
	values   []int64 // one per type
	size     int64   // the "bytes" label
}

func (tp testProfile) write(t *testing.T, dir, name string) string {
	t.Helper()
	p := &profile.Profile{
		PeriodType:    &profile.ValueType{Type: tp.periodType[0], Unit: tp.periodType[1]},
		Period:        tp.period,
		DurationNanos: tp.duration,
	}
	for _, ty := range tp.types {
		unit := "bytes"
		if strings.HasSuffix(ty, "objects") {
			unit = "count"
		}
		p.SampleType = append(p.SampleType, &profile.ValueType{Type: ty, Unit: unit})
	}
	fns := map[string]*profile.Location{}
	for _, s := range tp.samples {
		loc, ok := fns[s.fn]
		if !ok {
			f := &profile.Function{ID: uint64(len(fns) + 1), Name: s.fn, Filename: s.file}
			loc = &profile.Location{ID: f.ID, Line: []profile.Line{{Function: f, Line: 7}}}
			p.Function = append(p.Function, f)
			p.Location = append(p.Location, loc)
			fns[s.fn] = loc
		}
		p.Sample = append(p.Sample, &profile.Sample{Location: []*profile.Location{loc}, Value: s.values, NumLabel: map[string][]int64{"bytes": {s.size}}})
	}
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

var goHeap = [2]string{"space", "bytes"}

// jsonCheck checks a heapscan JSON document.
type jsonCheck func(t *testing.T, doc map[string]any)

// row returns the row with the given key, or fails.
func row(t *testing.T, doc map[string]any, key string) map[string]any {
	t.Helper()
	rows, _ := doc["rows"].([]any)
	for _, r := range rows {
		if m := r.(map[string]any); m["key"] == key {
			return m
		}
	}
	t.Fatalf("no row %q in %v", key, rows)
	return nil
}

// wantFields checks fields of an object: a nil want means JSON null.
func wantFields(t *testing.T, what string, obj map[string]any, want map[string]any) {
	t.Helper()
	for k, w := range want {
		got, ok := obj[k]
		if !ok {
			t.Errorf("%s: no field %q (want %v)", what, k, w)
			continue
		}
		if fmt.Sprint(got) != fmt.Sprint(w) {
			t.Errorf("%s: %s is %v, want %v", what, k, got, w)
		}
	}
}

// TestHeapscanInputs runs heapscan on inputs it used to refuse or
// misread, checking the exit code, the messages and the JSON.
func TestHeapscanInputs(t *testing.T) {
	dir := t.TempDir()
	const rate = 512 * 1024
	spaceOnly := testProfile{types: []string{"inuse_space"}, periodType: goHeap, period: rate, samples: []testSample{
		{fn: "main.big", values: []int64{4096 * 10}, size: 4096},
		{fn: "main.small", values: []int64{64 * 3}, size: 64},
	}}.write(t, dir, "space-only.pb")
	all4 := []string{"alloc_objects", "alloc_space", "inuse_objects", "inuse_space"}
	duration := testProfile{types: all4, periodType: goHeap, period: 1, duration: 30e9, samples: []testSample{
		{fn: "main.grew", values: []int64{5, 500, 5, 500}, size: 100},
		{fn: "main.same", values: []int64{0, 0, 0, 0}, size: 100},
		{fn: "main.shrank", values: []int64{0, 0, -2, -128}, size: 64},
	}}.write(t, dir, "delta-seconds.pb")
	negative := testProfile{types: all4, periodType: goHeap, period: rate, samples: []testSample{
		{fn: "main.grew", values: []int64{5, 500, 5, 500}, size: 100},
		{fn: "main.shrank", values: []int64{-4, -256, -4, -256}, size: 64},
	}}.write(t, dir, "delta-diff.pb")
	period0 := testProfile{types: all4, periodType: goHeap, period: 0, samples: []testSample{
		{fn: "main.f", values: []int64{2, 64, 2, 64}, size: 32},
	}}.write(t, dir, "period0.pb")
	notGo := testProfile{types: all4, periodType: [2]string{"allocations", "count"}, period: 1, samples: []testSample{
		{fn: "main.f", values: []int64{2, 64, 2, 64}, size: 32},
	}}.write(t, dir, "not-go.pb")
	equalCounts := filepath.Join(dir, "equal.heap.txt")
	if err := os.WriteFile(equalCounts, []byte("heap profile: 3: 288 [3: 288] @ heap/2\n3: 288 [3: 288] @ 0x401001 0x402001\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	symbolized := filepath.Join(dir, "debug1.heap.txt")
	if err := os.WriteFile(symbolized, []byte("heap profile: 5: 480 [9: 864] @ heap/2\n"+
		"2: 192 [4: 384] @ 0x47c305 0x4d9705 0x4d97c7 0x484081\n"+
		"#\t0x4d9704\tmain.alloc+0x84\t\t/src/main.go:12\n"+
		"#\t0x4d97c6\tmain.main+0x26\t\t/src/main.go:18\n\n"+
		"3: 288 [5: 480] @ 0x47c305 0x4d9895 0x484081\n"+
		"#\t0x4d9894\tmain.main+0xf5\t\t/src/main.go:21\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	small := scenario.FuncName(scenario.KeepSmall)

	tests := []struct {
		name       string
		args       []string
		stdin      string // a file to read as standard input
		code       int
		stderr     []string // substrings of stderr
		noStderr   bool
		check      jsonCheck
		stdoutHave string
	}{
		{name: "stdin", args: []string{"--format", "json", "-"}, stdin: heapProfiles + "before.pb.gz", code: exitOK, noStderr: true,
			check: func(t *testing.T, doc map[string]any) {
				wantFields(t, small, row(t, doc, small), map[string]any{"objects": scenario.SmallObjects})
			}},
		{name: "stdin, flags after it", args: []string{"-", "--format", "json", "--top", "1"}, stdin: heapProfiles + "before.pb.gz", code: exitOK,
			check: func(t *testing.T, doc map[string]any) {
				if rows := doc["rows"].([]any); len(rows) != 1 {
					t.Errorf("got %d rows, want 1 (--top 1 after the profile)", len(rows))
				}
			}},
		{name: "flags after the profile", args: []string{heapProfiles + "before.pb.gz", "--format", "csv"}, code: exitOK, stdoutHave: "key,objects,bytes"},
		{name: "stdin twice", args: []string{"--base", "-", "-"}, code: exitUsage, stderr: []string{"standard input", "only once"}},
		{name: "stdin not a profile", args: []string{"-"}, stdin: "heapscan.go", code: exitUsage, stderr: []string{"reading heap profile (standard input)", "not a profile"}},
		{name: "inuse_space only", args: []string{"--format", "json", spaceOnly}, code: exitOK,
			check: func(t *testing.T, doc map[string]any) {
				wantFields(t, "profile", doc["profile"].(map[string]any), map[string]any{"total_bytes": 4096*10 + 64*3, "total_objects": nil})
				wantFields(t, "main.big", row(t, doc, "main.big"), map[string]any{"bytes": 40960, "objects": nil, "bytes_per_object": nil, "rel_error": nil, "sampled": nil, "sizes": "[4096]"})
			}},
		{name: "inuse_space only, table", args: []string{spaceOnly}, code: exitOK, stdoutHave: "      ?  "},
		{name: "text header, equal counts", args: []string{"--format", "json", "--group-by", "stack", equalCounts}, code: exitOK,
			check: func(t *testing.T, doc map[string]any) {
				wantFields(t, "profile", doc["profile"].(map[string]any), map[string]any{"total_bytes": 288, "total_objects": 3})
			}},
		{name: "text header, equal counts, alloc", args: []string{"--format", "json", "--sample", "alloc", equalCounts}, code: exitOK,
			check: func(t *testing.T, doc map[string]any) {
				wantFields(t, "profile", doc["profile"].(map[string]any), map[string]any{"total_bytes": 288, "total_objects": 3})
			}},
		{name: "debug=1 symbols", args: []string{"--format", "json", symbolized}, code: exitOK,
			check: func(t *testing.T, doc map[string]any) {
				wantFields(t, "main.alloc", row(t, doc, "main.alloc"), map[string]any{"objects": 2, "bytes": 192})
				wantFields(t, "main.main", row(t, doc, "main.main"), map[string]any{"objects": 3, "bytes": 288})
				if n := len(doc["rows"].([]any)); n != 2 {
					t.Errorf("got %d rows, want 2 (functions, not addresses)", n)
				}
				if _, ok := doc["profile"].(map[string]any)["notes"]; ok {
					t.Errorf("notes %v on a symbolized profile", doc["profile"].(map[string]any)["notes"])
				}
			}},
		{name: "text without symbols", args: []string{"--format", "json", heapProfiles + "before.heap.txt"}, code: exitOK,
			check: func(t *testing.T, doc map[string]any) {
				if notes := fmt.Sprint(doc["profile"].(map[string]any)["notes"]); !strings.Contains(notes, "without symbol comments") {
					t.Errorf("got notes %s, want one saying the profile has no symbols", notes)
				}
			}},
		{name: "delta, duration_nanos", args: []string{"--format", "json", duration}, code: exitOK,
			stderr: []string{"memprof heapscan: warning:", "delta-seconds.pb", "delta profile", "duration_nanos"},
			check: func(t *testing.T, doc map[string]any) {
				p := doc["profile"].(map[string]any)
				wantFields(t, "profile", p, map[string]any{"delta": true, "total_bytes": 500 - 128, "abs_total_bytes": 500 + 128})
				if notes := fmt.Sprint(p["notes"]); !strings.Contains(notes, "duration_nanos is 30s") || !strings.Contains(notes, "sum of absolute values") {
					t.Errorf("got notes %s, want the reason and pprof's total", notes)
				}
				wantFields(t, "main.grew", row(t, doc, "main.grew"), map[string]any{"objects": 5, "bytes_per_object": 100, "rel_error": 0})
				wantFields(t, "main.shrank", row(t, doc, "main.shrank"), map[string]any{"objects": -2, "bytes": -128, "bytes_per_object": nil, "rel_error": nil, "sampled": nil})
			}},
		{name: "delta, negative values", args: []string{"--format", "json", negative}, code: exitOK,
			stderr: []string{"warning:", "delta-diff.pb", "negative values"},
			check: func(t *testing.T, doc map[string]any) {
				wantFields(t, "profile", doc["profile"].(map[string]any), map[string]any{"delta": true, "abs_total_bytes": 500 + 256})
				wantFields(t, "main.shrank", row(t, doc, "main.shrank"), map[string]any{"objects": -4, "bytes_per_object": nil, "rel_error": nil, "sampled": nil})
				if e := row(t, doc, "main.grew")["rel_error"]; e == nil {
					t.Errorf("main.grew: rel_error null, want an estimate (positive count, sampled profile)")
				}
			}},
		{name: "not delta", args: []string{"--format", "json", heapProfiles + "before.pb.gz"}, code: exitOK, noStderr: true,
			check: func(t *testing.T, doc map[string]any) {
				wantFields(t, "profile", doc["profile"].(map[string]any), map[string]any{"delta": false})
			}},
		{name: "period 0", args: []string{"--format", "json", period0}, code: exitOK,
			check: func(t *testing.T, doc map[string]any) {
				wantFields(t, "main.f", row(t, doc, "main.f"), map[string]any{"rel_error": nil, "sampled": nil, "bytes_per_object": 32})
				wantFields(t, "profile", doc["profile"].(map[string]any), map[string]any{"exact": false})
			}},
		{name: "not the Go runtime", args: []string{"--format", "json", notGo}, code: exitOK,
			check: func(t *testing.T, doc map[string]any) {
				wantFields(t, "main.f", row(t, doc, "main.f"), map[string]any{"rel_error": nil, "sampled": nil})
				wantFields(t, "profile", doc["profile"].(map[string]any), map[string]any{"exact": false})
			}},
		{name: "focus on a file name", args: []string{"--format", "json", "--focus", `heapgen/scenario/scenario\.go$`, heapProfiles + "before.pb.gz"}, code: exitOK,
			check: func(t *testing.T, doc map[string]any) {
				wantFields(t, small, row(t, doc, small), map[string]any{"objects": scenario.SmallObjects})
			}},
		{name: "ignore a file name", args: []string{"--format", "json", "--ignore", `heapgen/scenario/scenario\.go$`, heapProfiles + "before.pb.gz"}, code: exitOK,
			check: func(t *testing.T, doc map[string]any) {
				for _, r := range doc["rows"].([]any) {
					if k := r.(map[string]any)["key"].(string); strings.Contains(k, "heapgen/scenario.") {
						t.Errorf("row %s kept, want every sample with a frame in scenario.go ignored", k)
					}
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.stdin != "" {
				f, err := os.Open(tt.stdin)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				old := heapscanStdin
				heapscanStdin = f
				defer func() { heapscanStdin = old }()
			}
			code, stdout, stderr := runCLI(t, append([]string{"heapscan"}, tt.args...)...)
			if code != tt.code {
				t.Fatalf("got exit %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
			checkContains(t, "stderr", stderr, tt.stderr)
			if tt.noStderr && stderr != "" {
				t.Errorf("got stderr %q, want none", stderr)
			}
			if tt.stdoutHave != "" && !strings.Contains(stdout, tt.stdoutHave) {
				t.Errorf("stdout lacks %q:\n%s", tt.stdoutHave, stdout)
			}
			if tt.check != nil {
				var doc map[string]any
				if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
					t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
				}
				if doc["schema"] != heapscan.Schema {
					t.Errorf("got schema %v, want %s", doc["schema"], heapscan.Schema)
				}
				tt.check(t, doc)
			}
		})
	}
}
