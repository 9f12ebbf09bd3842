package export

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memprof/memprof/internal/goldenfile"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/stats"
	"github.com/memprof/memprof/vocab"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// fixturePath is the results file of a real run (fixtures/results; its
// README says how it is made).
const fixturePath = "../fixtures/results/results.json"

// loadFixture reads the fixture through the validating reader.
func loadFixture(t *testing.T) *results.File {
	t.Helper()
	rs, err := results.ReadFile(fixturePath)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// timed returns results holding four instance cases (a map of pointers
// with its collector's figures, a pointer-free slice whose figures are
// within their resolutions, one a little below zero), one failed case
// and two operations of ten samples each, verify's samples scaled by
// verifyScale, and one failed operation. sign allocates the same in every
// sample, verify does not (two samples allocate a little more). Each
// sample records its calls and allocations unless noIters, as in a file
// written before samples_iters.
func timed(t *testing.T, verifyScale float64, noIters bool) *results.File {
	t.Helper()
	rs := &results.File{Schema: results.Schema,
		Env: measure.Env{GoVersion: "go1.26.8", GOOS: "linux", GOARCH: "amd64", GOMAXPROCS: 2, NumCPU: 2, CPU: "Fixture CPU", Cgo: true,
			Modules: map[string]string{"github.com/supranational/blst": "v0.3.17"}, Machine: "runner 1", Commit: "0123abc"},
		Instances: []results.Row{
			{Key: results.Key{Type: "Signature", Lib: "blst", Repr: "affine", Layout: "pointer", Scheme: "min-pk"}, Measurement: measure.Measurement{N: 1000, BytesPerInstance: 192, AllocsPerInstance: 1}},
			{Key: results.Key{Type: "G1", Lib: "blst", Repr: "jacobian", Layout: "pointer"}, Measurement: measure.Measurement{N: 1000, BytesPerInstance: 144, AllocsPerInstance: 1}},
			// A map of pointers, with the collector's figures.
			{Key: results.Key{Type: "PubkeyCache", Lib: "blst", Repr: "map-pointer", Layout: "collection"},
				Measurement: measure.Measurement{N: 1000, BytesPerInstance: 230, AllocsPerInstance: 1, ScanBytesPerInstance: 134, ScanResolution: 0.5,
					GCCPUSamplesNs: []float64{104, 110, 118, 104, 110, 118, 110}, GCCPUResolution: 30}},
			// A pointer-free slice: its scan figure a little below zero
			// and its CPU figure above, both within their resolutions.
			{Key: results.Key{Type: "PubkeyCache", Lib: "blst", Repr: "slice-value", Layout: "collection"},
				Measurement: measure.Measurement{N: 1000, BytesPerInstance: 96, AllocsPerInstance: 0.001, ScanBytesPerInstance: -0.00096, ScanResolution: 0.008,
					GCCPUSamplesNs: []float64{-0.2, 0.1, 0.3, -0.2, 0.1, 0.3, 0.1}, GCCPUResolution: 0.9}},
			{Key: results.Key{Type: "G1", Lib: "blst", Repr: "affine", Layout: "pointer"}, Measurement: measure.Measurement{N: 1000}, Error: "child exited: signal: killed"},
		},
	}
	for i := range rs.Instances {
		if m := &rs.Instances[i].Measurement; len(m.GCCPUSamplesNs) > 0 {
			q, err := stats.SummarizeSamples(m.GCCPUSamplesNs)
			if err != nil {
				t.Fatal(err)
			}
			m.GCCPUNsPerInstance, m.GCCPUNsPerInstanceQ1, m.GCCPUNsPerInstanceQ3 = q.Median, q.Q1, q.Q3
		}
	}
	for _, op := range []struct {
		op    vocab.Op
		ns    float64
		scale float64
	}{{"sign", 400_000, 1}, {"verify", 1_000_000, verifyScale}} {
		var ns, bytes, allocs []float64
		var iters []int64
		for i := range 10 {
			v := (op.ns + float64(i)*op.ns/100) * op.scale // a 1% step between samples
			ns = append(ns, v)
			iters = append(iters, int64(100_000_000/v)+1)
			b, a := 288.0, 1.0
			if op.op == "verify" && i%5 == 2 {
				b, a = 288+4096.0/float64(iters[i]), 1+1/float64(iters[i]) // one call of the sample allocated 4 KiB more
			}
			bytes, allocs = append(bytes, b), append(allocs, a)
		}
		q, err := stats.SummarizeSamples(ns)
		if err != nil {
			t.Fatal(err)
		}
		row := results.ThroughputRow{Key: results.Key{Type: "Signature", Lib: "blst", Repr: "affine", Scheme: "min-pk", Op: op.op, Batch: 1},
			Timing: measure.Timing{Samples: len(ns), NsPerOpMedian: q.Median, NsPerOpQ1: q.Q1, NsPerOpQ3: q.Q3, CPUNsPerOpMedian: q.Median,
				OpsPerSecond: 1e9 / q.Median, BytesPerOp: weighted(bytes, iters), AllocsPerOp: weighted(allocs, iters), SamplesNs: ns, SamplesIters: iters,
				SamplesBytesPerOp: bytes, SamplesAllocsPerOp: allocs}}
		if noIters {
			row.SamplesIters, row.SamplesBytesPerOp, row.SamplesAllocsPerOp = nil, nil, nil
		}
		rs.Throughput = append(rs.Throughput, row)
	}
	rs.Throughput = append(rs.Throughput, results.ThroughputRow{Key: results.Key{Type: "Signature", Lib: "blst", Repr: "affine", Scheme: "min-pk", Op: "aggregate", Batch: 128}, Error: "made-up failure"})
	if err := rs.Validate(); err != nil {
		t.Fatalf("the test's results are invalid: %v", err)
	}
	return rs
}

// weighted is the mean of per-sample figures weighted by the samples'
// calls: the row's figure over all calls.
func weighted(vs []float64, iters []int64) float64 {
	var sum, n float64
	for i, v := range vs {
		sum += v * float64(iters[i])
		n += float64(iters[i])
	}
	return sum / n
}

// goldenExt names the golden file of each format.
var goldenExt = map[Format]string{GitHubActionBenchmark: "github-action-benchmark.json", BencherMetricFormat: "bencher.json", Benchfmt: "bench"}

// TestGolden renders the real run's fixture and the synthetic results in
// every format and compares them with testdata (go test -update
// rewrites them).
func TestGolden(t *testing.T) {
	inputs := []struct {
		name string
		rs   func(*testing.T) *results.File
	}{
		{"fixture", loadFixture},
		{"timed", func(t *testing.T) *results.File { return timed(t, 1, false) }},
	}
	for _, in := range inputs {
		for _, f := range Formats {
			name := in.name + "." + goldenExt[f]
			t.Run(name, func(t *testing.T) {
				var buf bytes.Buffer
				if err := Write(&buf, in.rs(t), f); err != nil {
					t.Fatal(err)
				}
				goldenfile.Check(t, filepath.Join("testdata", name), buf.Bytes(), *update)
			})
		}
	}
}

func TestWriteUnknownFormat(t *testing.T) {
	err := Write(&bytes.Buffer{}, timed(t, 1, false), "csv")
	want := `unknown export format "csv": must be one of github-action-benchmark, bencher, benchfmt`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestFailed(t *testing.T) {
	var got []string
	for _, k := range Failed(timed(t, 1, false)) {
		got = append(got, k.String())
	}
	want := []string{"G1/blst/affine/pointer", "Signature/blst/affine op=aggregate batch=128"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestFamilies: the rows of every family's types are exported by every
// format, named by their bench names (a BN254 point, a Groth16 key and a
// BN254 operation here).
func TestFamilies(t *testing.T) {
	rs := &results.File{Schema: results.Schema,
		Env: measure.Env{GoVersion: "go1.26.8", GOOS: "linux", GOARCH: "amd64", GOMAXPROCS: 2, NumCPU: 2},
		Instances: []results.Row{
			{Key: results.Key{Type: vocab.BN254G1, Lib: vocab.BN256Cloudflare, Repr: vocab.Decoded, Layout: measure.Pointer}, Measurement: measure.Measurement{N: 1000, BytesPerInstance: 136, AllocsPerInstance: 2}},
			{Key: results.Key{Type: vocab.Groth16VerifyingKey, Lib: vocab.Gnark, Repr: vocab.Prepared, Layout: measure.Single}, Measurement: measure.Measurement{N: 1, BytesPerInstance: 40960, AllocsPerInstance: 1}},
		},
		Throughput: []results.ThroughputRow{{Key: results.Key{Type: vocab.BN254G2, Lib: vocab.BN256Gnark, Repr: vocab.Uncompressed, Op: vocab.PairingCheck, Batch: 1},
			Timing: measure.Timing{Samples: 1, NsPerOpMedian: 6e5, NsPerOpQ1: 6e5, NsPerOpQ3: 6e5, SamplesNs: []float64{6e5}, SamplesIters: []int64{10}}}},
	}
	for _, f := range Formats {
		var b bytes.Buffer
		if err := Write(&b, rs, f); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, name := range []string{"type=BN254G1/lib=bn256-cloudflare/repr=decoded/layout=pointer", "type=Groth16VerifyingKey/lib=gnark/repr=prepared/layout=single", "type=BN254G2/lib=bn256-gnark/repr=uncompressed/op=pairing-check"} {
			if !bytes.Contains(b.Bytes(), []byte(name)) {
				t.Errorf("%s: no %s in\n%s", f, name, b.String())
			}
		}
	}
}

// TestExportLeavesOutUnknownFigures: a figure the results file lacks
// (missing or null: a file older than the figure) has no entry in any
// format, never a 0: the scan bytes of a cache, what one call of an
// operation allocates.
func TestExportLeavesOutUnknownFigures(t *testing.T) {
	var buf bytes.Buffer
	if err := timed(t, 1, false).WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var d map[string]any
	if err := json.Unmarshal(buf.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	cache := d["instances"].([]any)[2].(map[string]any)
	cache["scan_bytes_per_instance"] = nil
	sign := d["throughput"].([]any)[0].(map[string]any)
	delete(sign, "bytes_per_op")
	sign["allocs_per_op"] = nil
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := results.Decode(data, "r.json")
	if err != nil {
		t.Fatal(err)
	}
	cacheName := rs.Instances[2].Key.BenchName()
	signName := rs.Throughput[0].Key.BenchName()
	for _, f := range Formats {
		t.Run(string(f), func(t *testing.T) {
			var out bytes.Buffer
			if err := Write(&out, rs, f); err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(out.String(), "\n") {
				switch {
				case strings.Contains(line, cacheName) && strings.Contains(line, "scan"):
					t.Errorf("the cache's unknown scan bytes exported: %s", line)
				case strings.Contains(line, "Throughput/"+signName) && (strings.Contains(line, "B/op") || strings.Contains(line, "allocs/op")):
					t.Errorf("sign's unknown allocations exported: %s", line)
				}
			}
			if f == BencherMetricFormat {
				ms := BencherMetrics(rs)[cacheName]
				_, scan := ms["scan-bytes-per-instance"]
				_, bytes := ms["bytes-per-instance"]
				if scan || !bytes {
					t.Errorf("the cache's measures: got %v, want bytes-per-instance and no scan-bytes-per-instance", ms)
				}
			}
		})
	}
}

// TestExportNamesUnambiguous: two cases whose export names would be one
// (cases of the library API's whose names differ only in white space, or
// in white space against _) are refused by every format, naming both,
// rather than one figure kept for two cases or two entries under one
// name; distinct names export.
func TestExportNamesUnambiguous(t *testing.T) {
	custom := func(names ...string) *results.File {
		rs := &results.File{Schema: results.Schema}
		for _, n := range names {
			rs.Instances = append(rs.Instances, results.Row{Key: results.Key{Name: n, Layout: "pointer"}, Measurement: measure.Measurement{N: 10, BytesPerInstance: 8, AllocsPerInstance: 1}})
		}
		return rs
	}
	tests := []struct {
		name  string
		rs    *results.File
		clash string // "": exported
	}{
		{"distinct", custom("my key", "my other key"), ""},
		{"one space and two", custom("my key", "my  key"), `"my  key" and "my key" are both exported as "my_key"`},
		{"a tab", custom("my\tkey", "my key"), `are both exported as "my_key"`},
		{"white space and _", custom("my key", "my_key"), `"my key" and "my_key" are both exported as "my_key"`},
	}
	for _, tt := range tests {
		for _, f := range Formats {
			t.Run(tt.name+"/"+string(f), func(t *testing.T) {
				err := Write(new(bytes.Buffer), tt.rs, f)
				switch {
				case tt.clash == "" && err != nil:
					t.Errorf("got %v, want exported", err)
				case tt.clash != "" && (!errors.Is(err, ErrAmbiguousNames) || !strings.Contains(err.Error(), tt.clash)):
					t.Errorf("got %v, want ErrAmbiguousNames saying %s", err, tt.clash)
				}
			})
		}
	}
}

// TestPublished: a figure within its resolution of zero, or below zero,
// is written as 0; beyond it, as it is; an exact figure as it is.
func TestPublished(t *testing.T) {
	tests := []struct{ v, res, want float64 }{
		{-0.00096, 0.008, 0},
		{0.0004, 0.008, 0},
		{-3, 0.5, 0},
		{134, 0.5, 134},
		{0.5, 0.5, 0.5},
		{0, 0, 0},
		{192, 0, 192},
	}
	for _, tt := range tests {
		if got := Published(tt.v, tt.res); got != tt.want {
			t.Errorf("Published(%v, %v): got %v, want %v", tt.v, tt.res, got, tt.want)
		}
	}
}

// TestExportsPublishNoNoise: in the dashboards' formats no instance
// figure is negative; a figure read to a resolution carries it (the
// github-action-benchmark range, Bencher's bounds, never below 0) and is
// not called exact; an exact one has no range.
func TestExportsPublishNoNoise(t *testing.T) {
	rs := timed(t, 1, false)
	// read: the entry's figure is read to a resolution above 0 in its row.
	read := map[string]bool{}
	for _, r := range sortedInstances(rs) {
		for _, f := range dashboardFigures(results.RowInstances, false, All) {
			read[entryName(r.Key, f.Dashboard)] = f.ResolutionOf(&r) > 0
		}
	}
	sawRead := false
	for e := range actionBenchmarkEntries(rs, All) {
		read, ok := read[e.Name]
		if !ok {
			continue // an operation's time
		}
		sawRead = sawRead || read
		if e.Value < 0 {
			t.Errorf("%s: value %v, want none below 0", e.Name, e.Value)
		}
		if read && (!strings.HasPrefix(e.Range, "± ") || strings.Contains(e.Extra, "exact") || !strings.Contains(e.Extra, "resolution")) {
			t.Errorf("%s: range %q, extra %q: want the resolution, and not called exact", e.Name, e.Range, e.Extra)
		}
		if !read && (e.Range != "" || !strings.Contains(e.Extra, "exact")) {
			t.Errorf("%s: range %q, extra %q: want an exact figure, without a range", e.Name, e.Range, e.Extra)
		}
	}
	if !sawRead {
		t.Error("no entry is read to a resolution above 0: the fixture no longer tests that rule")
	}
	metrics := BencherMetrics(rs)
	for _, r := range sortedInstances(rs) {
		bench, ms := r.Key.BenchName(), metrics[r.Key.BenchName()]
		for _, f := range dashboardFigures(results.RowInstances, true, All) {
			bm, ok := ms[f.Bencher]
			if !ok {
				continue
			}
			if bm.Value < 0 {
				t.Errorf("%s %s: value %v, want none below 0", bench, f.Bencher, bm.Value)
			}
			hasBounds := bm.LowerValue != nil && bm.UpperValue != nil
			if hasBounds != (f.ResolutionOf(&r) > 0) {
				t.Errorf("%s %s: bounds %v, want them exactly for a figure read to a resolution", bench, f.Bencher, hasBounds)
			}
			if hasBounds && (*bm.LowerValue < 0 || *bm.LowerValue > bm.Value || *bm.UpperValue < bm.Value) {
				t.Errorf("%s %s: bounds [%v, %v] around %v, want 0 <= lower <= value <= upper", bench, f.Bencher, *bm.LowerValue, *bm.UpperValue, bm.Value)
			}
		}
	}
}
