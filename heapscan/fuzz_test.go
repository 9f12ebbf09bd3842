package heapscan_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/memprof/memprof/heapscan"
)

// The fuzz targets' seed corpus lives in fixtures/: every fixture profile
// and every file of fixtures/fuzz (hand-made damaged inputs). They are
// added with f.Add, so "go test" runs them as ordinary tests; inputs the
// fuzzer finds failing are written, as Go does, to
// heapscan/testdata/fuzz/<FuzzName>/ and should be committed there.
func addSeeds(f *testing.F) {
	f.Helper()
	// Legacy text as debug=1 writes it (symbols, repeated stacks) and as
	// older or delta text has it (sampled, zero and negative lines).
	var text bytes.Buffer
	if err := writeLegacyText(&text, testRecords(), 2, true); err != nil {
		f.Fatal(err)
	}
	f.Add(text.Bytes())
	f.Add([]byte(sampledText))
	// Lines only pprof's expression parses (prefix, tabs, trailing text,
	// an address without its space), a memory map section, growthz.
	f.Add([]byte("heap profile: 4: 64 [9: 144] @ heap_v2/512\nx 1: 16 [2: 32] @ 0x1 0x2 trailing\n2:   32 [ 3: 48 ] @ 0x1x0x3\n1: 16 [4: 64] @\n--- Memory map: ---\n00400000-00401000 r-xp 00000000 00:00 0 /bin/x\n"))
	f.Add([]byte("heap profile: 1: 16 [1: 16] @ growthz\n1: 16 [1: 16] @ 0x10 0x20\n"))
	for _, pattern := range []string{"../fixtures/profiles/*", "../fixtures/fuzz/*"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
}

// fuzzLimit keeps the fuzzer's inputs from inflating far.
const fuzzLimit = 4 << 20

// checkHeap summarizes a heap that was read without error with every
// grouping and checks the invariants that hold for any profile.
func checkHeap(t *testing.T, h *heapscan.Heap) {
	t.Helper()
	var opts []heapscan.Options
	var single []*heapscan.Summary
	for _, sample := range heapscan.Samples {
		for _, g := range []string{"function", "site", "stack"} {
			o := heapscan.Options{Sample: sample, GroupBy: g}
			s, err := h.Summarize(o)
			if err != nil {
				continue // e.g. an inuse-only profile asked for alloc
			}
			opts, single = append(opts, o), append(single, s)
			var objects, bytes int64
			for _, r := range s.Rows {
				objects += r.Objects
				bytes += r.Bytes
				if r.Sampled < 0 || r.RelError < 0 {
					t.Fatalf("row %q: sampled %d, rel error %g", r.Key, r.Sampled, r.RelError)
				}
			}
			if objects != s.TotalObjects || bytes != s.TotalBytes {
				t.Fatalf("%s by %s: rows sum to %d objects, %d bytes; totals are %d, %d", sample, g, objects, bytes, s.TotalObjects, s.TotalBytes)
			}
		}
	}
	checkOnePass(t, "fuzz input", h, opts, single)
}

// FuzzRead feeds arbitrary bytes to Read, the entry point for files and
// URLs (gzip detection, the size limit, the streaming decoder, and the
// pprof model for text). It must never panic or exceed its limit, and
// whatever it accepts must summarize consistently.
func FuzzRead(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := heapscan.Read(bytes.NewReader(data), heapscan.ReadOptions{MaxBytes: fuzzLimit})
		if err != nil {
			return
		}
		checkHeap(t, h)
	})
}

// FuzzDecode feeds arbitrary bytes to the streaming decoder and the pprof
// model alike (plain protobuf: no gzip to get past). Neither may panic,
// and what the streaming decoder accepts must summarize consistently.
func FuzzDecode(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
			return // FuzzRead covers gzip
		}
		var heaps []*heapscan.Heap
		for _, model := range []bool{false, true} {
			h, err := heapscan.Read(bytes.NewReader(data), heapscan.ReadOptions{MaxBytes: fuzzLimit, Model: model})
			if err != nil {
				continue
			}
			checkHeap(t, h)
			heaps = append(heaps, h)
		}
		// Legacy text both readers accept reads the same: the streaming
		// text reader against pprof's parser.
		if len(heaps) == 2 && len(data) > 0 && data[0] == 'h' {
			for _, g := range []string{"function", "stack"} {
				a, errA := heaps[0].Summarize(heapscan.Options{GroupBy: g})
				b, errB := heaps[1].Summarize(heapscan.Options{GroupBy: g})
				if (errA == nil) != (errB == nil) || (errA == nil && !reflect.DeepEqual(a, b)) {
					t.Fatalf("readers disagree on text grouped by %s:\nstream %+v %v\nmodel  %+v %v", g, a, errA, b, errB)
				}
			}
		}
	})
}

// FuzzRules feeds arbitrary YAML to ParseRules.
func FuzzRules(f *testing.F) {
	for _, file := range []string{"../fixtures/bls.rules.yaml", "../fixtures/pq.rules.yaml", "../fixtures/heapgen/heapgen.rules.yaml"} {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("A: ['x', '(']\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, err := heapscan.ParseRules("fuzz.yaml", data)
		if err != nil {
			return
		}
		if len(rs.List) == 0 {
			t.Fatal("no error and no rules")
		}
		for _, r := range rs.List {
			if r.Name == "" || len(r.Patterns) == 0 {
				t.Fatalf("rule %+v: empty name or no patterns", r)
			}
		}
	})
}
