package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/memprof/memprof/fixtures/heapgen/scenario"
	"github.com/memprof/memprof/heapscan"
)

const heapProfiles = "../../fixtures/profiles/"

// TestHeapscanJSON checks the JSON document of the commands
// against the fixtures' known content.
func TestHeapscanJSON(t *testing.T) {
	small := scenario.FuncName(scenario.KeepSmall)
	code, stdout, stderr := runCLI(t, "heapscan", "--format", "json", heapProfiles+"before.pb.gz")
	if code != exitOK {
		t.Fatalf("got exit %d, stderr %s", code, stderr)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["schema"] != heapscan.Schema {
		t.Errorf("got schema %v, want %s", doc["schema"], heapscan.Schema)
	}
	prof := doc["profile"].(map[string]any)
	for _, k := range []string{"period", "sample", "total_bytes", "total_objects"} {
		if _, ok := prof[k]; !ok {
			t.Errorf("profile lacks %q: %v", k, prof)
		}
	}
	if prof["period"] != float64(scenario.ExactRate) || prof["sample"] != "inuse" {
		t.Errorf("got period %v, sample %v; want %d, inuse", prof["period"], prof["sample"], scenario.ExactRate)
	}
	var found bool
	for _, r := range doc["rows"].([]any) {
		row := r.(map[string]any)
		for _, k := range []string{"key", "objects", "bytes", "bytes_per_object", "sizes", "rel_error", "base_objects", "base_bytes"} {
			if _, ok := row[k]; !ok {
				t.Errorf("row lacks %q: %v", k, row)
			}
		}
		if row["base_objects"] != nil || row["base_bytes"] != nil {
			t.Errorf("row %v: base figures without --base, want null", row["key"])
		}
		if row["key"] == small {
			found = true
			if row["objects"] != float64(scenario.SmallObjects) || row["bytes"] != float64(scenario.SmallObjects*scenario.SmallSize) ||
				row["bytes_per_object"] != float64(scenario.SmallSize) || row["rel_error"] != float64(0) {
				t.Errorf("row %s: got %v", small, row)
			}
		}
	}
	if !found {
		t.Errorf("no row %s", small)
	}

	// The diff carries base figures and marks new and vanished rows.
	code, stdout, stderr = runCLI(t, "heapscan", "--format", "json", "--base", heapProfiles+"before.pb.gz", heapProfiles+"after.pb.gz")
	if code != exitOK {
		t.Fatalf("diff: got exit %d, stderr %s", code, stderr)
	}
	var diff heapscan.JSONDocument
	if err := json.Unmarshal([]byte(stdout), &diff); err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, r := range diff.Rows {
		if r.BaseObjects == nil || r.BaseBytes == nil {
			t.Errorf("diff row %s lacks base figures", r.Key)
		}
		status[r.Key] = r.Status
	}
	if status[scenario.FuncName(scenario.KeepNew)] != "new" || status[scenario.FuncName(scenario.KeepLarge)] != "vanished" || status[small] != "" {
		t.Errorf("got statuses %v; want KeepNew new, KeepLarge vanished, KeepSmall unmarked", status)
	}

	// --rules alone groups by rule; --instances divides.
	code, stdout, stderr = runCLI(t, "heapscan", "--format", "json", "--rules", "../../fixtures/heapgen/heapgen.rules.yaml", "--instances", "1000", heapProfiles+"before.pb.gz")
	if code != exitOK {
		t.Fatalf("rules: got exit %d, stderr %s", code, stderr)
	}
	var rules heapscan.JSONDocument
	if err := json.Unmarshal([]byte(stdout), &rules); err != nil {
		t.Fatal(err)
	}
	var pk *heapscan.JSONRow
	for i := range rules.Rows {
		if rules.Rows[i].Key == "PublicKey" {
			pk = &rules.Rows[i]
		}
	}
	if rules.Profile.GroupBy != "rule" || pk == nil || pk.Objects == nil || *pk.Objects != scenario.PublicKeys || pk.BytesPerInstance == nil ||
		*pk.BytesPerInstance != float64(scenario.PublicKeys*scenario.PublicKeySize)/1000 {
		t.Errorf("rules: got group-by %s, PublicKey row %+v", rules.Profile.GroupBy, pk)
	}
}

// TestHeapscanFormats checks that every format renders and -o writes the
// file.
func TestHeapscanFormats(t *testing.T) {
	want := map[string]string{
		"table":    "exact, every allocation recorded",
		"markdown": "| function",
		"csv":      "key,objects,bytes,bytes_per_object",
		"json":     `"schema": "memprof.heapscan/v1"`,
	}
	for f, w := range want {
		t.Run(f, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			data := runToFile(t, out, exitOK, "heapscan", "--format", f, "--top", "2", "-o", out, heapProfiles+"before.pb.gz")
			if !strings.Contains(string(data), w) {
				t.Errorf("output lacks %q:\n%s", w, data)
			}
		})
	}
}

// TestHeapscanURL reads the fixture from a heap endpoint on loopback.
func TestHeapscanURL(t *testing.T) {
	data, err := os.ReadFile(heapProfiles + "before.pb.gz")
	if err != nil {
		t.Fatal(err)
	}
	gc := ""
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gc = r.URL.Query().Get("gc")
		w.Write(data)
	}))
	defer srv.Close()
	code, stdout, stderr := runCLI(t, "heapscan", "--format", "csv", srv.URL+"/debug/pprof/heap")
	if code != exitOK || gc != "1" || !strings.Contains(stdout, scenario.FuncName(scenario.KeepSmall)) {
		t.Errorf("got exit %d, gc=%q, stdout %q, stderr %q", code, gc, stdout, stderr)
	}
}

// TestHeapscanExitCodes checks failures (1: the profile) and usage
// errors (2: the command line), and that messages name the file.
func TestHeapscanExitCodes(t *testing.T) {
	dir := t.TempDir()
	notProfile := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notProfile, []byte("just some notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	truncated := filepath.Join(dir, "truncated.pb.gz")
	data, err := os.ReadFile(heapProfiles + "before.pb.gz")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(truncated, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	// A rules file one byte over the limit (sparse: no disk used).
	bigRules := filepath.Join(dir, "big.rules.yaml")
	if f, err := os.Create(bigRules); err != nil {
		t.Fatal(err)
	} else if err := f.Truncate(heapscan.DefaultMaxRulesBytes + 1); err != nil {
		t.Fatal(err)
	} else {
		f.Close()
	}
	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"rules over the limit", []string{"--rules", bigRules, "x"}, exitUsage, []string{"big.rules.yaml", "larger than the limit of 67108864 bytes (64 MiB)"}},
		{"rules /dev/zero", []string{"--rules", "/dev/zero", "x"}, exitUsage, []string{"reading rules /dev/zero", "larger than the limit of 67108864 bytes (64 MiB)"}},
		{"cpu profile", []string{heapProfiles + "cpu.pb.gz"}, exitUsage, []string{"cpu.pb.gz", "not a heap profile"}},
		{"not a profile", []string{notProfile}, exitUsage, []string{"notes.txt", "not a profile"}},
		{"truncated", []string{truncated}, exitUsage, []string{"truncated.pb.gz", "truncated profile"}},
		{"missing", []string{filepath.Join(dir, "nope.pb.gz")}, exitUsage, []string{"nope.pb.gz"}},
		{"bad base", []string{"--base", heapProfiles + "cpu.pb.gz", heapProfiles + "after.pb.gz"}, exitUsage, []string{"cpu.pb.gz", "not a heap profile"}},
		{"over limit", []string{"--max-bytes", "1KiB", heapProfiles + "before.pb.gz"}, exitUsage, []string{"before.pb.gz", "exceeds the limit of 1024 bytes", "--max-bytes"}},
		{"no profile", nil, exitUsage, []string{"want one profile"}},
		{"two profiles", []string{"a", "b"}, exitUsage, []string{"want one profile"}},
		{"bad group", []string{"--group-by", "module", "x"}, exitUsage, []string{"function, site, stack, rule"}},
		{"rule without rules", []string{"--group-by", "rule", "x"}, exitUsage, []string{"--rules"}},
		{"bad sample", []string{"--sample", "peak", "x"}, exitUsage, []string{"inuse, alloc"}},
		{"bad format", []string{"--format", "xml", "x"}, exitUsage, []string{"format"}},
		{"bad focus", []string{"--focus", "(", "x"}, exitUsage, []string{"--focus"}},
		{"bad rules", []string{"--rules", notProfile, "x"}, exitUsage, []string{"notes.txt", "mapping"}},
		{"bad max-bytes", []string{"--max-bytes", "lots", "x"}, exitUsage, []string{"--max-bytes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runChecked(t, append([]string{"heapscan"}, tt.args...), tt.code, nil, tt.want)
		})
	}
}

// TestHeapscanReaders checks that --reader model prints what the default
// streaming reader prints, for every fixture heap profile.
func TestHeapscanReaders(t *testing.T) {
	files, err := filepath.Glob(heapProfiles + "*")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), "cpu.") {
			continue
		}
		_, stream, _ := runCLI(t, "heapscan", "--format", "csv", "--group-by", "site", f)
		_, model, _ := runCLI(t, "heapscan", "--format", "csv", "--group-by", "site", "--reader", "model", f)
		if stream == "" || stream != model {
			t.Errorf("%s: readers differ or print nothing:\nstream:\n%s\nmodel:\n%s", f, stream, model)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no fixture profile found")
	}
}

// TestHeapscanURLExitCodes: a profile the server would not give (or not
// in time, its body too slow) is a failure (1); one it gave that is not a
// heap profile is bad input (2).
func TestHeapscanURLExitCodes(t *testing.T) {
	t.Parallel() // changes no environment, directory or package variable; each case waits out its own timeout
	profile, err := os.ReadFile(heapProfiles + "before.pb.gz")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/down":
			http.Error(w, "maintenance", http.StatusServiceUnavailable)
		case "/garbage":
			w.Write([]byte("this is not a heap profile\n"))
		case "/slow-body":
			w.Write(profile[:len(profile)/2]) // half the profile, then nothing
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		case "/slow-header":
			w.Write(profile[:4]) // part of the gzip header, then nothing
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		case "/slow":
			<-r.Context().Done() // no answer at all
		}
	}))
	t.Cleanup(srv.Close) // after the parallel cases
	tests := []struct {
		name, path string
		code       int
		want       string
	}{
		{"server refuses", "/down", exitFailure, "server answered 503"},
		{"server sends garbage", "/garbage", exitUsage, "not a profile"},
		{"body too slow", "/slow-body", exitFailure, "/slow-body: timed out after 300ms, " + strconv.Itoa(len(profile)/2) + " bytes of the profile received"},
		{"gzip header too slow", "/slow-header", exitFailure, "/slow-header: timed out after 300ms, 4 bytes of the profile received\n"},
		{"no answer", "/slow", exitFailure, "/slow: timed out after 300ms waiting for the server's answer\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, _, stderr := runCLI(t, "heapscan", "--timeout", "300ms", srv.URL+tt.path)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("got exit %d, stderr %q; want %d and %q", code, stderr, tt.code, tt.want)
			}
			if strings.Contains(stderr, "gzip") {
				t.Errorf("got %q, want no gzip blamed for a timeout", stderr)
			}
		})
	}
}
