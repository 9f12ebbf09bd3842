package results

import (
	"math"
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/stats"
	"github.com/memprof/memprof/units"
)

// gcMarkSamples are the mark samples of gcResults' first row: per
// instance per cycle, one negative (a cycle cheaper than the holder's
// median), as a pointer-free case gives.
var gcMarkSamples = []float64{0.12, -0.03, 0.08, 0.1, 0.05, 0.2, 0.09}

// gcCPUSamples are its CPU samples: a little below the mark estimate's
// and as noisy.
var gcCPUSamples = []float64{0.07, -0.04, 0.03, 0.06, 0.01, 0.11, 0.02}

// gcResults is validResults with the collector's figures in its first
// instance row, its summary that of its samples.
func gcResults(t *testing.T) *File {
	t.Helper()
	rs := validResults(t)
	q, err := stats.SummarizeSamples(gcMarkSamples)
	if err != nil {
		t.Fatal(err)
	}
	m := &rs.Instances[0].Measurement
	m.ScanBytesPerInstance, m.ScanResolution = 8.0004, 0.08
	m.GCMarkNsPerInstance, m.GCMarkNsPerInstanceQ1, m.GCMarkNsPerInstanceQ3 = q.Median, q.Q1, q.Q3
	m.GCMarkSamplesNs, m.GCMarkResolution = gcMarkSamples, 0.06
	c, err := stats.SummarizeSamples(gcCPUSamples)
	if err != nil {
		t.Fatal(err)
	}
	m.GCCPUNsPerInstance, m.GCCPUNsPerInstanceQ1, m.GCCPUNsPerInstanceQ3 = c.Median, c.Q1, c.Q3
	m.GCCPUSamplesNs, m.GCCPUResolution = gcCPUSamples, 0.02
	rs.Env.GC = measure.GreenTeaGC
	return rs
}

// TestReadResultsGCFigures: the collector's figures are checked like the
// timings: finite, resolutions non-negative, the mark summary that of its
// samples, no summary without samples, and a known collector.
func TestReadResultsGCFigures(t *testing.T) {
	sig := "instances[0] (Signature/blst/affine/pointer): "
	q, _ := stats.SummarizeSamples(gcMarkSamples)
	cq, _ := stats.SummarizeSamples(gcCPUSamples)
	tests := []struct {
		name string
		edit func(d doc)
		want []string // nil: accepted
	}{
		{"as written", func(d doc) {}, nil},
		{"negative scan within its resolution", func(d doc) { d.row("instances", 0)["scan_bytes_per_instance"] = -0.00002 }, nil},
		{"a file written before the figures", func(d doc) {
			r := d.row("instances", 0)
			for _, k := range []string{"scan_bytes_per_instance", "scan_resolution_bytes_per_instance", "gc_mark_ns_per_instance",
				"gc_mark_ns_per_instance_q1", "gc_mark_ns_per_instance_q3", "gc_mark_samples_ns", "gc_mark_resolution_ns_per_instance",
				"gc_cpu_ns_per_instance", "gc_cpu_ns_per_instance_q1", "gc_cpu_ns_per_instance_q3", "gc_cpu_samples_ns", "gc_cpu_resolution_ns_per_instance"} {
				delete(r, k)
			}
			delete(d["env"].(map[string]any), "gc")
		}, nil},
		{"negative scan resolution", func(d doc) { d.row("instances", 0)["scan_resolution_bytes_per_instance"] = -1 },
			[]string{sig + "scan_resolution_bytes_per_instance is -1, want a non-negative number"}},
		{"negative mark resolution", func(d doc) { d.row("instances", 0)["gc_mark_resolution_ns_per_instance"] = -0.5 },
			[]string{sig + "gc_mark_resolution_ns_per_instance is -0.5, want a non-negative number"}},
		{"mark median not that of the samples", func(d doc) { d.row("instances", 0)["gc_mark_ns_per_instance"] = 13.6 },
			[]string{sig + "gc_mark_ns_per_instance is 13.6, but the gc_mark_samples_ns give " + fmtFloat(q.Median)}},
		{"mark q3 not that of the samples", func(d doc) { d.row("instances", 0)["gc_mark_ns_per_instance_q3"] = 1 },
			[]string{sig + "gc_mark_ns_per_instance_q3 is 1, but the gc_mark_samples_ns give " + fmtFloat(q.Q3)}},
		{"mark summary without samples", func(d doc) { delete(d.row("instances", 0), "gc_mark_samples_ns") },
			[]string{sig + "gc_mark_ns_per_instance is " + fmtFloat(q.Median) + " without gc_mark_samples_ns: the summary must be that of its samples"}},
		{"mark sample not a number", func(d doc) { d.row("instances", 0)["gc_mark_samples_ns"].([]any)[1] = "fast" },
			[]string{`1:0: gc_mark_samples_ns is a string, want a number`}},
		{"a file written before the CPU figures", func(d doc) {
			r := d.row("instances", 0)
			for _, k := range []string{"gc_cpu_ns_per_instance", "gc_cpu_ns_per_instance_q1", "gc_cpu_ns_per_instance_q3", "gc_cpu_samples_ns", "gc_cpu_resolution_ns_per_instance"} {
				delete(r, k)
			}
		}, nil},
		{"negative cpu resolution", func(d doc) { d.row("instances", 0)["gc_cpu_resolution_ns_per_instance"] = -0.5 },
			[]string{sig + "gc_cpu_resolution_ns_per_instance is -0.5, want a non-negative number"}},
		{"cpu median not that of the samples", func(d doc) { d.row("instances", 0)["gc_cpu_ns_per_instance"] = 13.6 },
			[]string{sig + "gc_cpu_ns_per_instance is 13.6, but the gc_cpu_samples_ns give " + fmtFloat(cq.Median)}},
		{"cpu summary without samples", func(d doc) { delete(d.row("instances", 0), "gc_cpu_samples_ns") },
			[]string{sig + "gc_cpu_ns_per_instance is " + fmtFloat(cq.Median) + " without gc_cpu_samples_ns: the summary must be that of its samples"}},
		{"negative scan builds", func(d doc) { d.row("instances", 0)["scan_builds"] = -3 },
			[]string{sig + "scan_builds is -3, want a non-negative number"}},
		{"unknown collector", func(d doc) { d["env"].(map[string]any)["gc"] = "boehm" },
			[]string{"env: unknown gc \"boehm\": valid gcs are greenteagc, nogreenteagc"}},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := toDoc(t, gcResults(t))
			tt.edit(d)
			path := dir + "/" + strings.ReplaceAll(tt.name, " ", "-") + ".json"
			writeDoc(t, path, d)
			_, err := ReadFile(path)
			switch {
			case tt.want == nil && err != nil:
				t.Fatalf("got %v, want the file accepted", err)
			case tt.want == nil:
				return
			case err == nil:
				t.Fatalf("got no error, want %q", tt.want)
			}
			got := err.Error()
			if strings.HasPrefix(tt.want[0], "1:0:") {
				// A decoding error: its position depends on the layout.
				if !strings.Contains(got, strings.TrimPrefix(tt.want[0], "1:0: ")) {
					t.Errorf("error:\ngot  %s\nwant it to say %s", got, strings.TrimPrefix(tt.want[0], "1:0: "))
				}
				return
			}
			var want []string
			for _, w := range tt.want {
				want = append(want, path+": "+w)
			}
			if got != strings.Join(want, "\n") {
				t.Errorf("error:\ngot  %s\nwant %s", got, strings.Join(want, "\n"))
			}
		})
	}
}

// TestGCColumns: the collector's columns read their figures, show ~0 for
// a figure within its resolution, and n/a for a file written before the
// figures (a resolution of 0, no samples), never a 0 that was not measured.
func TestGCColumns(t *testing.T) {
	scan := mustColumn(t, "scan_bytes_per_instance")
	mark := mustColumn(t, "gc_mark_ns_per_instance")
	q1 := mustColumn(t, "gc_mark_ns_per_instance_q1")
	cpu := mustColumn(t, "gc_cpu_ns_per_instance")
	measured := gcResults(t).Instances[0]
	pointerFree := measured
	pointerFree.ScanBytesPerInstance = 0.00003
	pointerFree.GCMarkNsPerInstance = 0.05 // within the 0.06 resolution
	pointerFree.GCCPUNsPerInstance = -0.01 // within the 0.02 resolution
	noClock := measured
	noClock.GCCPUSamplesNs, noClock.GCCPUNsPerInstance, noClock.GCCPUUnavailable = nil, 0, "no clock"
	old := measured
	old.Measurement = measure.Measurement{N: 1000, BytesPerInstance: 192, AllocsPerInstance: 1}
	failed := measured
	failed.Error = "child exited"
	tests := []struct {
		name      string
		col       Column
		r         Row
		state     State
		table     string
		raw       string
		wantValue float64
	}{
		{"scan measured", scan, measured, Exact, "8.00", "8.0004", 8.0004},
		{"scan within its resolution", scan, pointerFree, NearZero, "~0", "0.00003", 0.00003},
		{"scan not recorded", scan, old, Unknown, "n/a", "", 0},
		{"scan of a failed case", scan, failed, NotApplicable, "-", "", 0},
		{"mark measured", mark, measured, Exact, units.FormatNs(measured.GCMarkNsPerInstance), units.FormatExact(measured.GCMarkNsPerInstance), measured.GCMarkNsPerInstance},
		{"mark within its resolution", mark, pointerFree, NearZero, "~0", "0.05", 0.05},
		{"mark not recorded", mark, old, Unknown, "n/a", "", 0},
		{"mark q1 not recorded", q1, old, Unknown, "n/a", "", 0},
		{"cpu measured", cpu, measured, Exact, units.FormatNs(measured.GCCPUNsPerInstance), units.FormatExact(measured.GCCPUNsPerInstance), measured.GCCPUNsPerInstance},
		// Below zero: the noise of a difference of readings, 0 in a file.
		{"cpu within its resolution", cpu, pointerFree, NearZero, "~0", "0", -0.01},
		{"cpu not recorded", cpu, old, Unknown, "n/a", "", 0},
		{"cpu without a clock", cpu, noClock, Unknown, "n/a", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.col.ReadInstance(&tt.r)
			if c.State != tt.state {
				t.Errorf("state: got %d, want %d", c.State, tt.state)
			}
			if got := tt.col.Format(c); got != tt.table {
				t.Errorf("table: got %q, want %q", got, tt.table)
			}
			if got := tt.col.FormatRaw(c); got != tt.raw {
				t.Errorf("raw: got %q, want %q", got, tt.raw)
			}
			if tt.state != Unknown && tt.state != NotApplicable && math.Abs(c.Value-tt.wantValue) > 0 {
				t.Errorf("value: got %v, want %v", c.Value, tt.wantValue)
			}
		})
	}
}

// TestReadResultsScanRule: the scan rule and its basis are written and
// read back as they were; a file written before them reads with the rule
// unknown (""), never as one of the rules; an unknown rule is refused,
// naming the valid ones.
func TestReadResultsScanRule(t *testing.T) {
	dir := t.TempDir()
	rs := gcResults(t)
	rs.Env.ScanRule, rs.Env.ScanRuleBasis = measure.ScanDense, "greenteagc on amd64, the CPU has avx512vl"
	path := dir + "/written.json"
	writeDoc(t, path, toDoc(t, rs))
	got, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Env.ScanRule != rs.Env.ScanRule || got.Env.ScanRuleBasis != rs.Env.ScanRuleBasis {
		t.Errorf("read back %q (%q), want %q (%q)", got.Env.ScanRule, got.Env.ScanRuleBasis, rs.Env.ScanRule, rs.Env.ScanRuleBasis)
	}

	old := toDoc(t, rs)
	delete(old["env"].(map[string]any), "scan_rule")
	delete(old["env"].(map[string]any), "scan_rule_basis")
	path = dir + "/old.json"
	writeDoc(t, path, old)
	if got, err = ReadFile(path); err != nil {
		t.Fatalf("a file written before scan_rule: %v", err)
	}
	if got.Env.ScanRule != "" {
		t.Errorf("a file written before scan_rule reads rule %q, want unknown (\"\")", got.Env.ScanRule)
	}

	bad := toDoc(t, rs)
	bad["env"].(map[string]any)["scan_rule"] = "sparse"
	path = dir + "/bad.json"
	writeDoc(t, path, bad)
	want := path + `: env: unknown scan_rule "sparse": valid scan_rules are dense, last-pointer`
	if _, err := ReadFile(path); err == nil || err.Error() != want {
		t.Errorf("unknown rule: got %v, want %s", err, want)
	}
}
