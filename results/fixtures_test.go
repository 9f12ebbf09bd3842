package results

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/memprof/memprof/measure"
)

// readings are the figures read from the runtime or the system of a
// quantity that cannot be below zero (bytes scanned, CPU time, memory
// grown): stored as signed differences of two readings, so a value below
// zero is noise, and only within the figure's resolution. The unaccounted
// bytes are left out: a remainder of several readings, each with its own
// resolution, may fall below zero by their sum.
var readings = map[string]bool{
	"scan_bytes_per_instance":             true,
	"gc_cpu_ns_per_instance":              true,
	"gc_mark_ns_per_instance":             true,
	"offheap_bytes_per_instance":          true,
	"stack_bytes_per_instance":            true,
	"runtime_metadata_bytes_per_instance": true,
	"rss_bytes_per_instance":              true,
}

// implausible lists the figures of rs that are readings of a quantity
// that cannot be negative and lie below zero by more than the resolution
// the file records for them: what the current engine never writes.
func implausible(rs *File) []string {
	var out []string
	for i := range rs.Instances {
		r := &rs.Instances[i]
		for _, f := range FiguresOf(RowInstances) {
			if !readings[f.Name] {
				continue
			}
			v, ok := f.Value(r)
			if !ok {
				continue
			}
			if res := f.ResolutionOf(r); v < -res {
				out = append(out, fmt.Sprintf("%s: %s is %g, below zero by more than its resolution %g", r.Key, f.Name, v, res))
			}
		}
	}
	return out
}

// TestCommittedResultsFixtures: every results file the tests and the
// documents render is one the current reader accepts and the current
// engine could have written: no reading of a non-negative quantity below
// zero beyond its resolution (scripts/fixtures.sh re-measures them).
func TestCommittedResultsFixtures(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../fixtures/results/*.json", "../fixtures/docs/*.json"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 3 {
		t.Fatalf("found %d results fixtures, want fixtures/results/results.json and fixtures/docs/*.json", len(files))
	}
	for _, file := range files {
		rs, err := ReadFile(file)
		if err != nil {
			t.Errorf("%s: %v (re-measure: scripts/fixtures.sh)", file, err)
			continue
		}
		for _, p := range implausible(rs) {
			t.Errorf("%s: %s (re-measure: scripts/fixtures.sh)", file, p)
		}
	}
}

// TestImplausibleRefuses: the check refuses what an older engine wrote
// (an RSS reading below zero with no resolution recorded) and accepts a
// reading below zero within its resolution.
func TestImplausibleRefuses(t *testing.T) {
	rs := &File{Instances: []Row{
		{Measurement: measure.Measurement{N: 2000, RSSBytesPerInstance: -8.192}},
		{Measurement: measure.Measurement{N: 2000, ScanBytesPerInstance: -0.0004, ScanResolution: 0.001}},
	}}
	got := implausible(rs)
	if len(got) != 1 {
		t.Fatalf("got %q, want the RSS reading of the first row alone", got)
	}
}
