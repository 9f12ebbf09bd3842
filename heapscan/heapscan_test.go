package heapscan_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/memprof/memprof/fixtures/heapgen/scenario"
	"github.com/memprof/memprof/heapscan"
)

const profilesDir = "../fixtures/profiles"

func fixture(name string) string { return filepath.Join(profilesDir, name) }

// readers are the two ways heapscan reads a profile; every test that
// reads a fixture runs with both.
var readers = []struct {
	name string
	opts heapscan.ReadOptions
}{
	{"stream", heapscan.ReadOptions{}},
	{"model", heapscan.ReadOptions{Model: true}},
}

func mustSummarize(t *testing.T, path string, ro heapscan.ReadOptions, opts heapscan.Options) *heapscan.Summary {
	t.Helper()
	h, err := heapscan.ReadFile(path, ro)
	if err != nil {
		t.Fatal(err)
	}
	s, err := h.Summarize(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func rowByKey(s *heapscan.Summary, key string) *heapscan.Row {
	for i := range s.Rows {
		if s.Rows[i].Key == key {
			return &s.Rows[i]
		}
	}
	return nil
}

// truth sums a scenario's keeps by the key function gives each keep.
type truthRow struct {
	objects, bytes int64
	sizes          []int64
}

func truth(s scenario.Scenario, key func(scenario.Keep) string) map[string]*truthRow {
	m := map[string]*truthRow{}
	for _, k := range s.Keeps {
		t := m[key(k)]
		if t == nil {
			t = &truthRow{}
			m[key(k)] = t
		}
		t.objects += int64(k.Objects)
		t.bytes += int64(k.Objects) * int64(k.Size)
		if !containsInt(t.sizes, int64(k.Size)) {
			t.sizes = append(t.sizes, int64(k.Size))
		}
	}
	for _, t := range m {
		sortInts(t.sizes)
	}
	return m
}

func containsInt(s []int64, v int64) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func sortInts(s []int64) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func checkRow(t *testing.T, s *heapscan.Summary, key string, want *truthRow) {
	t.Helper()
	r := rowByKey(s, key)
	if r == nil {
		t.Errorf("row %s: missing", key)
		return
	}
	if r.Objects != want.objects || r.Bytes != want.bytes {
		t.Errorf("row %s: got %d objects, %d bytes; want %d, %d", key, r.Objects, r.Bytes, want.objects, want.bytes)
	}
	if !reflect.DeepEqual(r.Sizes, want.sizes) {
		t.Errorf("row %s: got sizes %v, want %v", key, r.Sizes, want.sizes)
	}
	if s.Exact() && (r.Sampled != r.Objects || r.RelError != 0 || r.LowSamples) {
		t.Errorf("row %s of an exact profile: got sampled %d, rel error %g, low %v; want %d, 0, false", key, r.Sampled, r.RelError, r.LowSamples, r.Objects)
	}
}

// TestExactFixtures checks every exact fixture against the scenario that
// made it, grouped by function and by site, with both readers.
func TestExactFixtures(t *testing.T) {
	for _, sc := range scenario.Scenarios {
		if sc.Rate != scenario.ExactRate {
			continue
		}
		for _, rd := range readers {
			t.Run(sc.Name+"/"+rd.name, func(t *testing.T) {
				s := mustSummarize(t, fixture(sc.Name+".pb.gz"), rd.opts, heapscan.Options{})
				if s.Period != int64(sc.Rate) || !s.Exact() {
					t.Fatalf("got period %d, exact %v; want %d, true", s.Period, s.Exact(), sc.Rate)
				}
				for key, want := range truth(sc, scenario.Keep.Allocator) {
					checkRow(t, s, key, want)
				}
				var sum int64
				for _, r := range s.Rows {
					sum += r.Bytes
				}
				if sum != s.TotalBytes {
					t.Errorf("rows sum to %d bytes, total is %d", sum, s.TotalBytes)
				}
			})
		}
	}
}

// TestSiteGrouping checks that KeepMixed's two allocation sites are two
// rows with one size each.
func TestSiteGrouping(t *testing.T) {
	sc, _ := scenario.Lookup("before")
	for _, rd := range readers {
		t.Run(rd.name, func(t *testing.T) {
			s := mustSummarize(t, fixture("before.pb.gz"), rd.opts, heapscan.Options{GroupBy: "site"})
			mixed := scenario.FuncName(scenario.KeepMixed)
			var got []heapscan.Row
			for _, r := range s.Rows {
				if r.Function == mixed {
					got = append(got, r)
				}
			}
			if len(got) != 2 {
				t.Fatalf("got %d sites of %s, want 2", len(got), mixed)
			}
			for _, r := range got {
				if !strings.HasPrefix(r.Key, mixed+" ") || r.Line <= 0 || !strings.HasSuffix(r.File, ".go") {
					t.Errorf("site key %q, file %q, line %d: want function, file and line", r.Key, r.File, r.Line)
				}
				if len(r.Sizes) != 1 || r.Objects != scenario.MixedObjects || r.Bytes != r.Sizes[0]*scenario.MixedObjects {
					t.Errorf("site %s: got %d objects, %d bytes, sizes %v; want %d objects of one size", r.Key, r.Objects, r.Bytes, r.Sizes, scenario.MixedObjects)
				}
			}
			_ = sc
		})
	}
}

// agreementOptions are the summaries the readers must agree on: every
// sample kind and grouping, and filters by function and by file name.
func agreementOptions(t *testing.T) []heapscan.Options {
	t.Helper()
	rules, err := heapscan.ReadRules("../fixtures/heapgen/heapgen.rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var optsList []heapscan.Options
	for _, sample := range heapscan.Samples {
		for _, g := range heapscan.Groupings {
			optsList = append(optsList, heapscan.Options{Sample: sample, GroupBy: g, Rules: rules})
		}
	}
	return append(optsList,
		heapscan.Options{Focus: regexp.MustCompile(`scenario\.Keep`), Ignore: regexp.MustCompile(`KeepMixedB`)},
		heapscan.Options{Focus: regexp.MustCompile(`scenario/scenario\.go$`), Ignore: regexp.MustCompile(`^/usr/`), GroupBy: "site"},
		heapscan.Options{FocusFunction: scenario.FuncName(scenario.NewSignature), GroupBy: "site"},
	)
}

// checkReadersAgree checks that the streaming reader and the pprof model
// reader give identical summaries of data for every option, and, with
// withPprof, that Summarize on pprof's own parse (profile.ParseData)
// does too. It returns the number of summaries compared with rows.
func checkReadersAgree(t *testing.T, name string, data []byte, withPprof bool) int {
	t.Helper()
	stream, err1 := heapscan.Read(bytes.NewReader(data), heapscan.ReadOptions{})
	model, err2 := heapscan.Read(bytes.NewReader(data), heapscan.ReadOptions{Model: true})
	if err1 != nil || err2 != nil {
		t.Fatalf("%s: stream error %v, model error %v", name, err1, err2)
	}
	var p *profile.Profile
	if withPprof {
		var err error
		if p, err = profile.ParseData(data); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	var valid []heapscan.Options
	var single []*heapscan.Summary
	for _, o := range agreementOptions(t) {
		a, errA := stream.Summarize(o)
		b, errB := model.Summarize(o)
		if (errA == nil) != (errB == nil) {
			t.Fatalf("%s %+v: stream error %v, model error %v", name, o, errA, errB)
		}
		if errA != nil {
			continue // e.g. alloc of an inuse-only profile: both refuse
		}
		valid, single = append(valid, o), append(single, a)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s %+v: readers disagree:\nstream %+v\nmodel  %+v", name, o, a, b)
		}
		if p != nil {
			c, err := heapscan.Summarize(p, o)
			if err != nil {
				t.Fatal(err)
			}
			// pprof's own model skips a text profile's symbol comments,
			// and so does not note their absence.
			cn := *c
			cn.Notes = a.Notes
			if !reflect.DeepEqual(a, &cn) {
				t.Errorf("%s %+v: stream reader and pprof disagree:\nstream %+v\npprof  %+v", name, o, a, c)
			}
		}
		if len(a.Rows) > 0 {
			n++
		}
	}
	checkOnePass(t, name, stream, valid, single)
	return n
}

// checkOnePass checks that SummarizeEach of h with opts, one pass over
// the samples, gives each summary of want, made one by one with
// Summarize.
func checkOnePass(t *testing.T, name string, h *heapscan.Heap, opts []heapscan.Options, want []*heapscan.Summary) {
	t.Helper()
	if len(opts) == 0 {
		return
	}
	got, err := h.SummarizeEach(opts...)
	if err != nil {
		t.Fatalf("%s: SummarizeEach of %d options: %v", name, len(opts), err)
	}
	if len(got) != len(want) {
		t.Fatalf("%s: SummarizeEach: got %d summaries, want %d", name, len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("%s %+v: one pass and Summarize disagree:\none pass  %+v\nSummarize %+v", name, opts[i], got[i], want[i])
		}
	}
}

// TestSummarizeEachRefuses checks that SummarizeEach refuses what
// Summarize refuses, naming the option at fault, and refuses no options
// at all.
func TestSummarizeEachRefuses(t *testing.T) {
	h, err := heapscan.ReadFile(fixture("before.pb.gz"), heapscan.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	inuseOnly, err := heapscan.Read(bytes.NewReader(pprofBytes(t, builtProfile([]string{"inuse_space"}, "space/bytes", 1, 0, []int64{64}))), heapscan.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ok := heapscan.Options{GroupBy: "site"}
	tests := []struct {
		name string
		h    *heapscan.Heap
		opts []heapscan.Options
		want string
	}{
		{"no options", h, nil, "summarizing: no options given"},
		{"bad sample second", h, []heapscan.Options{ok, {Sample: "freed"}}, `summary 2 of 2: sample "freed" must be one of: inuse, alloc`},
		{"bad grouping first", h, []heapscan.Options{{GroupBy: "line"}, ok}, `summary 1 of 2: group-by "line" must be one of: function, site, stack, rule`},
		{"rule without rules", h, []heapscan.Options{ok, ok, {GroupBy: "rule"}}, "summary 3 of 3: group-by rule needs rules"},
		{"alloc of an inuse-only profile", inuseOnly, []heapscan.Options{ok, {Sample: "alloc"}}, "summary 2 of 2: not a heap profile: want sample type alloc_space"},
		{"one bad option reads as Summarize", h, []heapscan.Options{{Sample: "freed"}}, `sample "freed" must be one of: inuse, alloc`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.h.SummarizeEach(tt.opts...)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("got %d summaries, error %v; want an error starting %q", len(got), err, tt.want)
			}
			if got != nil {
				t.Errorf("got %d summaries beside the error, want none", len(got))
			}
		})
	}
}

// TestReadersAgree checks that the streaming reader and the pprof model
// give identical summaries of every fixture, for every option, and that
// the compressed and plain forms of a profile read the same.
func TestReadersAgree(t *testing.T) {
	files, err := filepath.Glob(fixture("*"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, file := range files {
		if strings.HasPrefix(filepath.Base(file), "cpu.") {
			continue
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if checkReadersAgree(t, file, data, true) == 0 {
			t.Errorf("%s: no summary with rows", file)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no fixture compared")
	}
	// The plain protobuf is the gzip file decompressed.
	for _, rd := range readers {
		gz := mustSummarize(t, fixture("before.pb.gz"), rd.opts, heapscan.Options{GroupBy: "stack"})
		plain := mustSummarize(t, fixture("before.pb"), rd.opts, heapscan.Options{GroupBy: "stack"})
		if !reflect.DeepEqual(gz, plain) {
			t.Errorf("%s: before.pb.gz and before.pb differ", rd.name)
		}
	}
}

// TestRules checks rule grouping: the two constructors that share an
// allocating helper come out apart, by the rule matching a caller frame.
func TestRules(t *testing.T) {
	rules, err := heapscan.ReadRules("../fixtures/heapgen/heapgen.rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	byRule := func(k scenario.Keep) string {
		switch k.Name() {
		case scenario.FuncName(scenario.NewPublicKey):
			return "PublicKey"
		case scenario.FuncName(scenario.NewSignature):
			return "Signature"
		case scenario.FuncName(scenario.KeepMixedA), scenario.FuncName(scenario.KeepMixedB):
			return "Mixed"
		}
		return ""
	}
	for _, name := range []string{"before", "after"} {
		sc, _ := scenario.Lookup(name)
		for _, rd := range readers {
			t.Run(name+"/"+rd.name, func(t *testing.T) {
				s := mustSummarize(t, fixture(name+".pb.gz"), rd.opts, heapscan.Options{GroupBy: "rule", Rules: rules})
				want := truth(sc, byRule)
				unmatched := want[""]
				delete(want, "")
				for key, w := range want {
					checkRow(t, s, key, w)
				}
				if r := rowByKey(s, heapscan.UnmatchedKey); r == nil || r.Objects < unmatched.objects {
					t.Errorf("unmatched row %+v: want at least the %d objects of the unmatched keeps", r, unmatched.objects)
				}
				if len(s.Rows) != len(want)+1 {
					t.Errorf("got %d rows, want %d rules plus unmatched", len(s.Rows), len(want))
				}
			})
		}
	}
}

func TestParseRulesErrors(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"empty", "", "no rules"},
		{"list", "- a\n- b\n", "rules.yaml:1: rules must be a mapping"},
		{"bad regexp", "A: 'x'\nB: '(['\n", "rules.yaml:2: rule B: error parsing regexp"},
		{"duplicate", "A: x\nA: y\n", "rules.yaml:2: rule A already defined at line 1"},
		{"empty list", "A: []\n", "rule A has no patterns"},
		{"mapping value", "A: {b: c}\n", "rule A: want a pattern or a list of patterns"},
		{"bad yaml", "A: 'x\n", "rules.yaml: yaml:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := heapscan.ParseRules("rules.yaml", []byte(tt.yaml))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestDiff checks the diff of the before and after fixtures against the
// scenarios' constants.
func TestDiff(t *testing.T) {
	before, _ := scenario.Lookup("before")
	after, _ := scenario.Lookup("after")
	tb := truth(before, scenario.Keep.Allocator)
	ta := truth(after, scenario.Keep.Allocator)
	for _, rd := range readers {
		t.Run(rd.name, func(t *testing.T) {
			b := mustSummarize(t, fixture("before.pb.gz"), rd.opts, heapscan.Options{})
			a := mustSummarize(t, fixture("after.pb.gz"), rd.opts, heapscan.Options{})
			d, err := heapscan.Diff(b, a)
			if err != nil {
				t.Fatal(err)
			}
			keys := map[string]bool{}
			for k := range tb {
				keys[k] = true
			}
			for k := range ta {
				keys[k] = true
			}
			for k := range keys {
				r := rowByKey(d, k)
				if r == nil {
					t.Errorf("row %s missing", k)
					continue
				}
				var wantNow, wantBase truthRow
				if x := ta[k]; x != nil {
					wantNow = *x
				}
				if x := tb[k]; x != nil {
					wantBase = *x
				}
				if r.Objects != wantNow.objects || r.Bytes != wantNow.bytes || r.BaseObjects != wantBase.objects || r.BaseBytes != wantBase.bytes {
					t.Errorf("row %s: got %d/%d B, base %d/%d B; want %d/%d B, base %d/%d B", k,
						r.Objects, r.Bytes, r.BaseObjects, r.BaseBytes, wantNow.objects, wantNow.bytes, wantBase.objects, wantBase.bytes)
				}
				wantStatus := ""
				switch {
				case tb[k] == nil:
					wantStatus = "new"
				case ta[k] == nil:
					wantStatus = "vanished"
				}
				if r.Status != wantStatus {
					t.Errorf("row %s: got status %q, want %q", k, r.Status, wantStatus)
				}
			}
			for i := 1; i < len(d.Rows); i++ {
				x, y := d.Rows[i-1].DeltaBytes(), d.Rows[i].DeltaBytes()
				if max(x, -x) < max(y, -y) {
					t.Errorf("rows %d and %d not sorted by absolute change: %d before %d", i-1, i, x, y)
				}
			}
		})
	}
}

// TestSampledFixture checks the sampling honesty of the sampled fixture:
// the figures are within four estimated standard errors of the truth, and
// rows are flagged exactly when they have too few sampled objects.
func TestSampledFixture(t *testing.T) {
	sc, _ := scenario.Lookup("sampled")
	for _, rd := range readers {
		t.Run(rd.name, func(t *testing.T) {
			s := mustSummarize(t, fixture("sampled.pb.gz"), rd.opts, heapscan.Options{})
			if s.Period != int64(scenario.SampledRate) || s.Exact() {
				t.Fatalf("got period %d, exact %v; want %d, false", s.Period, s.Exact(), scenario.SampledRate)
			}
			for _, r := range s.Rows {
				if r.Sampled <= 0 || r.Sampled > r.Objects {
					t.Errorf("row %s: sampled %d of %d objects", r.Key, r.Sampled, r.Objects)
				}
				if want := 1 / math.Sqrt(float64(r.Sampled)); math.Abs(r.RelError-want) > 1e-12 {
					t.Errorf("row %s: rel error %g, want %g", r.Key, r.RelError, want)
				}
				if r.LowSamples != (r.Sampled < heapscan.MinSampled) {
					t.Errorf("row %s: low samples %v with %d sampled", r.Key, r.LowSamples, r.Sampled)
				}
			}
			checked := 0
			for key, want := range truth(sc, scenario.Keep.Allocator) {
				r := rowByKey(s, key)
				if r == nil || r.LowSamples {
					continue
				}
				checked++
				if dev := math.Abs(float64(r.Objects-want.objects)) / float64(want.objects); dev > 4*r.RelError {
					t.Errorf("row %s: %d objects, truth %d: off by %.1f%%, more than 4×%.1f%%", key, r.Objects, want.objects, 100*dev, 100*r.RelError)
				}
			}
			if checked == 0 {
				t.Error("no row of the sampled fixture had enough samples to check")
			}
		})
	}
}

// TestLegacyText checks the legacy text fixture: it is unsymbolized, so
// stacks are addresses, but every keep is a stack with its exact counts.
func TestLegacyText(t *testing.T) {
	sc, _ := scenario.Lookup("before")
	s := mustSummarize(t, fixture("before.heap.txt"), heapscan.ReadOptions{}, heapscan.Options{GroupBy: "stack"})
	if !s.Exact() {
		t.Errorf("got period %d, want exact", s.Period)
	}
	for _, k := range sc.Keeps {
		found := false
		for _, r := range s.Rows {
			if r.Objects == int64(k.Objects) && r.Bytes == int64(k.Objects*k.Size) && reflect.DeepEqual(r.Sizes, []int64{int64(k.Size)}) {
				found = true
			}
		}
		if !found {
			t.Errorf("no stack with %d objects of %d bytes (%s)", k.Objects, k.Size, k.Name())
		}
	}
}

// bomb returns a profile.proto prefix that announces a string of n bytes
// and carries them: a reader must stop at its size limit.
func bomb(n int) []byte {
	b := protowire.AppendTag(nil, 6, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(n))
	return append(b, make([]byte, n)...)
}

func gzipBytes(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestReadErrors checks every kind of bad input: each must fail, naming
// the file and what is wrong.
func TestReadErrors(t *testing.T) {
	gz, err := os.ReadFile(fixture("before.pb.gz"))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := os.ReadFile(fixture("before.pb"))
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(fixture("before.heap.txt"))
	if err != nil {
		t.Fatal(err)
	}
	corruptGzip := bytes.Clone(gz)
	for i := len(gz) / 3; i < len(gz)/3+16; i++ {
		corruptGzip[i] ^= 0xa5
	}
	corruptPlain := bytes.Clone(plain)
	for i := 10; i < len(plain); i += 7 {
		corruptPlain[i] = 0xff
	}
	tests := []struct {
		name     string
		data     []byte
		maxBytes int64
		want     string // a regexp
		tooLarge bool
	}{
		{"empty", nil, 0, "not a profile: the file is empty", false},
		{"truncated gzip", gz[:len(gz)/2], 0, "truncated profile", false},
		{"truncated plain", plain[:len(plain)-5], 0, "truncated profile|malformed profile", false},
		{"corrupt gzip", corruptGzip, 0, "corrupt gzip data", false},
		{"corrupt plain", corruptPlain, 0, "malformed profile", false},
		{"text", []byte("hello, this is not a profile\n"), 0, "not a profile", false},
		{"gzipped text", gzipBytes(t, []byte("hello\n")), 0, "not a profile", false},
		{"binary", []byte{0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d}, 0, "malformed profile", false},
		{"gzip header only", gz[:10], 0, "truncated profile", false},
		{"gzip bomb", gzipBytes(t, bomb(4<<20)), 1 << 20, "field 6 at byte 0 claims 4194304 bytes, which exceeds the limit of 1048576 bytes", true},
		{"gzipped zeros", gzipBytes(t, make([]byte, 4<<20)), 8 << 20, "malformed profile", false},
		{"plain over limit", plain, int64(len(plain) / 2), "exceeds the limit", true},
		{"text over limit", text, int64(len(text) / 2), "exceeds the limit", true},
		{"gzipped text over limit", gzipBytes(t, text), int64(len(text) / 2), "exceeds the limit", true},
		{"text, bad line", append(bytes.Clone(text[:bytes.IndexByte(text, '\n')+1]), "1: 2 [3: 4] @ 0x1\nbad line\n"...), 0, "malformed profile", false},
		{"text, long line", append(bytes.Clone(text[:bytes.IndexByte(text, '\n')+1]), bytes.Repeat([]byte("x"), 70000)...), 0, "malformed profile|too long", false},
		{"goroutine profile", []byte("goroutine profile: total 1\n1 @ 0x1 0x2\n"), 0, "not a heap profile", false},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_"))
			if err := os.WriteFile(path, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, rd := range readers {
				ro := rd.opts
				ro.MaxBytes = tt.maxBytes
				_, err := heapscan.ReadFile(path, ro)
				if err == nil {
					t.Fatalf("%s: got no error, want %q", rd.name, tt.want)
				}
				if !strings.Contains(err.Error(), path) || !regexp.MustCompile(tt.want).MatchString(err.Error()) {
					t.Errorf("%s: got %q, want the file name and %q", rd.name, err, tt.want)
				}
				if errors.Is(err, heapscan.ErrTooLarge) != tt.tooLarge {
					t.Errorf("%s: errors.Is(err, ErrTooLarge) = %v, want %v", rd.name, !tt.tooLarge, tt.tooLarge)
				}
			}
		})
	}
	t.Run("cpu profile", func(t *testing.T) {
		for _, rd := range readers {
			_, err := heapscan.ReadFile(fixture("cpu.pb.gz"), rd.opts)
			if err == nil || !strings.Contains(err.Error(), "cpu.pb.gz: not a heap profile") || !strings.Contains(err.Error(), "cpu/nanoseconds") {
				t.Errorf("%s: got %v, want not a heap profile naming its sample types", rd.name, err)
			}
		}
	})
	t.Run("missing file", func(t *testing.T) {
		_, err := heapscan.ReadFile(filepath.Join(dir, "nope.pb.gz"), heapscan.ReadOptions{})
		if err == nil || !strings.Contains(err.Error(), "nope.pb.gz") {
			t.Errorf("got %v, want an error naming the file", err)
		}
	})
}

// TestFetch reads the fixture from a live heap endpoint on loopback.
func TestFetch(t *testing.T) {
	data, err := os.ReadFile(fixture("before.pb.gz"))
	if err != nil {
		t.Fatal(err)
	}
	var gotQuery string
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/heap", func(w http.ResponseWriter, r *http.Request) {
		gotQuery = r.URL.RawQuery
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(data)
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Write(bomb(64 << 10))
	})
	mux.HandleFunc("/slow-body", func(w http.ResponseWriter, r *http.Request) {
		w.Write(data[:len(data)/2]) // half the profile, then a stall
		w.(http.Flusher).Flush()
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/cut-body", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		w.Write(data[:len(data)/2]) // and the handler ends: the connection is cut
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	ctx := context.Background()

	h, err := heapscan.Open(ctx, srv.URL+"/debug/pprof/heap?seconds=0", heapscan.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if gotQuery != "gc=1&seconds=0" {
		t.Errorf("got query %q, want gc=1 added", gotQuery)
	}
	got, err := h.Summarize(heapscan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := mustSummarize(t, fixture("before.pb.gz"), heapscan.ReadOptions{}, heapscan.Options{})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("profile read by URL differs from the file")
	}

	errTests := []struct {
		name, path string
		ro         heapscan.ReadOptions
		want       string
		fetch      bool // a failure to fetch (ErrFetch), not a bad profile
	}{
		{"not found", "/nothing", heapscan.ReadOptions{}, "404 Not Found", true},
		{"timeout", "/slow", heapscan.ReadOptions{Timeout: 100 * time.Millisecond}, "/slow: timed out after 100ms waiting for the server's answer", true},
		{"body too slow", "/slow-body", heapscan.ReadOptions{Timeout: 300 * time.Millisecond}, "/slow-body: timed out after 300ms, " + strconv.Itoa(len(data)/2) + " bytes of the profile received", true},
		{"body cut", "/cut-body", heapscan.ReadOptions{}, "the body did not arrive whole (unexpected EOF): truncated profile", true},
		{"too large", "/big", heapscan.ReadOptions{MaxBytes: 1 << 10}, "exceeds the limit of 1024 bytes", false},
	}
	for _, tt := range errTests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := heapscan.Open(ctx, srv.URL+tt.path, tt.ro)
			if err == nil || !strings.Contains(err.Error(), srv.URL+tt.path) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error naming the URL and %q", err, tt.want)
			}
			if timedOut := tt.ro.Timeout > 0; errors.Is(err, context.DeadlineExceeded) != timedOut {
				t.Errorf("errors.Is(err, context.DeadlineExceeded) is %v, want %v: %v", !timedOut, timedOut, err)
			}
			if errors.Is(err, heapscan.ErrFetch) != tt.fetch {
				t.Errorf("errors.Is(err, ErrFetch) is %v, want %v: %v", !tt.fetch, tt.fetch, err)
			}
		})
	}
}

// TestTop checks that Top keeps the largest rows and counts the rest.
func TestTop(t *testing.T) {
	s := mustSummarize(t, fixture("before.pb.gz"), heapscan.ReadOptions{}, heapscan.Options{})
	all := append([]heapscan.Row(nil), s.Rows...)
	s.Top(2)
	if len(s.Rows) != 2 || s.OmittedRows != len(all)-2 {
		t.Fatalf("got %d rows, %d omitted; want 2, %d", len(s.Rows), s.OmittedRows, len(all)-2)
	}
	var omitted int64
	for _, r := range all[2:] {
		omitted += r.Bytes
	}
	if s.OmittedBytes != omitted || s.Rows[0].Key != all[0].Key {
		t.Errorf("got omitted %d B, first %s; want %d B, %s", s.OmittedBytes, s.Rows[0].Key, omitted, all[0].Key)
	}
}

// oneStackHeap returns a heap profile with one sample of one 64-byte
// object whose stack is the given frames, leaf first.
func oneStackHeap(t *testing.T, frames ...string) *heapscan.Heap {
	t.Helper()
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "inuse_objects", Unit: "count"}, {Type: "inuse_space", Unit: "bytes"}},
		PeriodType: &profile.ValueType{Type: "space", Unit: "bytes"},
		Period:     1,
	}
	s := &profile.Sample{Value: []int64{1, 64}, NumLabel: map[string][]int64{"bytes": {64}}}
	for i, name := range frames {
		f := &profile.Function{ID: uint64(i + 1), Name: name}
		l := &profile.Location{ID: uint64(i + 1), Line: []profile.Line{{Function: f, Line: 1}}}
		p.Function = append(p.Function, f)
		p.Location = append(p.Location, l)
		s.Location = append(s.Location, l)
	}
	p.Sample = []*profile.Sample{s}
	h, err := heapscan.FromProfile(p)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestBombMemory reads a gzip stream that inflates to 64 times the limit
// (concatenated gzip members, each mostly zeros, the first announcing one
// huge string) and checks that reading stops at the limit having
// allocated memory in proportion to the limit, not to the bomb.
func TestBombMemory(t *testing.T) {
	const limit = 8 << 20
	const member = 16 << 20
	first := gzipBytes(t, bomb(member-16))
	zeros := gzipBytes(t, make([]byte, member))
	data := append([]byte(nil), first...)
	for range 64*limit/member - 1 {
		data = append(data, zeros...)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := heapscan.Read(bytes.NewReader(data), heapscan.ReadOptions{MaxBytes: limit})
	runtime.ReadMemStats(&after)
	if !errors.Is(err, heapscan.ErrTooLarge) {
		t.Fatalf("got %v, want ErrTooLarge", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 3*limit {
		t.Errorf("reading the bomb allocated %d bytes, more than 3× the %d-byte limit", got, limit)
	}
}

// TestGzipInlineAndPrefetch checks that a gzip profile reads the same
// whether it is inflated inline (its gzip trailer, readable because the
// input can seek, says it fits in one chunk) or in the second goroutine
// (a plain reader tells no size): the same summary, or the same error.
func TestGzipInlineAndPrefetch(t *testing.T) {
	files := []string{fixture("before.pb.gz"), fixture("sampled.pb.gz"), "../fixtures/fuzz/truncated.pb.gz"}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			summarize := func(r io.Reader) (*heapscan.Summary, error) {
				h, err := heapscan.Read(r, heapscan.ReadOptions{})
				if err != nil {
					return nil, err
				}
				return h.Summarize(heapscan.Options{GroupBy: "stack"})
			}
			inline, errInline := summarize(bytes.NewReader(data))
			prefetched, errPrefetched := summarize(struct{ io.Reader }{bytes.NewReader(data)})
			if fmt.Sprint(errInline) != fmt.Sprint(errPrefetched) {
				t.Fatalf("got error %v inline, %v prefetched; want the same", errInline, errPrefetched)
			}
			if !reflect.DeepEqual(inline, prefetched) {
				t.Errorf("inline and prefetched summaries differ:\ninline     %+v\nprefetched %+v", inline, prefetched)
			}
		})
	}
}
