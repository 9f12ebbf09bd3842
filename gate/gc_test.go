package gate

import (
	"math"
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/stats"
	"github.com/memprof/memprof/vocab"
)

// gcRow is a PubkeyCache row of lib blst in form repr, with the
// collector's figures scan (to resolution) and the CPU and mark samples.
func gcRow(repr vocab.Repr, scan, resolution float64, cpus, marks []float64) results.Row {
	r := results.Row{Key: results.Key{Type: vocab.PubkeyCache, Lib: vocab.Blst, Repr: repr, Layout: measure.Collection},
		Measurement: measure.Measurement{N: 1_000_000, BytesPerInstance: 222, AllocsPerInstance: 2}}
	if marks == nil {
		return r // a row of an older memprof: no GC figures
	}
	q, err := stats.SummarizeSamples(marks)
	if err != nil {
		panic(err)
	}
	m := &r.Measurement
	m.ScanBytesPerInstance, m.ScanResolution = scan, resolution
	m.GCMarkNsPerInstance, m.GCMarkNsPerInstanceQ1, m.GCMarkNsPerInstanceQ3 = q.Median, q.Q1, q.Q3
	m.GCMarkSamplesNs, m.GCMarkResolution = marks, 0.2
	c, err := stats.SummarizeSamples(cpus)
	if err != nil {
		panic(err)
	}
	m.GCCPUNsPerInstance, m.GCCPUNsPerInstanceQ1, m.GCCPUNsPerInstanceQ3 = c.Median, c.Q1, c.Q3
	m.GCCPUSamplesNs, m.GCCPUResolution = cpus, 0.2
	return r
}

// gcResults is what fixtures/budgets/gc.yaml is checked against (see its
// comment).
func gcResults() *results.File {
	return &results.File{Schema: results.Schema, Env: fixtureEnv, Instances: []results.Row{
		gcRow(vocab.InterfaceMap, 126, 0.008, seq(7, 10.6, 0.3), seq(7, 12.6, 0.3)),
		gcRow(vocab.IndexSlice, 0.0004, 0.008, []float64{0.01, -0.02, 0.02, 0, 0.005, 0.04, -0.01}, []float64{0.02, -0.01, 0.03, 0, 0.01, 0.05, -0.02}),
		gcRow(vocab.MapPointer, 0, 0, nil, nil),
	}}
}

// TestCheckGCBudgets: the scan budget is exact to its resolution (an
// excess within it warns), the CPU budget follows the noise rule of
// times, the mark budget too but warns where it would fail (the
// runtime's estimate), and a row without the figures is an error, never
// a pass.
func TestCheckGCBudgets(t *testing.T) {
	rs := gcResults()
	if err := rs.Validate(); err != nil {
		t.Fatal(err)
	}
	if q, err := MarkFigure(&rs.Instances[0]); err != nil || q.Median != 13.5 || q.Q1 >= 13 || q.Q1 <= 12.5 {
		t.Fatalf("fixture: interface-map mark figure %+v (%v): want median 13.5, q1 between 12.5 and 13", q, err)
	}
	if q, err := CPUFigure(&rs.Instances[0]); err != nil || math.Abs(q.Median-11.5) > 1e-9 || q.Q1 >= 11 || q.Q1 <= 10.5 {
		t.Fatalf("fixture: interface-map CPU figure %+v (%v): want median 11.5, q1 between 10.5 and 11", q, err)
	}
	f := readBudgets(t, "../fixtures/budgets/gc.yaml")
	rep := Check(f, rs, CheckOptions{FailOnTime: true})
	im, is, mp := "PubkeyCache/blst/interface-map/collection", "PubkeyCache/blst/index-slice/collection", "PubkeyCache/blst/map-pointer/collection"
	want := []wantOutcome{
		{10, im, Pass}, {11, im, Pass},
		{13, im, Fail}, {14, im, Warn},
		{16, im, Fail},
		{18, im, Warn},
		{20, is, Warn}, {21, is, Pass},
		{25, mp, Error}, {26, mp, Error},
	}
	if len(rep.Outcomes) != len(want) {
		t.Fatalf("got %d outcomes, want %d: %+v", len(rep.Outcomes), len(want), rep.Outcomes)
	}
	for i, w := range want {
		o := rep.Outcomes[i]
		if o.Limit.Line != w.line || o.Case != w.cas || o.Status != w.status {
			t.Errorf("outcome %d: got line %d %s %s, want line %d %s %s (%s)", i, o.Limit.Line, o.Case, o.Status, w.line, w.cas, w.status, o.Detail)
		}
	}
	if rep.OK() {
		t.Errorf("OK: got true, want false (a failure and an error)")
	}
	if d := rep.Outcomes[5].Detail; !strings.Contains(d, "never fails") {
		t.Errorf("mark budget above its IQR: detail %q, want it to say the estimate never fails", d)
	}
}

// TestUpdateGCBudgets: --update writes the scan bytes exactly and the
// mark time's median with headroom, rounded up, in place.
func TestUpdateGCBudgets(t *testing.T) {
	rs := gcResults()
	rs.Instances = rs.Instances[:2] // update refuses a limit without a measurement
	src := []byte("version: 1\nbudgets:\n  - select: {type: PubkeyCache, repr: interface-map}\n    max_scan_bytes_per_instance: 1B\n    max_gc_cpu_ns_per_instance: 1ns\n    max_gc_mark_ns_per_instance: 1ns # tight\n")
	f, err := Parse("gc.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Update(f, Check(f, rs, CheckOptions{}), 1.2)
	if err != nil {
		t.Fatal(err)
	}
	want := "version: 1\nbudgets:\n  - select: {type: PubkeyCache, repr: interface-map}\n    max_scan_bytes_per_instance: " + FormatSize(126) +
		"\n    max_gc_cpu_ns_per_instance: " + FormatDuration(11.5*1.2) +
		"\n    max_gc_mark_ns_per_instance: " + FormatDuration(13.5*1.2) + " # tight\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	// An old row has nothing to update from.
	f, _ = Parse("gc.yaml", []byte("version: 1\nbudgets:\n  - select: {type: PubkeyCache, repr: map-pointer}\n    max_gc_mark_ns_per_instance: 1ns\n"))
	if _, err := Update(f, Check(f, gcResults(), CheckOptions{}), 1.2); err == nil {
		t.Errorf("update from a row without mark samples: got no error, want a refusal")
	}
}

// TestParseGCBudgets: the CPU and mark budgets take durations, the scan
// budget sizes; all bound instances, so an op selector is refused; a
// min_delta applies to the CPU budget.
func TestParseGCBudgets(t *testing.T) {
	f, err := Parse("gc.yaml", []byte("version: 1\nbudgets:\n  - select: {type: PubkeyCache}\n    max_scan_bytes_per_instance: 1.5KiB\n    max_gc_mark_ns_per_instance: 1.5us\n    max_gc_cpu_ns_per_instance: 2us\n    min_delta: 10%\n"))
	if err != nil {
		t.Fatal(err)
	}
	if l := f.Budgets[0].Limits; len(l) != 3 || l[0].Metric != ScanBytesPerInstance || l[0].Value != 1536 || l[1].Metric != GCMarkNsPerInstance || l[1].Value != 1500 ||
		l[2].Metric != GCCPUNsPerInstance || l[2].Value != 2000 {
		t.Errorf("got limits %+v, want 1536 B of scan, 1500 ns of mark and 2000 ns of CPU", l)
	}
	for _, bad := range []string{
		"    max_gc_cpu_ns_per_instance: 12B\n",
		"    max_gc_mark_ns_per_instance: 12B\n",
		"    max_scan_bytes_per_instance: 3ms\n",
	} {
		if _, err := Parse("gc.yaml", []byte("version: 1\nbudgets:\n  - select: {type: PubkeyCache}\n"+bad)); err == nil {
			t.Errorf("%q: got no error, want the unit refused", bad)
		}
	}
	for _, key := range []string{"max_gc_mark_ns_per_instance", "max_gc_cpu_ns_per_instance"} {
		if _, err := Parse("gc.yaml", []byte("version: 1\nbudgets:\n  - select: {type: PubkeyCache, op: verify}\n    "+key+": 1ns\n")); err == nil {
			t.Errorf("%s selecting an op: got no error, want it refused", key)
		}
	}
}

// TestGCCPUNoiseFloor: a CPU budget's min_delta turns a failure within it
// into a warning, as an operation's does.
func TestGCCPUNoiseFloor(t *testing.T) {
	f, err := Parse("gc.yaml", []byte("version: 1\nbudgets:\n  - select: {type: PubkeyCache, repr: interface-map}\n    max_gc_cpu_ns_per_instance: 10.5ns\n    min_delta: 20%\n"))
	if err != nil {
		t.Fatal(err)
	}
	rep := Check(f, gcResults(), CheckOptions{})
	if len(rep.Outcomes) != 1 || rep.Outcomes[0].Status != Warn || !strings.Contains(rep.Outcomes[0].Detail, "min_delta 20%") {
		t.Errorf("got %+v, want one warning within the min_delta", rep.Outcomes)
	}
}

// TestGCCPUUnavailable: a row whose CPU time could not be read is an
// error of the CPU budget that says why.
func TestGCCPUUnavailable(t *testing.T) {
	rs := gcResults()
	m := &rs.Instances[0].Measurement
	m.GCCPUSamplesNs, m.GCCPUNsPerInstance, m.GCCPUNsPerInstanceQ1, m.GCCPUNsPerInstanceQ3, m.GCCPUResolution = nil, 0, 0, 0, 0
	m.GCCPUUnavailable = "this OS lacks getrusage"
	f, err := Parse("gc.yaml", []byte("version: 1\nbudgets:\n  - select: {type: PubkeyCache, repr: interface-map}\n    max_gc_cpu_ns_per_instance: 20ns\n"))
	if err != nil {
		t.Fatal(err)
	}
	rep := Check(f, rs, CheckOptions{})
	if len(rep.Outcomes) != 1 || rep.Outcomes[0].Status != Error || !strings.Contains(rep.Outcomes[0].Detail, "this OS lacks getrusage") {
		t.Errorf("got %+v, want an error giving the reason", rep.Outcomes)
	}
}

// TestGCFixtureFile keeps fixtures/budgets/gc-results.json, the results
// docs/gate.md checks gc.yaml against, equal to gcResults; -update
// rewrites it.
func TestGCFixtureFile(t *testing.T) {
	checkFixtureFile(t, "../fixtures/budgets/gc-results.json", gcResults)
}
