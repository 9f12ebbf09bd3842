package export

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchproc"
)

// readBench reads every record of a benchmark file named name.
func readBench(t *testing.T, name string, data []byte) (results []*benchfmt.Result, units benchfmt.UnitMetadataMap) {
	t.Helper()
	r := benchfmt.NewReader(bytes.NewReader(data), name)
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Errorf("syntax error: %v", rec)
		case *benchfmt.Result:
			results = append(results, rec.Clone())
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return results, r.Units()
}

// benchstatCell is what benchstat gathers for one row (a benchmark and a
// unit) of one file: its values.
type benchstatCell struct {
	row  string // .fullname and .unit, as benchstat's row and table
	file string
}

// benchstatRow is benchstat's comparison of one row of two files: the
// number of values on each side and the delta column as benchstat
// prints it ("~" when not significant, "+30.00%").
type benchstatRow struct {
	n1, n2 int
	delta  string
	p      float64
}

// benchstat groups the lines of the files as the benchstat command does
// by default (rows by .fullname, a table per unit, a column per file),
// with x/perf's benchproc, and compares each row of base with head's
// with benchmath, assuming what each unit's metadata says (assume=exact,
// else nothing) and writing the delta with benchmath's FormatDelta, as
// benchstat does.
func benchstat(t *testing.T, base, head []byte) map[string]benchstatRow {
	t.Helper()
	var pp benchproc.ProjectionParser
	rows, unitField, err := pp.ParseWithUnit(".fullname", nil)
	if err != nil {
		t.Fatal(err)
	}
	values := map[benchstatCell][]float64{}
	var order []string
	assume := map[string]benchmath.Assumption{}
	for _, f := range []struct {
		name string
		data []byte
	}{{"base.bench", base}, {"head.bench", head}} {
		results, units := readBench(t, f.name, f.data)
		for _, res := range results {
			for i, k := range rows.ProjectValues(res) {
				row := k.StringValues()
				cell := benchstatCell{row, f.name}
				if !slices.Contains(order, row) {
					order = append(order, row)
				}
				values[cell] = append(values[cell], res.Values[i].Value)
				assume[row] = benchmath.AssumeNothing
				if m := units.Get(k.Get(unitField), "assume"); m != nil && m.Value == "exact" {
					assume[row] = benchmath.AssumeExact
				}
			}
		}
	}
	out := map[string]benchstatRow{}
	th := &benchmath.DefaultThresholds
	for _, row := range order {
		a := assume[row]
		b := benchmath.NewSample(values[benchstatCell{row, "base.bench"}], th)
		h := benchmath.NewSample(values[benchstatCell{row, "head.bench"}], th)
		cmp := a.Compare(b, h)
		delta := cmp.FormatDelta(a.Summary(b, 0.95).Center, a.Summary(h, 0.95).Center)
		out[row] = benchstatRow{len(b.Values), len(h.Values), delta, cmp.P}
	}
	return out
}

// TestBenchstatFindsTimingChange: two results files whose verify times
// differ by 30% (every sample of head is base's × 1.3) and whose other
// figures are equal give benchmark files in which benchstat's own
// statistics (x/perf's benchproc and benchmath, as the benchstat command
// uses them) find the verify change significant, from all ten samples,
// and nothing else. With one line per operation holding the median (the
// format before), benchstat saw n=1 and could never find a change. The
// allocations are on every line, as go test writes them, so benchstat
// compares them from ten samples too: sign's, the same in every sample,
// and verify's, which vary, are both "~". It also holds for a file
// written before samples_iters, whose iteration counts are estimated, and
// whose allocations are the operation's figure over all samples, repeated
// on every line: benchstat reports that figure's change, as it would an
// exact figure's.
func TestBenchstatFindsTimingChange(t *testing.T) {
	for _, noIters := range []bool{false, true} {
		name := "samples_iters"
		if noIters {
			name = "estimated iterations"
		}
		t.Run(name, func(t *testing.T) {
			var base, head bytes.Buffer
			baseRS, headRS := timed(t, 1, noIters), timed(t, 1.3, noIters)
			if err := Bench(&base, baseRS); err != nil {
				t.Fatal(err)
			}
			if err := Bench(&head, headRS); err != nil {
				t.Fatal(err)
			}
			const verifyKey = "type=Signature/lib=blst/repr=affine/op=verify"
			rows := benchstat(t, base.Bytes(), head.Bytes())
			verify := "Throughput/type=Signature/lib=blst/repr=affine/op=verify sec/op"
			for row, r := range rows {
				n := 10 // every line has every figure
				if strings.HasPrefix(row, "Throughput/") && (r.n1 != n || r.n2 != n) {
					t.Errorf("%s: benchstat got n=%d+%d, want %d+%d", row, r.n1, r.n2, n, n)
				}
				want := "~"
				switch {
				case row == verify:
					want = "+30.00%"
				case strings.HasPrefix(row, "Instances/"):
					want = "0.00%" // exact: equal
				case noIters && strings.Contains(row, "op=verify "):
					// One figure over all samples, weighted by calls:
					// head's differ.
					b, h := opRow(baseRS, "Throughput/"+verifyKey).BytesPerOp, opRow(headRS, "Throughput/"+verifyKey).BytesPerOp
					if strings.HasSuffix(row, " allocs/op") {
						b, h = opRow(baseRS, "Throughput/"+verifyKey).AllocsPerOp, opRow(headRS, "Throughput/"+verifyKey).AllocsPerOp
					}
					want = fmt.Sprintf("%+.2f%%", (h/b-1)*100)
				}
				if r.delta != want {
					t.Errorf("%s: benchstat's delta got %q (p=%.4f n=%d+%d), want %q", row, r.delta, r.p, r.n1, r.n2, want)
				}
			}
			if _, ok := rows[verify]; !ok {
				t.Fatalf("no row %q among %d rows", verify, len(rows))
			}
			for _, comment := range []string{"# samples_iters not recorded", "# samples_bytes_per_op not recorded"} {
				if got := strings.Contains(base.String(), comment); got != noIters {
					t.Errorf("comment %q in the output: got %v, want %v", comment, got, noIters)
				}
			}
		})
	}
}

// TestBenchParsesAndRoundTrips: every measured case is one line with its
// exact figures and N as iterations; every timed operation one line per
// sample, with that sample's calls as iterations and its ns/op; failed
// rows none; the configuration is the environment's; and benchfmt reads
// back what it writes.
func TestBenchParsesAndRoundTrips(t *testing.T) {
	rs := timed(t, 1, false)
	var buf bytes.Buffer
	if err := Bench(&buf, rs); err != nil {
		t.Fatal(err)
	}
	recs, units := readBench(t, "results.bench", buf.Bytes())

	type line struct {
		iters int
		ns    float64
	}
	wantInstances := map[string]results.Row{}
	for _, r := range rs.Instances {
		if r.Error == "" {
			wantInstances["Instances/"+r.Key.BenchName()] = r
		}
	}
	wantOps := map[string][]line{}
	for _, tr := range rs.Throughput {
		if tr.Error != "" {
			continue
		}
		for i, ns := range tr.SamplesNs {
			name := "Throughput/" + tr.Key.BenchName()
			wantOps[name] = append(wantOps[name], line{int(tr.SamplesIters[i]), ns})
		}
	}
	gotOps := map[string][]line{}
	nInstances := 0
	for _, res := range recs {
		for k, v := range map[string]string{"goos": rs.Env.GOOS, "cpu": rs.Env.CPU, "machine": "runner_1", "commit": rs.Env.Commit,
			"github.com/supranational/blst": rs.Env.Modules["github.com/supranational/blst"]} {
			if got := res.GetConfig(k); got != v {
				t.Errorf("%s: %s got %q, want %q", res.Name, k, got, v)
			}
		}
		name := res.Name.String()
		if strings.HasPrefix(name, "Throughput/") {
			ns, _ := res.Value("sec/op")
			i := len(gotOps[name])
			gotOps[name] = append(gotOps[name], line{res.Iters, ns * 1e9})
			tr := opRow(rs, name)
			for _, u := range []struct {
				unit    string
				samples []float64
			}{
				{"B/op", tr.SamplesBytesPerOp},
				{"allocs/op", tr.SamplesAllocsPerOp},
			} {
				if len(u.samples) != len(tr.SamplesNs) {
					t.Fatalf("%s: %d %s samples for %d time samples, want the fixture to record one per sample", name, len(u.samples), u.unit, len(tr.SamplesNs))
				}
				if got, ok := res.Value(u.unit); !ok || got != u.samples[i] {
					t.Errorf("%s line %d: %s got %v (%v), want the sample's %v on every line", name, i, u.unit, got, ok, u.samples[i])
				}
			}
			continue
		}
		nInstances++
		r, ok := wantInstances[name]
		if !ok {
			t.Errorf("unexpected result %s", name)
			continue
		}
		if got, _ := res.Value("B/instance"); got != r.BytesPerInstance {
			t.Errorf("%s: B/instance got %v, want %v", name, got, r.BytesPerInstance)
		}
		if got, _ := res.Value("allocs/instance"); got != r.AllocsPerInstance {
			t.Errorf("%s: allocs/instance got %v, want %v", name, got, r.AllocsPerInstance)
		}
		if res.Iters != r.N {
			t.Errorf("%s: iterations got %d, want N = %d", name, res.Iters, r.N)
		}
	}
	if nInstances != len(wantInstances) {
		t.Errorf("got %d instance lines, want %d (one per measured case)", nInstances, len(wantInstances))
	}
	for name, want := range wantOps {
		got := gotOps[name]
		if len(got) != len(want) {
			t.Errorf("%s: got %d lines, want %d (one per sample)", name, len(got), len(want))
			continue
		}
		for i := range want {
			if got[i].iters != want[i].iters || !closeTo(got[i].ns, want[i].ns) {
				t.Errorf("%s line %d: got %d iterations at %v ns/op, want %d at %v", name, i, got[i].iters, got[i].ns, want[i].iters, want[i].ns)
			}
		}
	}
	if len(gotOps) != len(wantOps) {
		t.Errorf("got lines of %d operations, want %d (failed ones have none)", len(gotOps), len(wantOps))
	}
	for _, u := range BenchUnits {
		if m := units.Get(u, "assume"); m == nil || m.Value != "exact" {
			t.Errorf("unit %s: assume got %v, want exact", u, m)
		}
		if m := units.Get(u, "better"); m == nil || m.Value != "lower" {
			t.Errorf("unit %s: better got %v, want lower", u, m)
		}
	}

	// Round trip: benchfmt.Writer writes what it read, and reading that
	// again gives the same results.
	var again bytes.Buffer
	w := benchfmt.NewWriter(&again)
	for _, res := range recs {
		if err := w.Write(res); err != nil {
			t.Fatal(err)
		}
	}
	results2, _ := readBench(t, "again.bench", again.Bytes())
	if len(results2) != len(recs) {
		t.Fatalf("round trip: got %d results, want %d", len(results2), len(recs))
	}
	for i := range recs {
		a, b := recs[i], results2[i]
		if a.Name.String() != b.Name.String() || a.Iters != b.Iters || !slices.Equal(a.Values, b.Values) || !configEqual(a.Config, b.Config) {
			t.Errorf("round trip: result %d got %s %d %v, want %s %d %v", i, b.Name, b.Iters, b.Values, a.Name, a.Iters, a.Values)
		}
	}
}

// opRow is the operation row of rs whose lines are named name.
func opRow(rs *results.File, name string) *results.ThroughputRow {
	for i, tr := range rs.Throughput {
		if "Throughput/"+tr.Key.BenchName() == name {
			return &rs.Throughput[i]
		}
	}
	return &results.ThroughputRow{}
}

// TestBenchEstimatesIters: without samples_iters, a sample's calls are
// EstimatedSample over its ns/op (at least one), and a comment says so;
// without samples_ns, an operation has one line holding its median, and a
// comment names it.
func TestBenchEstimatesIters(t *testing.T) {
	rs := timed(t, 1, true)
	rs.Throughput = append(rs.Throughput, results.ThroughputRow{Key: results.Key{Type: "G1", Lib: "blst", Repr: "jacobian", Op: "to-affine", Batch: 1},
		Timing: measure.Timing{Samples: 3, NsPerOpMedian: 4000, NsPerOpQ1: 3900, NsPerOpQ3: 4100}})
	var buf bytes.Buffer
	if err := Bench(&buf, rs); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# samples_iters not recorded (results written before it): the iteration counts of 2 operations are estimated as 100ms / the sample's ns/op\n",
		"# samples_ns not recorded for 1 operation: one line each, holding the median (benchstat sees one sample): G1/blst/jacobian op=to-affine\n",
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, buf.String())
		}
	}
	results, _ := readBench(t, "old.bench", buf.Bytes())
	perSample := map[float64]int{}
	for _, tr := range rs.Throughput {
		for _, ns := range tr.SamplesNs {
			perSample[ns] = int(max(1, float64(EstimatedSample.Nanoseconds())/ns+0.5))
		}
	}
	lines := 0
	for _, res := range results {
		if !strings.HasPrefix(res.Name.String(), "Throughput/") {
			continue
		}
		lines++
		sec, _ := res.Value("sec/op")
		ns := sec * 1e9
		if strings.Contains(res.Name.String(), "op=to-affine") {
			if res.Iters != 3 || !closeTo(ns, 4000) {
				t.Errorf("%s: got %d iterations at %v ns/op, want one line of the 3 samples' median 4000", res.Name, res.Iters, ns)
			}
			continue
		}
		want, ok := perSample[roundNs(ns, rs)]
		if !ok || res.Iters != want {
			t.Errorf("%s at %v ns/op: got %d iterations, want %d (100ms / ns/op)", res.Name, ns, res.Iters, want)
		}
	}
	if lines != 21 {
		t.Errorf("got %d operation lines, want 21 (10 + 10 samples, 1 median)", lines)
	}
}

// roundNs finds the sample of rs that ns (read back through sec/op) is.
func roundNs(ns float64, rs *results.File) float64 {
	for _, tr := range rs.Throughput {
		for _, s := range tr.SamplesNs {
			if closeTo(s, ns) {
				return s
			}
		}
	}
	return ns
}

func closeTo(a, b float64) bool { return a == b || (a-b)*(a-b) <= 1e-18*max(a*a, b*b) }

func configEqual(a, b []benchfmt.Config) bool {
	return slices.EqualFunc(a, b, func(x, y benchfmt.Config) bool {
		return x.Key == y.Key && bytes.Equal(x.Value, y.Value) && x.File == y.File
	})
}

// TestBenchstatRealRuns: two results files of real runs of unchanged code
// (memprof throughput --type Signature --lib blst --sites=false, one
// after the other: testdata/throughput-run1.json and -run2.json), written
// in the benchmark format and compared with benchstat's own statistics.
// The operations that allocated the same per call in every sample have
// their B/op and allocs/op once (n=1 each side), the same in both runs,
// and benchstat finds no change in them; those whose allocation varied
// have one figure per sample (n=10 each side), compared from all of
// them, so that benchstat finds a change where their samples differ, at
// its 5% level by chance in about one comparison in twenty (not in every
// one whose mean moved, as ten copies of one figure made it).
func TestBenchstatRealRuns(t *testing.T) {
	var files [2]*results.File
	var bench [2][]byte
	for i, name := range []string{"testdata/throughput-run1.json", "testdata/throughput-run2.json"} {
		rs, err := results.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := Bench(&buf, rs); err != nil {
			t.Fatal(err)
		}
		files[i], bench[i] = rs, buf.Bytes()
	}
	rows := benchstat(t, bench[0], bench[1])
	var constant, varying, significant int
	for _, tr := range files[0].Throughput {
		other := opRow(files[1], "Throughput/"+tr.Key.BenchName())
		for _, unit := range []string{"B/op", "allocs/op"} {
			row := "Throughput/" + tr.Key.BenchName() + " " + unit
			r, ok := rows[row]
			if !ok {
				t.Errorf("no row %q", row)
				continue
			}
			switch {
			case !tr.AllocsVary() && !other.AllocsVary():
				constant++
				if r.n1 != len(tr.SamplesNs) || r.n2 != len(other.SamplesNs) || r.delta != "~" {
					t.Errorf("%s, the same in every sample of both runs: benchstat got n=%d+%d delta %q, want n=%d+%d (a figure on every line) and no change", row, r.n1, r.n2, r.delta, len(tr.SamplesNs), len(other.SamplesNs))
				}
				if tr.BytesPerOp != other.BytesPerOp || tr.AllocsPerOp != other.AllocsPerOp {
					t.Errorf("%s: %v B and %v allocs per op, then %v and %v: want an exact figure the same in both runs", row, tr.BytesPerOp, tr.AllocsPerOp, other.BytesPerOp, other.AllocsPerOp)
				}
			case tr.AllocsVary() && other.AllocsVary():
				varying++
				if r.n1 != len(tr.SamplesNs) || r.n2 != len(other.SamplesNs) {
					t.Errorf("%s, varying: benchstat got n=%d+%d, want one figure per sample (%d+%d)", row, r.n1, r.n2, len(tr.SamplesNs), len(other.SamplesNs))
				}
				if r.delta != "~" {
					significant++
				}
				t.Logf("%s: varying, benchstat delta %q (p=%.3f)", row, r.delta, r.p)
			}
		}
	}
	if constant == 0 || varying == 0 {
		t.Errorf("got %d constant and %d varying figures, want the runs to have both", constant, varying)
	}
	if significant > varying/5 {
		t.Errorf("benchstat finds %d of %d varying figures changed between two runs of unchanged code, want about one in twenty (at most a fifth)", significant, varying)
	}
}

// TestBenchAllocsOnEveryLine: in the export of the synthetic results (with
// and without the samples' figures) and of the committed real runs, every
// line of an operation has B/op and allocs/op, as go test writes them, so
// that benchstat compares them from as many values as the time.
func TestBenchAllocsOnEveryLine(t *testing.T) {
	files := map[string]*results.File{"synthetic": timed(t, 1, false), "synthetic, older": timed(t, 1, true)}
	for _, name := range []string{"testdata/throughput-run1.json", "testdata/throughput-run2.json"} {
		rs, err := results.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = rs
	}
	for name, rs := range files {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Bench(&buf, rs); err != nil {
				t.Fatal(err)
			}
			recs, _ := readBench(t, name, buf.Bytes())
			lines := 0
			for _, res := range recs {
				if !strings.HasPrefix(res.Name.String(), "Throughput/") {
					continue
				}
				lines++
				for _, unit := range []string{"sec/op", "B/op", "allocs/op"} {
					if _, ok := res.Value(unit); !ok {
						t.Errorf("%s: got values %v, want one in %s", res.Name, res.Values, unit)
					}
				}
			}
			want := 0
			for _, tr := range rs.Throughput {
				if tr.Error == "" {
					want += max(len(tr.SamplesNs), 1)
				}
			}
			if lines != want {
				t.Errorf("got %d operation lines, want %d (one per sample)", lines, want)
			}
		})
	}
}

// TestBenchCPULine: the cpu configuration line holds the environment's CPU
// byte for byte, trailing spaces included (a CPUID brand string can end
// in them, and go test writes them), and none without a CPU.
func TestBenchCPULine(t *testing.T) {
	for _, cpu := range []string{"Fixture CPU", "Fixture CPU   ", "", "  "} {
		t.Run(fmt.Sprintf("%q", cpu), func(t *testing.T) {
			rs := timed(t, 1, false)
			rs.Env.CPU = cpu
			var buf bytes.Buffer
			if err := Bench(&buf, rs); err != nil {
				t.Fatal(err)
			}
			want := cpu
			if strings.TrimSpace(cpu) == "" {
				want = ""
			}
			recs, _ := readBench(t, "results.bench", buf.Bytes())
			for _, res := range recs {
				if got := res.GetConfig("cpu"); got != want {
					t.Fatalf("%s: cpu got %q, want %q", res.Name, got, want)
				}
			}
			if got, wantLine := strings.Contains(buf.String(), "\ncpu: "), want != ""; got != wantLine {
				t.Errorf("a cpu line in the output: got %v, want %v", got, wantLine)
			}
		})
	}
}
