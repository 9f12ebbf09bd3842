package memprof

import (
	"fmt"
	"strings"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/units"
)

// The titles of the method's sections that others add to.
const (
	MethodBytes      = "Bytes per instance"
	MethodGC         = "The collector's share"
	MethodThroughput = "Throughput"
	MethodOpSites    = "Allocation sites of operations"
	MethodResolution = "Resolution"
)

// MethodSection is one part of the method: a title and its paragraphs.
type MethodSection struct {
	Title      string
	Paragraphs []string
}

// Method returns how memprof measures, built here from the engine's own
// constants and nowhere else: the help prints it, the review writes it,
// every results file records it (MethodText in Results.Method), and
// docs/method.md is generated from it (a test checks that it is).
func Method() []MethodSection {
	return []MethodSection{
		{MethodBytes, []string{InstancesMethod(), measure.BytesPerInstanceDefinition, SitesMethod}},
		{MethodGC, []string{GCMethod()}},
		{MethodResolution, []string{ResolutionMethod()}},
		{MethodThroughput, ThroughputMethodParagraphs()},
		{MethodOpSites, []string{OpSitesMethod}},
	}
}

// MethodText is Method as plain text, as results files record it: each
// section its title and paragraphs, separated by blank lines.
func MethodText() string {
	var b strings.Builder
	for i, s := range Method() {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(s.Title + ".")
		for _, p := range s.Paragraphs {
			b.WriteString("\n\n" + p)
		}
	}
	return b.String()
}

// InstancesMethod says how the engine measures a case's instances: the
// profiled pass and the footprint pass (measure.go, extend.go).
func InstancesMethod() string {
	return fmt.Sprintf("Each case runs in a fresh child process of the memprof binary. "+
		"The profiled pass allocates %s instances at runtime.MemProfileRate = 1 (and %s beside them, below frames of their own), keeps them alive, "+
		"and attributes what each build added to the heap profile's records, on whatever goroutine, to its allocation sites; "+
		"comparing the two sets, a site is exact per instance where its bytes per instance match and a cost paid once where its total bytes match. "+
		"The footprint pass then allocates N instances sampling about %s allocations, reads the live heap, off-heap runtime memory, C heap and RSS they keep, "+
		"and extends the sites to N with that live heap and the sampled profile; where that does not tell the figures at N "+
		"(two sites that grow in steps, a site the first instances lack), and for the slice layout, all N are profiled "+
		"(sites from, and in JSON attributed_n and attribution_fallback, say which). "+
		"heap_resolution_bytes_per_instance is 0 only where the figure is exact: from a profile of all N, or extended where the sites account for the live heap of the N instances to the byte and the object; "+
		"elsewhere it is at least the slack the live heap is allowed over N (%s B, and %s B for each thread the runtime started), and the runtime's own records (goroutine descriptors, the list of goroutines, wait records) never take a site's share: where the sampled profile estimates them too coarsely to tell, all N are profiled. "+
		"Growth the instances share (a map, a slice or a table they all enter) is measured from one state, the footprint pass's, after the warm-up and the profiled pass: "+
		"where the instances stay reachable after they are dropped (a registry keeps them; retained_bytes_per_instance says so), a profile of all N taken later builds into a fuller registry, "+
		"so the figure is the footprint pass's live heap of the N instances, the sites' difference from it (unattributed) and heap_note says why, "+
		"and the resolution covers the growth they share, which depends on how full the registry was. "+
		"Where they grow a structure whose layout follows a hash seed (a map's tables, unique's nodes), the N instances are built %d times more and the resolution covers the spread of the builds, and that of the count k of its tables or nodes (about the square root of k of its slots), "+
		"as builds that share one seed can spread less than processes do.",
		units.Count.Format(attributionFull), units.Count.Format(attributionFewer), units.Count.Format(footprintSamples),
		units.Count.Format(liveSlackBytes), units.Count.Format(runtimePage), spreadBuilds)
}

// SitesMethod says how sites are named and what their files are.
const SitesMethod = "A site is named by the first frame of its allocation outside the Go runtime and memprof's harness (the suites): the library's function, " +
	"or a user's constructor; an allocation the harness makes itself is named by what it holds, from the type the case returns: " +
	"new(T) for the pointer layout, make([]T, n) for the slice it fills, any(T) for the interface a value is returned in. " +
	"Files are module@version/path for a dependency, the path within the module for the main module's code, and runtime/... for the standard library, " +
	"never the measuring machine's paths (the heap profiles kept with --profile-dir are as pprof writes them)."

// ResolutionMethod says to what resolution the figures read from the
// runtime's totals are known (footprint.go, gc.go).
func ResolutionMethod() string {
	return fmt.Sprintf("Figures read from the runtime's and the system's totals are known to a resolution, in JSON beside each: "+
		"stacks (stack_resolution_bytes_per_instance) to a span of stacks, those the runtime keeps for reuse and those of the threads it started, over N; "+
		"RSS and unaccounted bytes (rss_resolution_bytes_per_instance) to 2 x (%d KiB + one page) / N, as each reading counts whole pages while the runtime fills an off-heap chunk; "+
		"the GC figures (scan_resolution_bytes_per_instance, gc_cpu_resolution_ns_per_instance, gc_mark_resolution_ns_per_instance) as the collector's share says. "+
		"Tables print ~0 for a figure within its resolution, and n/a (N too small) for an RSS or unaccounted figure whose resolution is larger than the instance itself.",
		persistentChunk>>10)
}
