package main

import (
	"encoding/json"
	"flag"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/agree"
	secpagree "github.com/memprof/memprof/suites/agree/secp256k1"
	"github.com/memprof/memprof/vocab"
)

func TestThroughputUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string // substrings of stderr
	}{
		{"no type", []string{"throughput"}, []string{"--type is required", "PublicKey, Signature, G1, G2"}},
		{"type without ops", []string{"throughput", "--type", "SecretKey"}, []string{"SecretKey has no operations", "Signature"}},
		{"unknown type", []string{"throughput", "--type", "Bogus"}, []string{`unknown type "Bogus"`, "Signature"}},
		{"unknown op", []string{"throughput", "--type", "Signature", "--op", "verify,teleport"}, []string{`unknown op "teleport"`, vocab.Join(vocab.Ops)}},
		{"zero samples", []string{"throughput", "--type", "Signature", "--samples", "0"}, []string{"--samples must be at least 1, got 0"}},
		{"negative samples", []string{"throughput", "--type", "Signature", "--samples", "-3"}, []string{"--samples must be at least 1, got -3"}},
		{"zero min-sample", []string{"throughput", "--type", "Signature", "--min-sample", "0s"}, []string{"--min-sample must be a positive duration"}},
		{"negative min-sample", []string{"throughput", "--type", "Signature", "--min-sample", "-1ms"}, []string{"--min-sample must be a positive duration"}},
		{"bad format", []string{"throughput", "--type", "Signature", "--format", "xml"}, []string{`unknown format "xml"`, "table, json"}},
		{"nothing selected", []string{"throughput", "--type", "G2", "--op", "sign"}, []string{"no operation matches"}},
		{"instances bad op", []string{"instances", "--type", "Signature", "--with-throughput", "--op", "x"}, []string{`unknown op "x"`}},
		{"verify extra args", []string{"verify", "now"}, []string{"unexpected arguments"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkUsageError(t, tt.args, tt.want) })
	}
}

// realSuites runs the tests that go through the real suites' agreement
// checks and cases where go test's own form of them uses a registry of
// stubs or a committed file (.ci/run sets it).
var realSuites = flag.Bool("cli.real-suites", false, "run TestVerifyAllFamilies and TestSignatureOnOneScreen, which run every family's real agreement check and measure every Signature case through the CLI (.ci/run does; go test checks the same commands on stubs and fixtures)")

// TestVerifyAllFamilies runs memprof verify on the built-in suites: every
// family's real agreement check on its vectors (KZG's through a stand-in:
// suites/agree/kzg checks it, .ci/run's KZG step on every blob), each
// recorded with its cases and libraries. It runs with -cli.real-suites
// (.ci/run); go test checks verify's handling on TestVerifyCommand's stubs
// and each family's own package checks its agreement.
func TestVerifyAllFamilies(t *testing.T) {
	if !*realSuites {
		t.Skip("runs every family's real agreement check with -cli.real-suites (.ci/run); TestVerifyCommand checks verify on stub checks")
	}
	// The KZG part is checked for real in suites/agree/kzg (and by
	// .ci/run's memprof verify); here a stand-in of 8 blobs shows that
	// verify runs both parts and records both.
	replaceAgreement(t, vocab.KZG, func(*suites.Registry) (*agree.Report, error) {
		return &agree.Report{Cases: 8, Libs: []vocab.Lib{"ckzg", "gokzg"}}, nil
	})
	code, stdout, stderr := runCLI(t, "verify", "--format", "json")
	if code != exitOK {
		t.Fatalf("got exit %d, want 0; stderr %s", code, stderr)
	}
	rs, err := results.Read(strings.NewReader(stdout))
	if err != nil {
		t.Fatal(err)
	}
	want := []vocab.Lib{"circl", "gnark"}
	if rs.Env.Cgo {
		want = []vocab.Lib{"blst", "circl", "gnark"}
	}
	a := rs.Agreement
	if a == nil || !a.OK {
		t.Fatalf("got agreement %+v, want ok", a)
	}
	// One record per family: BLS12-381's 20 cases and EIP-2537 vectors, the
	// KZG stand-in's 8,
	// and the check of every other family the registry has.
	byFamily := map[vocab.Family]results.FamilyAgreement{}
	for _, f := range a.Families {
		byFamily[f.Family] = f
	}
	eip, err := agree.EIP2537Cases()
	if err != nil {
		t.Fatal(err)
	}
	if f := byFamily[vocab.BLS12381]; f.Cases != 20+eip || !f.OK || !slices.Equal(f.Libs, want) {
		t.Errorf("BLS12-381: got %+v, want 20 cases and the %d EIP-2537 vectors, ok, libs %v", f, eip, want)
	}
	if f := byFamily[vocab.BN254]; !slices.Equal(f.Libs, []vocab.Lib{"bn256-cloudflare", "bn256-gnark", "bn256-google", "gnark"}) { // the BN254 check runs for real
		t.Errorf("BN254: got %+v, want its four libraries", f)
	}
	if f := byFamily[vocab.KZG]; f.Cases != 8 || !f.OK {
		t.Errorf("KZG: got %+v, want the stand-in's 8 cases, ok", f)
	}
	sv, err := fixtures.LoadSecp256k1()
	if err != nil {
		t.Fatal(err)
	}
	if f, want := byFamily[vocab.Secp256k1], secpagree.Cases(sv); f.Cases != want { // the secp256k1 check runs for real
		t.Errorf("secp256k1: got %d cases, want %d", f.Cases, want)
	}
	for _, c := range registry().Checks() {
		if f, ok := byFamily[c.Family]; !ok || !f.OK || f.Cases == 0 || len(f.Libs) == 0 {
			t.Errorf("family %s: got %+v, want its check, ok, with cases and libraries", c.Family, f)
		}
	}
}

// TestThroughputJSON times the tiny registry's G1 operations for real
// (tiny samples) and checks the results file has the fields the issue
// fixes, the batch of a batch operation and the row of one a library does
// not offer. (Each library's package checks its own operations: blst's
// are all available with cgo, circl offers no batch conversion.)
func TestThroughputJSON(t *testing.T) {
	t.Parallel() // changes no environment, directory or package variable; profiles sites in children
	out := filepath.Join(t.TempDir(), "t.json")
	raw := runToFileWith(t, runTiny, out, exitOK, "throughput", "--type", "G1", "--op", "to-affine,to-affine-batch", "--samples", "3", "--min-sample", "2ms", "--format", "json", "-o", out)
	var generic struct {
		Throughput []map[string]any `json:"throughput"`
		Agreement  map[string]any   `json:"agreement"`
		Method     string           `json:"method"`
	}
	if err := json.Unmarshal(raw, &generic); err != nil {
		t.Fatal(err)
	}
	keys := []string{"type", "lib", "repr", "op", "batch", "samples", "ns_per_op_median", "ns_per_op_q1", "ns_per_op_q3", "cpu_ns_per_op_median", "bytes_per_op", "allocs_per_op", "path", "sites_calls"}
	if len(generic.Throughput) == 0 {
		t.Fatal("no throughput rows")
	}
	for _, row := range generic.Throughput {
		for _, k := range keys {
			if _, ok := row[k]; !ok {
				t.Errorf("row %v lacks %q", row, k)
			}
		}
	}
	for _, k := range []string{"cases", "libs", "ok"} {
		if _, ok := generic.Agreement[k]; !ok {
			t.Errorf("agreement %v lacks %q", generic.Agreement, k)
		}
	}
	if generic.Method != memprof.MethodText() {
		t.Errorf("got method %q, want memprof.MethodText()", generic.Method)
	}

	rs, err := results.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	timed := map[string]results.ThroughputRow{}
	for _, r := range rs.Throughput {
		if r.Error != "" {
			t.Errorf("%s %s: %s", r.Lib, r.Op, r.Error)
			continue
		}
		if r.Samples != 3 || len(r.SamplesNs) != 3 {
			t.Errorf("%s %s: got %d samples (%d kept), want 3", r.Lib, r.Op, r.Samples, len(r.SamplesNs))
		}
		if !(r.NsPerOpQ1 <= r.NsPerOpMedian && r.NsPerOpMedian <= r.NsPerOpQ3) || r.NsPerOpMedian <= 0 {
			t.Errorf("%s %s: got Q1 %v median %v Q3 %v, want 0 < Q1 <= median <= Q3", r.Lib, r.Op, r.NsPerOpQ1, r.NsPerOpMedian, r.NsPerOpQ3)
		}
		timed[string(r.Lib)+"/"+string(r.Op)] = r
	}
	if r, ok := timed["gnark/to-affine-batch"]; !ok || r.Batch != suites.OpBatchN {
		t.Errorf("gnark to-affine-batch: got %+v, want a row with batch %d", r, suites.OpBatchN)
	}
	notOffered := false
	for _, u := range rs.Unavailable {
		if u.Lib == "circl" && u.Op == "to-affine-batch" && strings.HasPrefix(u.Reason, "not offered by circl") {
			notOffered = true
		}
	}
	if !notOffered {
		t.Errorf("no \"not offered by circl\" row for to-affine-batch in %+v", rs.Unavailable)
	}
}

// TestDisagreementStopsBeforeFigures: a disagreement of the signatures'
// check or of the KZG one (issue 14) stops verify and the timing of the
// operations it covers, exit 1, naming the case (or blob), the object, the
// libraries and the first differing byte.
func TestDisagreementStopsBeforeFigures(t *testing.T) {
	// The checks before the disagreeing one agree (stand-ins: verify's
	// KZG case runs the BLS12-381 check first).
	standInAgreement(t, vocab.Blst, vocab.Gnark)
	tests := []struct {
		name  string
		check vocab.Family
		rep   *agree.Report
		d     *agree.Disagreement
		args  [][]string
		want  []string
	}{
		{"bls", vocab.BLS12381, &agree.Report{Cases: 20, Libs: []vocab.Lib{"blst", "gnark"}}, &agree.Disagreement{
			Case: "case-07", Check: "signature", Lib: "gnark", Against: "fixtures/vectors.json (made by blst)",
			Agreeing: []vocab.Lib{"blst"}, Got: []byte{1, 2, 3}, Want: []byte{1, 2, 4},
		}, [][]string{{"throughput", "--type", "G1", "--samples", "1", "--min-sample", "1ms"}, {"verify"}},
			[]string{"case case-07", "signature", "gnark differs", "blst agree", "010203", "010204", "first difference at byte 2"}},
		{"kzg", vocab.KZG, &agree.Report{Cases: 8, Libs: []vocab.Lib{"ckzg", "gokzg"}}, &agree.Disagreement{
			Case: "blob-3", Check: "commitment", Lib: "gokzg", Against: "fixtures/kzg-vectors.json (made by c-kzg)",
			Agreeing: []vocab.Lib{"ckzg"}, Got: []byte{0xa0, 1, 2, 7}, Want: []byte{0xa0, 1, 2, 3},
		}, [][]string{{"throughput", "--type", "Commitment", "--lib", "gokzg", "--samples", "1", "--min-sample", "1ms"}, {"verify"}},
			[]string{"case blob-3", "commitment", "gokzg differs", "ckzg agree", "a0010207", "a0010203", "first difference at byte 3"}},
	}
	for _, tt := range tests {
		for _, args := range tt.args {
			t.Run(tt.name+"/"+args[0], func(t *testing.T) {
				replaceAgreement(t, tt.check, func(*suites.Registry) (*agree.Report, error) { return tt.rep, tt.d })
				stdout, _ := runChecked(t, args, exitFailure, nil, tt.want)
				if stdout != "" {
					t.Errorf("got stdout %q, want nothing printed", stdout)
				}
			})
		}
	}
}

// TestInstancesWithThroughput: --with-throughput prints the agreement and
// the timings beside the bytes (the tiny registry's cases and operations,
// the agreement its stub's: what this checks is that instances prints
// them, which one case and its one operation show).
func TestInstancesWithThroughput(t *testing.T) {
	t.Parallel() // changes no environment, directory or package variable; measures in children
	code, stdout, stderr := runTiny(t, "instances", "--type", "Signature", "--lib", "gnark", "--repr", "affine", "-n", "200", "--with-throughput", "--samples", "1", "--min-sample", "1ms", "--op", "aggregate")
	if code != exitOK {
		t.Fatalf("got exit %d, want 0; stderr %s", code, stderr)
	}
	checkContains(t, "stdout", stdout, []string{"agreement:", "Signature: bytes per instance and median time per operation", "aggregate×" + strconv.Itoa(suites.OpAggregateN), "B/instance"})
}
