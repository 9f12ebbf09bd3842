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
// negative), the resolutions non-negative, and the summaries of the CPU
// and mark times are those of their samples (SummarizeSamples), as a
// timing's is; a summary without samples is refused, a file written
// before the figures (no samples, no summary) accepted.
func (c *checker) gcFigures(m *Measurement) {
	c.finite("scan_bytes_per_instance", m.ScanBytesPerInstance)
	c.nonNegative("scan_resolution_bytes_per_instance", m.ScanResolution)
	if m.ScanBuilds < 0 {
		c.add("scan_builds is %d, want a positive number of builds", m.ScanBuilds)
	}
	c.nonNegative("gc_mark_resolution_ns_per_instance", m.GCMarkResolution)
	c.nonNegative("gc_cpu_resolution_ns_per_instance", m.GCCPUResolution)
	c.perCycle("gc_mark", m.GCMarkSamplesNs, m.GCMarkNsPerInstance, m.GCMarkNsPerInstanceQ1, m.GCMarkNsPerInstanceQ3)
	c.perCycle("gc_cpu", m.GCCPUSamplesNs, m.GCCPUNsPerInstance, m.GCCPUNsPerInstanceQ1, m.GCCPUNsPerInstanceQ3)
}

// perCycle checks one per-cycle figure (prefix gc_mark or gc_cpu): its
// samples (PREFIX_samples_ns) finite, and its median and quartiles
// (PREFIX_ns_per_instance, _q1, _q3) those of the samples, or all zero
// without samples.
func (c *checker) perCycle(prefix string, samples []float64, median, q1, q3 float64) {
	summary := []struct {
		key string
		v   float64
	}{{prefix + "_ns_per_instance", median}, {prefix + "_ns_per_instance_q1", q1}, {prefix + "_ns_per_instance_q3", q3}}
	samplesKey := prefix + "_samples_ns"
	before := len(c.probs)
	for _, f := range summary {
		c.finite(f.key, f.v)
	}
	for j, s := range samples {
		c.finite(fmt.Sprintf("%s[%d]", samplesKey, j), s)
	}
	if len(c.probs) > before {
		return
	}
	if len(samples) == 0 {
		for _, f := range summary {
			if f.v != 0 {
				c.add("%s is %s without %s: the summary must be that of its samples", f.key, fmtFloat(f.v), samplesKey)
				return
			}
		}
		return
	}
	q, err := SummarizeSamples(samples)
	if err != nil {
		c.add("%s: %v", samplesKey, err)
		return
	}
	for i, want := range []float64{q.Median, q.Q1, q.Q3} {
		if f := summary[i]; !closeTo(f.v, want) {
			c.add("%s is %s, but the %s give %s", f.key, fmtFloat(f.v), samplesKey, fmtFloat(want))
		}
	}
}
