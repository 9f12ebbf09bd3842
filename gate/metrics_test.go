package gate

import (
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/stats"
)

// The metrics the tests name, by the figure they bound. The gate itself
// names none: it reads them from the registry (Metrics).
var (
	BytesPerInstance        = metricOf("bytes_per_instance")
	AllocsPerInstance       = metricOf("allocs_per_instance")
	OffheapBytesPerInstance = metricOf("offheap_bytes_per_instance")
	CHeapBytesPerInstance   = metricOf("c_heap_bytes_per_instance")
	ScanBytesPerInstance    = metricOf("scan_bytes_per_instance")
	GCCPUNsPerInstance      = metricOf("gc_cpu_ns_per_instance")
	GCMarkNsPerInstance     = metricOf("gc_mark_ns_per_instance")
	NsPerOp                 = metricOf("ns_per_op_median")
	BytesPerOp              = metricOf("bytes_per_op")
	AllocsPerOp             = metricOf("allocs_per_op")
)

// metricOf returns the metric of the figure called name, which must have
// a budget key.
func metricOf(name string) Metric {
	f := results.FigureNamed(name)
	if f.Budget == "" {
		panic("gate: figure " + name + " has no budget key")
	}
	return Metric{f}
}

// TimeFigure is the timing figure check and compare judge for an
// operation row: SampleFigure of its ns_per_op_median.
func TimeFigure(t *results.ThroughputRow) (q stats.Quartiles, n int, err error) {
	return SampleFigure(NsPerOp.f, t)
}

// MarkFigure is the GC mark-time figure check judges for an instance row
// (SampleFigure of gc_mark_ns_per_instance).
func MarkFigure(r *results.Row) (stats.Quartiles, error) {
	q, _, err := SampleFigure(GCMarkNsPerInstance.f, r)
	return q, err
}

// CPUFigure is the GC CPU-time figure check judges for an instance row
// (SampleFigure of gc_cpu_ns_per_instance).
func CPUFigure(r *results.Row) (stats.Quartiles, error) {
	q, _, err := SampleFigure(GCCPUNsPerInstance.f, r)
	return q, err
}

// TestEstimatesSayWhatToBudget: a figure judged as an estimate warns
// where it would fail, and its entry says what to budget instead: a
// budget key of a figure that fails, which the warning names.
func TestEstimatesSayWhatToBudget(t *testing.T) {
	estimates := 0
	for _, m := range Metrics() {
		f := m.Figure()
		if f.Judge != measure.JudgeEstimate {
			continue
		}
		estimates++
		key, _, _ := strings.Cut(f.Instead, " ")
		i := slices.IndexFunc(Metrics(), func(o Metric) bool { return o.Key() == key })
		switch {
		case i < 0:
			t.Errorf("%s: Instead %q starts with %q, want a budget key", f.Name, f.Instead, key)
		case Metrics()[i].Figure().Judge == measure.JudgeEstimate:
			t.Errorf("%s: Instead names %s, got an estimate too, want a figure that fails", f.Name, key)
		}
	}
	if estimates == 0 {
		t.Errorf("got no estimate among the metrics, want the GC mark time")
	}
}
