package gate

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/stats"
	"github.com/memprof/memprof/vocab"
)

var update = flag.Bool("update", false, "rewrite the fixture results files and golden files")

// The fixture results files are built here, so that their construction
// makes the truth of every comparison known:
//
//   - bytes: head's Signature/blst/affine/pointer holds 96 B more per
//     instance than base (a regression); PublicKey is unchanged.
//   - verify: every head sample is 10% above its base sample, so the two
//     sets of 10 samples are fully separated (the U test's smallest p,
//     far below 0.05) and +10% exceeds the 5% tolerance: a regression.
//   - aggregate: head's samples interleave base's (base 100,300,...,1900 us,
//     head 200,400,...,2000 us): the medians differ by 10% but the rank
//     sums are almost equal, so the change is not significant.
//   - decompress: fully separated but only +2%: significant, within the
//     tolerance, so unchanged.
//   - sign: every head sample 20% below base: an improvement.
//   - G1/gnark is only in base (missing), G2/gnark only in head (new).
//
// head-other-env.json is base.json measured "elsewhere": another CPU and
// Go version.

var fixtureEnv = measure.Env{
	GoVersion: "go1.26.8", GOOS: "linux", GOARCH: "amd64", GOMAXPROCS: 2, NumCPU: 2,
	CPU: "Fixture CPU @ 3.00GHz", Cgo: true,
	Modules: map[string]string{"github.com/supranational/blst": "v0.3.17", "github.com/consensys/gnark-crypto": "v0.22.0"},
}

func instance(typ vocab.Type, lib vocab.Lib, bytes, allocs float64) results.Row {
	return results.Row{Key: results.Key{Type: typ, Lib: lib, Repr: "affine", Layout: "pointer"}, Measurement: measure.Measurement{N: 1000, BytesPerInstance: bytes, AllocsPerInstance: allocs, SizeofBytes: int64(bytes), SlotBytes: bytes}}
}

// seq returns n samples start, start+step, ...
func seq(n int, start, step float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = start + float64(i)*step
	}
	return s
}

func scaled(s []float64, f float64) []float64 {
	out := make([]float64, len(s))
	for i, v := range s {
		out[i] = v * f
	}
	return out
}

func op(typ vocab.Type, name vocab.Op, samples []float64) results.ThroughputRow {
	q, err := stats.SummarizeSamples(samples)
	if err != nil {
		panic(err)
	}
	return results.ThroughputRow{Key: results.Key{Type: typ, Lib: "blst", Repr: "affine", Op: name, Batch: 1}, Timing: measure.Timing{Samples: len(samples), NsPerOpMedian: q.Median, NsPerOpQ1: q.Q1, NsPerOpQ3: q.Q3, SamplesNs: samples}}
}

func fixtureBase() *results.File {
	return &results.File{Schema: results.Schema, Env: fixtureEnv,
		Instances: []results.Row{
			instance("PublicKey", "blst", 96, 1),
			instance("Signature", "blst", 192, 1),
			instance("G1", "gnark", 96, 1),
		},
		Throughput: []results.ThroughputRow{
			op("Signature", "verify", seq(10, 1_000_000, 1_000)),
			op("Signature", "aggregate", seq(10, 100_000, 200_000)),
			op("Signature", "decompress", seq(10, 50_000, 10)),
			op("Signature", "sign", seq(10, 400_000, 1_000)),
		},
	}
}

func fixtureHead() *results.File {
	return &results.File{Schema: results.Schema, Env: fixtureEnv,
		Instances: []results.Row{
			instance("PublicKey", "blst", 96, 1),
			instance("Signature", "blst", 288, 1),
			instance("G2", "gnark", 192, 1),
		},
		Throughput: []results.ThroughputRow{
			op("Signature", "verify", scaled(seq(10, 1_000_000, 1_000), 1.10)),
			op("Signature", "aggregate", seq(10, 200_000, 200_000)),
			op("Signature", "decompress", scaled(seq(10, 50_000, 10), 1.02)),
			op("Signature", "sign", scaled(seq(10, 400_000, 1_000), 0.80)),
		},
	}
}

func fixtureOtherEnv() *results.File {
	rs := fixtureBase()
	rs.Env.CPU = "Other CPU @ 2.00GHz"
	rs.Env.GoVersion = "go1.25.0"
	return rs
}

func fixtureNoSamples() *results.File {
	rs := fixtureBase()
	for i := range rs.Throughput {
		rs.Throughput[i].SamplesNs = nil
	}
	return rs
}

// fixtureCheckResults is the results file the budget tests check: exact
// sizes and times whose quartiles put each time budget where a test wants
// it. Signature/gnark failed to measure; G2/blst is unavailable.
func fixtureCheckResults() *results.File {
	return &results.File{Schema: results.Schema, Env: fixtureEnv,
		Instances: []results.Row{
			instance("PublicKey", "blst", 96, 1),
			instance("Signature", "blst", 192, 1),
			{Key: results.Key{Type: "Signature", Lib: "gnark", Repr: "affine", Layout: "pointer"}, Measurement: measure.Measurement{N: 1000}, Error: "child exited: signal: killed"},
		},
		Unavailable: []results.Unavailable{{Key: results.Key{Type: "G2", Lib: "blst", Repr: "affine", Layout: "pointer"}, Why: vocab.Why{Kind: vocab.NeedsCgo, Reason: "built without cgo"}}},
		Throughput: []results.ThroughputRow{
			// verify: samples 1.0ms..1.9ms: median 1.45ms; quartiles
			// (Hyndman-Fan 8, as stats.SummarizeSamples) 1.19167ms, 1.70833ms.
			op("Signature", "verify", seq(10, 1_000_000, 100_000)),
		},
	}
}

// fixtureNoTimes is results.json without its throughput rows: time
// budgets checked against it cannot be evaluated.
func fixtureNoTimes() *results.File {
	rs := fixtureCheckResults()
	rs.Throughput = nil
	return rs
}

var fixtures = map[string]func() *results.File{
	"../fixtures/budgets/no-times.json":        fixtureNoTimes,
	"../fixtures/compare/base.json":            fixtureBase,
	"../fixtures/compare/head.json":            fixtureHead,
	"../fixtures/compare/head-other-env.json":  fixtureOtherEnv,
	"../fixtures/compare/head-no-samples.json": fixtureNoSamples,
	"../fixtures/budgets/results.json":         fixtureCheckResults,
}

// TestFixtureFiles keeps the committed fixture files equal to their
// construction above; -update rewrites them.
func TestFixtureFiles(t *testing.T) {
	for path, build := range fixtures {
		checkFixtureFile(t, path, build)
	}
}

// checkFixtureFile checks that the results file at path is what build
// makes, or with -update writes it.
func checkFixtureFile(t *testing.T, path string, build func() *results.File) {
	t.Helper()
	var buf bytes.Buffer
	if err := build().WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./gate -update)", err)
	}
	if !bytes.Equal(got, buf.Bytes()) {
		t.Errorf("%s differs from its construction in the gate tests; run go test ./gate -update", filepath.Base(path))
	}
}

func readFixture(t *testing.T, path string) *results.File {
	t.Helper()
	rs, err := results.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}
