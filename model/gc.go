package model

import "fmt"

// Collector names the garbage collector a measurement ran under: Go 1.26's
// default, the Green Tea collector (greenteagc), or the collector before
// it (nogreenteagc: GOEXPERIMENT=nogreenteagc, or a Go version older than
// 1.26). The figures of the collector's share (scan bytes, mark time)
// differ between them.
type Collector string

// The collectors.
const (
	GreenTeaGC   Collector = "greenteagc"
	NoGreenTeaGC Collector = "nogreenteagc"
)

// Collectors are the known collectors.
var Collectors = []Collector{GreenTeaGC, NoGreenTeaGC}

// gcFigures checks the collector's figures of a measured instance row:
// the scan bytes are a difference of readings (finite, maybe slightly
// negative), the resolutions non-negative, and the mark time's summary
// is that of its samples (SummarizeSamples), as a timing's is; a summary
// without samples is refused, a file written before the figures (no
// samples, no summary) accepted.
func (c *checker) gcFigures(m *Measurement) {
	c.finite("scan_bytes_per_instance", m.ScanBytesPerInstance)
	c.nonNegative("scan_resolution_bytes_per_instance", m.ScanResolution)
	c.nonNegative("gc_mark_resolution_ns_per_instance", m.GCMarkResolution)
	summary := []struct {
		key string
		v   float64
	}{{"gc_mark_ns_per_instance", m.GCMarkNsPerInstance}, {"gc_mark_ns_per_instance_q1", m.GCMarkNsPerInstanceQ1}, {"gc_mark_ns_per_instance_q3", m.GCMarkNsPerInstanceQ3}}
	before := len(c.probs)
	for _, f := range summary {
		c.finite(f.key, f.v)
	}
	for j, s := range m.GCMarkSamplesNs {
		c.finite(fmt.Sprintf("gc_mark_samples_ns[%d]", j), s)
	}
	if len(c.probs) > before {
		return
	}
	if len(m.GCMarkSamplesNs) == 0 {
		for _, f := range summary {
			if f.v != 0 {
				c.add("%s is %s without gc_mark_samples_ns: the summary must be that of its samples", f.key, fmtFloat(f.v))
				return
			}
		}
		return
	}
	q, err := SummarizeSamples(m.GCMarkSamplesNs)
	if err != nil {
		c.add("gc_mark_samples_ns: %v", err)
		return
	}
	for i, want := range []float64{q.Median, q.Q1, q.Q3} {
		if f := summary[i]; !closeTo(f.v, want) {
			c.add("%s is %s, but the gc_mark_samples_ns give %s", f.key, fmtFloat(f.v), fmtFloat(want))
		}
	}
}
