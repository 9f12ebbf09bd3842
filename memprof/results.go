package memprof

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/memprof/memprof/internal/atomicfile"
)

// Schema is the identifier every results file carries in its "schema" field.
// Later versions add fields; they never rename or remove one.
const Schema = "memprof.results/v1"

// Results is the memprof.results/v1 file: the contract between measuring and
// everything after it (renderers, budgets, compare). It owns its slices.
type Results struct {
	Schema    string   `json:"schema"`
	Env       Env      `json:"env"`
	Method    string   `json:"method,omitempty"`
	Instances []Result `json:"instances"`
	// Unavailable lists the combinations that were asked for but that a
	// library does not offer, or that this build cannot run, with the reason.
	Unavailable []Unavailable   `json:"unavailable,omitempty"`
	Throughput  []ThroughputRow `json:"throughput,omitempty"`
	Agreement   *Agreement      `json:"agreement,omitempty"`
}

// Result is the measurement of one case: what N instances keep alive, per
// instance. Sizes are in bytes. A Result with a non-empty Error carries no
// measurement.
type Result struct {
	Name   string `json:"name,omitempty"`
	Type   string `json:"type"`
	Lib    string `json:"lib"`
	Repr   string `json:"repr"`
	Layout string `json:"layout"`
	Scheme string `json:"scheme,omitempty"`
	// Constructor says how each instance was made (for example
	// "blst (*P2Affine).Uncompress").
	Constructor string `json:"constructor,omitempty"`
	N           int    `json:"n"`

	// BytesPerInstance is the Go heap kept alive per instance, from the heap
	// profile at MemProfileRate 1, the holder excluded.
	BytesPerInstance float64 `json:"bytes_per_instance"`
	// AllocsPerInstance is the number of live heap objects per instance.
	AllocsPerInstance float64 `json:"allocs_per_instance"`
	// SizeofBytes is unsafe.Sizeof of the representation.
	SizeofBytes int64 `json:"sizeof_bytes"`
	// SlotBytes is the slot size the allocator used for the instance's
	// largest object (the profile's "bytes" label); for the slice layout
	// the backing array's slot divided by N; 0 for a collection.
	SlotBytes float64 `json:"slot_bytes"`
	// OffheapBytesPerInstance is runtime memory outside the heap (finalizer
	// and cleanup records: runtime.MemStats.OtherSys) per instance,
	// measured with profiling off, so the profiler's own records are not
	// in it. The runtime maps this memory in chunks of 256 KiB:
	// OffheapResolution says how far from the truth one reading can be.
	OffheapBytesPerInstance float64 `json:"offheap_bytes_per_instance"`
	// OffheapResolution is 512 KiB / N (two chunks: the figure is the
	// difference of two readings): the off-heap figure's resolution.
	OffheapResolution float64 `json:"offheap_resolution_bytes_per_instance"`
	// RuntimeMetadataBytesPerInstance is the heap's own metadata (span,
	// mcache, profiling-bucket and GC records) that grew with the
	// instances, per instance; it is part of the whole footprint.
	RuntimeMetadataBytesPerInstance float64 `json:"runtime_metadata_bytes_per_instance"`
	// HeapAllocBytesPerInstance is the runtime.MemStats.HeapAlloc delta per
	// instance, holder excluded: a cross-check on BytesPerInstance.
	HeapAllocBytesPerInstance float64 `json:"heapalloc_bytes_per_instance"`
	// HolderBytesPerInstance is the harness's own slice that keeps the
	// instances alive, per instance.
	HolderBytesPerInstance float64 `json:"holder_bytes_per_instance"`
	// CHeapBytesPerInstance is the C heap (glibc mallinfo2) delta per
	// instance; nil when not available, with the reason in CHeapUnavailable.
	CHeapBytesPerInstance *float64 `json:"cheap_bytes_per_instance,omitempty"`
	CHeapUnavailable      string   `json:"cheap_unavailable,omitempty"`
	// RSSBytesPerInstance is the resident-set growth per instance.
	RSSBytesPerInstance float64 `json:"rss_bytes_per_instance"`
	// UnaccountedBytesPerInstance is the RSS growth that neither the Go heap
	// (HeapAlloc delta, holder included), the off-heap runtime memory, the
	// runtime's metadata nor the C heap explains. RSSResolution says how
	// far from the truth it can be.
	UnaccountedBytesPerInstance float64 `json:"unaccounted_bytes_per_instance"`
	// RSSResolution is the resolution of RSSBytesPerInstance and
	// UnaccountedBytesPerInstance: 2 × (256 KiB + one page) / N. Each of
	// the two readings the figures are the difference of counts whole
	// pages (it can be off by up to a page), and is taken while the
	// runtime is filling one of its 256 KiB off-heap chunks, which become
	// resident page by page as they fill and which the off-heap and
	// metadata figures (subtracted from the unaccounted one) count whole
	// as soon as they are mapped (off by up to a chunk). It is 0 where RSS
	// cannot be read, and in files written before it was recorded; the
	// JSON field is then absent.
	RSSResolution float64 `json:"rss_resolution_bytes_per_instance,omitempty"`

	Sites []Site `json:"sites"`
	Sweep *Sweep `json:"sweep,omitempty"`
	Error string `json:"error,omitempty"`
}

// Site is one allocation site inside the instance constructor.
type Site struct {
	Function          string  `json:"function"`
	File              string  `json:"file,omitempty"`
	Line              int64   `json:"line,omitempty"`
	BytesPerInstance  float64 `json:"bytes_per_instance"`
	AllocsPerInstance float64 `json:"allocs_per_instance"`
	// SlotBytes lists the distinct slot sizes seen at this site.
	SlotBytes []int64 `json:"slot_bytes,omitempty"`
}

// Sweep is a fit of bytes = Intercept + Slope*N over several N.
type Sweep struct {
	Points    []SweepPoint `json:"points"`
	Intercept float64      `json:"intercept_bytes"`
	Slope     float64      `json:"slope_bytes_per_instance"`
	SlopeLow  float64      `json:"slope_ci95_low"`
	SlopeHigh float64      `json:"slope_ci95_high"`
	R2        float64      `json:"r2"`
}

// SweepPoint is one N of a sweep and the total bytes measured at it.
type SweepPoint struct {
	N                int     `json:"n"`
	Bytes            float64 `json:"bytes"`
	BytesPerInstance float64 `json:"bytes_per_instance"`
}

// Unavailable is a combination that could not be measured, and why.
type Unavailable struct {
	Type   string `json:"type"`
	Lib    string `json:"lib"`
	Repr   string `json:"repr"`
	Layout string `json:"layout,omitempty"`
	Op     string `json:"op,omitempty"`
	Reason string `json:"reason"`
}

// ThroughputRow is the timing of one operation of one case.
type ThroughputRow struct {
	Type             string    `json:"type"`
	Lib              string    `json:"lib"`
	Repr             string    `json:"repr"`
	Op               string    `json:"op"`
	Batch            int       `json:"batch"`
	Samples          int       `json:"samples"`
	NsPerOpMedian    float64   `json:"ns_per_op_median"`
	NsPerOpQ1        float64   `json:"ns_per_op_q1"`
	NsPerOpQ3        float64   `json:"ns_per_op_q3"`
	CPUNsPerOpMedian float64   `json:"cpu_ns_per_op_median"`
	OpsPerSecond     float64   `json:"ops_per_s"`
	BytesPerOp       float64   `json:"bytes_per_op"`
	AllocsPerOp      float64   `json:"allocs_per_op"`
	SamplesNs        []float64 `json:"samples_ns,omitempty"`
	Note             string    `json:"note,omitempty"`
	Error            string    `json:"error,omitempty"`
}

// Agreement records the cross-library agreement check run before timing.
type Agreement struct {
	Cases int      `json:"cases"`
	Libs  []string `json:"libs"`
	OK    bool     `json:"ok"`
	// Unavailable lists the libraries that could not take part, as
	// "<lib>: <reason>" (blst in a build without cgo).
	Unavailable []string `json:"unavailable,omitempty"`
}

// Key returns the identity of a Result: type, lib, repr and layout (and the
// name, for users' own cases).
func (r *Result) Key() string {
	if r.Name != "" && r.Type == "" {
		return r.Name
	}
	k := "type=" + r.Type + "/lib=" + r.Lib + "/repr=" + r.Repr + "/layout=" + r.Layout
	if r.Scheme != "" && r.Scheme != "min-pk" {
		k += "/scheme=" + r.Scheme
	}
	return k
}

// WriteJSON writes rs as indented JSON.
func (rs *Results) WriteJSON(w io.Writer) error {
	if rs.Schema == "" {
		rs.Schema = Schema
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rs)
}

// WriteFile writes rs to path atomically.
func (rs *Results) WriteFile(path string) error {
	var buf bytes.Buffer
	if err := rs.WriteJSON(&buf); err != nil {
		return fmt.Errorf("encoding results: %w", err)
	}
	return atomicfile.WriteFile(path, buf.Bytes(), 0o644)
}

// ErrNotResults is wrapped by ReadResults errors for input that is not a
// memprof.results/v1 file.
var ErrNotResults = errors.New("not a " + Schema + " file")

// ReadResults reads, bounds and validates a results file (see
// ResultsReader, whose zero value it uses: the default size limit, names
// not checked). Unknown fields are allowed (later versions add fields); a
// wrong or missing schema, trailing garbage or a truncated file is an
// error wrapping ErrNotResults, a file that breaks the schema's rules an
// *InvalidError.
func ReadResults(r io.Reader) (*Results, error) {
	return ResultsReader{}.Read(r, "")
}

// ReadResultsFile reads the results file at path as ReadResults does;
// errors name the file.
func ReadResultsFile(path string) (*Results, error) {
	return ResultsReader{}.ReadFile(path)
}
