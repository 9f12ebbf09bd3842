package gate

import (
	"testing"

	"github.com/memprof/memprof/model"
)

// gcRow is a PubkeyCache row of lib blst in form repr, with the
// collector's figures scan (to resolution) and the mark samples.
func gcRow(repr model.Repr, scan, resolution float64, marks []float64) model.Result {
	r := model.Result{Key: model.Key{Type: model.PubkeyCache, Lib: model.Blst, Repr: repr, Layout: model.Collection},
		Measurement: model.Measurement{N: 1_000_000, BytesPerInstance: 222, AllocsPerInstance: 2}}
	if marks == nil {
		return r // a row of an older memprof: no GC figures
	}
	q, err := model.SummarizeSamples(marks)
	if err != nil {
		panic(err)
	}
	m := &r.Measurement
	m.ScanBytesPerInstance, m.ScanResolution = scan, resolution
	m.GCMarkNsPerInstance, m.GCMarkNsPerInstanceQ1, m.GCMarkNsPerInstanceQ3 = q.Median, q.Q1, q.Q3
	m.GCMarkSamplesNs, m.GCMarkResolution = marks, 0.2
	return r
}

// gcResults is what fixtures/budgets/gc.yaml is checked against (see its
// comment).
func gcResults() *model.Results {
	return &model.Results{Schema: model.Schema, Env: fixtureEnv, Instances: []model.Result{
		gcRow(model.InterfaceMap, 126, 0.008, seq(7, 12.6, 0.3)),
		gcRow(model.IndexSlice, 0.0004, 0.008, []float64{0.02, -0.01, 0.03, 0, 0.01, 0.05, -0.02}),
		gcRow(model.MapPointer, 0, 0, nil),
	}}
}

// TestCheckGCBudgets: the scan budget is exact to its resolution (an
// excess within it warns), the mark budget follows the noise rule of
// times, and a row without the figures is an error, never a pass.
func TestCheckGCBudgets(t *testing.T) {
	rs := gcResults()
	if err := rs.Validate(); err != nil {
		t.Fatal(err)
	}
	if q, err := MarkFigure(&rs.Instances[0]); err != nil || q.Median != 13.5 || q.Q1 >= 13 || q.Q1 <= 12.5 {
		t.Fatalf("fixture: interface-map mark figure %+v (%v): want median 13.5, q1 between 12.5 and 13", q, err)
	}
	f := readBudgets(t, "../fixtures/budgets/gc.yaml")
	rep := Check(f, rs, CheckOptions{FailOnTime: true})
	im, is, mp := "PubkeyCache/blst/interface-map/collection", "PubkeyCache/blst/index-slice/collection", "PubkeyCache/blst/map-pointer/collection"
	want := []wantOutcome{
		{8, im, Pass}, {9, im, Pass},
		{11, im, Fail}, {12, im, Warn},
		{14, im, Fail},
		{16, is, Warn}, {17, is, Pass},
		{21, mp, Error},
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
}

// TestUpdateGCBudgets: --update writes the scan bytes exactly and the
// mark time's median with headroom, rounded up, in place.
func TestUpdateGCBudgets(t *testing.T) {
	rs := gcResults()
	rs.Instances = rs.Instances[:2] // update refuses a limit without a measurement
	src := []byte("version: 1\nbudgets:\n  - select: {type: PubkeyCache, repr: interface-map}\n    max_scan_bytes_per_instance: 1B\n    max_gc_mark_ns_per_instance: 1ns # tight\n")
	f, err := Parse("gc.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Update(f, Check(f, rs, CheckOptions{}), 1.2)
	if err != nil {
		t.Fatal(err)
	}
	want := "version: 1\nbudgets:\n  - select: {type: PubkeyCache, repr: interface-map}\n    max_scan_bytes_per_instance: " + FormatSize(126) +
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

// TestParseGCBudgets: the mark budget takes durations, the scan budget
// sizes; both bound instances, so an op selector is refused.
func TestParseGCBudgets(t *testing.T) {
	f, err := Parse("gc.yaml", []byte("version: 1\nbudgets:\n  - select: {type: PubkeyCache}\n    max_scan_bytes_per_instance: 1.5KiB\n    max_gc_mark_ns_per_instance: 1.5us\n"))
	if err != nil {
		t.Fatal(err)
	}
	if l := f.Budgets[0].Limits; l[0].Metric != ScanBytesPerInstance || l[0].Value != 1536 || l[1].Metric != GCMarkNsPerInstance || l[1].Value != 1500 {
		t.Errorf("got limits %+v, want 1536 B of scan and 1500 ns of mark", l)
	}
	for _, bad := range []string{
		"    max_gc_mark_ns_per_instance: 12B\n",
		"    max_scan_bytes_per_instance: 3ms\n",
	} {
		if _, err := Parse("gc.yaml", []byte("version: 1\nbudgets:\n  - select: {type: PubkeyCache}\n"+bad)); err == nil {
			t.Errorf("%q: got no error, want the unit refused", bad)
		}
	}
	_, err = Parse("gc.yaml", []byte("version: 1\nbudgets:\n  - select: {type: PubkeyCache, op: verify}\n    max_gc_mark_ns_per_instance: 1ns\n"))
	if err == nil {
		t.Errorf("a mark budget selecting an op: got no error, want it refused")
	}
}

// TestGCFixtureFile keeps fixtures/budgets/gc-results.json, the results
// docs/gate.md checks gc.yaml against, equal to gcResults; -update
// rewrites it.
func TestGCFixtureFile(t *testing.T) {
	checkFixtureFile(t, "../fixtures/budgets/gc-results.json", gcResults)
}
