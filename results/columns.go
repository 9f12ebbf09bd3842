package results

import (
	"math"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/units"
)

// Formats is a set of output formats: the ones a column shows in by
// default.
type Formats uint8

// The output formats.
const (
	InTable    Formats = 1 << iota // the terminal table
	InMarkdown                     // the Markdown tables
	InCSV                          // the CSV file
	InJSON                         // the results file (its struct tags)
	// InDefaultTable: the terminal table's default columns, the few a
	// reader needs, shown within the terminal's width; InTable is every
	// column the terminal table can show (--wide). A column that is
	// InDefaultTable is InTable too.
	InDefaultTable

	everywhere = InTable | InMarkdown | InCSV | InJSON
	inFiles    = InCSV | InJSON
	inTables   = InTable | InMarkdown
)

// State says what a cell holds.
type State uint8

// The states of a cell.
const (
	// Exact: Value (or Text) is the figure as measured.
	Exact State = iota
	// NearZero: Value is within its resolution of zero; tables show "~0",
	// files the raw Value.
	NearZero
	// Unresolved: the figure's resolution is larger than the instance it
	// is about, so no digit of Value tells the instance from nothing;
	// tables show NTooSmall, files the raw Value.
	Unresolved
	// Unknown: the figure was not measured or not recorded (no C heap
	// reading, a file older than the figure); tables show "n/a", files
	// nothing.
	Unknown
	// NotApplicable: the column does not apply to the row (the figures of
	// a failed case, the slot of a collection); tables show "-", files
	// nothing.
	NotApplicable
)

// NTooSmall is what a table shows for an Unresolved figure.
const NTooSmall = "n/a (N too small)"

// Cell is the value of one column in one row: a number (Value) or words
// (Text: for a column whose Unit is Text, or a figure already written,
// such as a range of two times), and its State.
type Cell struct {
	State State
	Value float64
	Text  string
}

var notApplicable = Cell{State: NotApplicable}

func exact(v float64) Cell { return Cell{Value: v} }
func words(s string) Cell  { return Cell{Text: s} }

// RowKind is the kind of a row of the CSV file (its "kind" column).
type RowKind string

// The kinds of rows.
const (
	RowInstances   RowKind = "instances"   // one case of the instances measurement
	RowThroughput  RowKind = "throughput"  // one operation of one case
	RowUnavailable RowKind = "unavailable" // a combination not measured, with the reason in note
)

// Column is one column of memprof's results: the one specification the
// terminal table, the Markdown tables and the CSV file read, and that
// names each JSON field of a row. A column reads its cell from each kind
// of row it applies to; a nil reader means it does not apply to that kind.
type Column struct {
	// Name is the JSON field name (and the CSV header). A column only the
	// tables show (one that merges two fields) has a name of its own.
	Name string
	// Label is the header of the terminal table; MarkdownLabel the
	// header of the Markdown tables where it differs ("sizeof B" beside
	// the terminal's "sizeof").
	Label         string
	MarkdownLabel string
	Unit          units.Unit
	// Show is the formats that show the column by default.
	Show Formats
	// OmitEmpty lets a table leave the column out when it is empty in
	// every row it shows (a column only some results have: an
	// operation's path or sites).
	OmitEmpty bool

	// Figure is the figure the column shows (nil for a column of names,
	// words or lists, or one that merges figures): the column's readers
	// are then the figure's (see Figure).
	Figure *Figure

	Instance    func(*Row) Cell
	Throughput  func(*ThroughputRow) Cell
	Unavailable func(*Unavailable) Cell
}

// Header is the column's header in format f.
func (c Column) Header(f Formats) string {
	switch {
	case f&(InCSV|InJSON) != 0:
		return c.Name
	case f&InMarkdown != 0 && c.MarkdownLabel != "":
		return c.MarkdownLabel
	}
	return c.Label
}

// Numeric reports whether the column holds figures (tables align them
// right).
func (c Column) Numeric() bool { return c.Unit != units.Text && c.Unit != units.List }

// Format writes cell for a table: the figure in the column's unit, "~0",
// NTooSmall, "n/a" or "-" by its state.
func (c Column) Format(cell Cell) string {
	switch cell.State {
	case NearZero:
		return "~0"
	case Unresolved:
		return NTooSmall
	case Unknown:
		return "n/a"
	case NotApplicable:
		return "-"
	}
	if !c.Numeric() || cell.Text != "" {
		return cell.Text
	}
	if belowZero(c, cell) {
		return "~0"
	}
	return c.Unit.FormatCell(cell.Value)
}

// belowZero reports whether cell is a figure's reading below zero: every
// figure is of a quantity that cannot be negative (bytes, times), so a
// negative one is the noise of a difference of readings, ~0 in a table
// and 0 in a file, whose resolution column (where the figure has one)
// says how far it may be.
func belowZero(c Column, cell Cell) bool { return c.Figure != nil && cell.Value < 0 }

// FormatRaw writes cell for a file other programs read (CSV): the raw
// figure exactly, whatever its resolution, 0 for a reading below zero
// (belowZero), and nothing for a figure that is unknown or does not
// apply.
func (c Column) FormatRaw(cell Cell) string {
	switch {
	case cell.State == Unknown || cell.State == NotApplicable:
		return ""
	case !c.Numeric() || cell.Text != "":
		return cell.Text
	case belowZero(c, cell):
		return "0"
	}
	return units.FormatExact(cell.Value)
}

// ReadInstance returns the column's cell of r (NotApplicable when the
// column does not apply to instance rows).
func (c Column) ReadInstance(r *Row) Cell {
	if c.Instance == nil {
		return notApplicable
	}
	return c.Instance(r)
}

// ReadThroughput returns the column's cell of r.
func (c Column) ReadThroughput(r *ThroughputRow) Cell {
	if c.Throughput == nil {
		return notApplicable
	}
	return c.Throughput(r)
}

// ReadUnavailable returns the column's cell of u.
func (c Column) ReadUnavailable(u *Unavailable) Cell {
	if c.Unavailable == nil {
		return notApplicable
	}
	return c.Unavailable(u)
}

// Columns is every column, in the one order every format keeps (the
// CSV's). Tables pick the columns that apply to their rows and show in
// their format (InstanceColumns, ThroughputColumns), and end with a note
// of their own (the case's N, an error, why a combination is missing).
// A column to choose by name (a --columns flag) is found with
// LookupColumn. Columns is shared: read it, do not modify it.
var Columns = []Column{
	{Name: "kind", Unit: units.Text, Show: InCSV,
		Instance:    func(*Row) Cell { return words(string(RowInstances)) },
		Throughput:  func(*ThroughputRow) Cell { return words(string(RowThroughput)) },
		Unavailable: func(*Unavailable) Cell { return words(string(RowUnavailable)) }},
	{Name: "name", Unit: units.Text, Show: InJSON,
		Instance:   func(r *Row) Cell { return words(r.Name) },
		Throughput: func(r *ThroughputRow) Cell { return words(r.Name) }},
	keyColumn("type", everywhere|InDefaultTable, allRows, func(k Key) string { return string(k.Type) }).
		with(func(c *Column) {
			// A user's own case has a name and no type.
			c.Instance = func(r *Row) Cell {
				if r.Type == "" {
					return words(r.Name)
				}
				return words(string(r.Type))
			}
		}),
	keyColumn("lib", everywhere|InDefaultTable, allRows, func(k Key) string { return string(k.Lib) }),
	keyColumn("repr", everywhere|InDefaultTable, allRows, func(k Key) string { return string(k.Repr) }),
	keyColumn("layout", everywhere|InDefaultTable, instanceRows|unavailableRows, func(k Key) string { return string(k.Layout) }),
	keyColumn("scheme", inFiles, allRows, func(k Key) string { return string(k.Scheme) }),
	{Name: "constructor", Unit: units.Text, Show: inFiles,
		Instance: func(r *Row) Cell { return words(r.Constructor) }},
	keyColumn("op", everywhere|InDefaultTable, throughputRows|unavailableRows, func(k Key) string { return string(k.Op) }),
	{Name: "batch", Label: "batch", Unit: units.Count, Show: everywhere | InDefaultTable,
		Throughput: func(r *ThroughputRow) Cell {
			if r.Batch <= 0 {
				return notApplicable
			}
			return exact(float64(r.Batch))
		}},
	keyColumn("param", inFiles, instanceRows|throughputRows, func(k Key) string { return string(k.Param) }),
	{Name: "n", Label: "N", Unit: units.Count, Show: inFiles,
		Instance: func(r *Row) Cell { return exact(float64(r.N)) }},
	figureColumn("samples", everywhere, &Figure{Name: "samples", Row: RowThroughput, Title: "samples", Unit: units.Count,
		Obtained: "how many timed samples the sampler took of the operation"}),

	figureColumn("B/instance", everywhere|InDefaultTable, &Figure{Name: "bytes_per_instance", Row: RowInstances,
		Title: "bytes per instance", Unit: units.Bytes, Required: true,
		Obtained:   "the Go heap the N instances keep, whoever allocated it, from the heap profile's records at MemProfileRate 1 that their build added, the holder and the runtime's own records excluded, over N",
		Resolution: "heap_resolution_bytes_per_instance",
		Budget:     "max_bytes_per_instance", Compare: "bytes/instance",
		Dashboard: "B/instance", Bencher: "bytes-per-instance", Bench: "B/instance"}),
	// 0: exact (the sites of all N, or extended and checked against a
	// sampled profile of all N).
	figureColumn("B/instance resolution", inFiles, &Figure{Name: "heap_resolution_bytes_per_instance", Row: RowInstances,
		Title: "bytes per instance resolution", Unit: units.Bytes,
		Obtained: "0 where the bytes per instance are exact; where a site that grows in steps, or what no site explains, takes the rest of the N instances' live heap, what the runtime's own records and the threads it started may take of it, over N"}),
	figureColumn("allocs/instance", everywhere|InDefaultTable, &Figure{Name: "allocs_per_instance", Row: RowInstances,
		Title: "allocs per instance", Unit: units.Count, Required: true,
		Obtained: "the live heap objects the N instances keep, from the same heap profile's records, over N",
		Budget:   "max_allocs_per_instance", Compare: "allocs/instance",
		Dashboard: "allocs/instance", Bencher: "allocs-per-instance", Bench: "allocs/instance"}),
	// The collector's share, beside the bytes and objects: scan bytes,
	// the CPU time of a collection and the runtime's estimate of its mark
	// time per instance (per cycle), each known to its resolution.
	figureColumn("GC scan B", everywhere|InDefaultTable, &Figure{Name: "scan_bytes_per_instance", Row: RowInstances,
		Title: "GC scan bytes per instance", Unit: units.Bytes, Signed: true,
		Obtained:   "the runtime/metrics /gc/scan/heap:bytes after forced collections with the instances live, minus the same with the holder alone, over N",
		Resolution: "scan_resolution_bytes_per_instance", NeedsResolution: true,
		Absent: "the results predate the GC figures",
		Budget: "max_scan_bytes_per_instance", Judge: JudgeResolution,
		Dashboard: "scan B/instance", Bencher: "scan-bytes-per-instance"}),
	figureColumn("GC scan resolution B", inFiles, &Figure{Name: "scan_resolution_bytes_per_instance", Row: RowInstances, bound: scanResolutionBound,
		Title: "GC scan resolution per instance", Unit: units.Bytes, ZeroMeans: ZeroIsUnknown,
		Obtained: "one runtime page plus the spread of the scan readings, over N"}),
	figureColumn("GC scan builds", inFiles, &Figure{Name: "scan_builds", Row: RowInstances,
		Title: "GC scan builds", Unit: units.Count, ZeroMeans: ZeroIsNotApplicable,
		Obtained: "how many times a map-backed collection was built, each with fresh hash seeds, for the scan readings"}),
	figureColumn("GC CPU/cycle", everywhere|InDefaultTable, &Figure{Name: "gc_cpu_ns_per_instance", Row: RowInstances,
		Title: "GC CPU time per instance per cycle", Unit: units.Nanoseconds, Signed: true,
		Obtained: "the median over forced collections of the CPU time all the process's threads used across the collection (the operating system's accounting: mark, sweep and the stop-the-world phases) with the instances live, minus the holder alone's median, over N",
		Samples:  "gc_cpu_samples_ns", Summary: SummaryMedian, NeedsSamples: true,
		Resolution: "gc_cpu_resolution_ns_per_instance",
		Absent:     "the results predate the GC CPU figures, or the case was measured without them", Reason: "gc_cpu_unavailable",
		Budget: "max_gc_cpu_ns_per_instance", Judge: JudgeNoise,
		Dashboard: "GC CPU ns/instance", Bencher: "gc-cpu-ns-per-instance"}),
	quartile("GC CPU Q1", SummaryQ1, gcCPUQuartiles),
	quartile("GC CPU Q3", SummaryQ3, gcCPUQuartiles),
	{Name: "gc_cpu_samples_ns", Unit: units.List, Show: InJSON},
	figureColumn("GC CPU resolution", inFiles, &Figure{Name: "gc_cpu_resolution_ns_per_instance", Row: RowInstances,
		Title: "GC CPU resolution per instance", Unit: units.Nanoseconds,
		Obtained: "the interquartile ranges of the live and holder-alone cycles plus the drift of the holder's median, over N",
		Samples:  "gc_cpu_samples_ns", NeedsSamples: true}),
	{Name: "gc_cpu_unavailable", Label: "GC CPU unavailable", Unit: units.Text, Show: inFiles,
		Instance: func(r *Row) Cell { return words(r.GCCPUUnavailable) }},
	figureColumn("GC mark/cycle", InTable|inFiles, &Figure{Name: "gc_mark_ns_per_instance", Row: RowInstances,
		Title: "GC mark estimate per instance per cycle", Unit: units.Nanoseconds, Signed: true,
		Obtained: "the median over forced collections of the runtime's estimate of its mark workers' time (runtime/metrics /cpu/classes/gc/mark/*, timed by the wall clock while a worker holds a P, so that a busy machine inflates it) with the instances live, minus the holder alone's median, over N",
		Samples:  "gc_mark_samples_ns", Summary: SummaryMedian, NeedsSamples: true,
		Resolution: "gc_mark_resolution_ns_per_instance",
		Absent:     "the results predate the GC figures, or the case was measured without them",
		Budget:     "max_gc_mark_ns_per_instance", Judge: JudgeEstimate,
		Instead: "max_gc_cpu_ns_per_instance bounds the collector's CPU time"}),
	quartile("GC mark Q1", SummaryQ1, gcMarkQuartiles),
	quartile("GC mark Q3", SummaryQ3, gcMarkQuartiles),
	{Name: "gc_mark_samples_ns", Unit: units.List, Show: InJSON},
	figureColumn("GC mark resolution", inFiles, &Figure{Name: "gc_mark_resolution_ns_per_instance", Row: RowInstances,
		Title: "GC mark resolution per instance", Unit: units.Nanoseconds,
		Obtained: "the interquartile ranges of the live and holder-alone cycles plus the drift of the holder's median, over N",
		Samples:  "gc_mark_samples_ns", NeedsSamples: true}),
	figureColumn("sizeof", everywhere, &Figure{Name: "sizeof_bytes", Row: RowInstances,
		Title: "sizeof", Unit: units.Bytes,
		Obtained: "unsafe.Sizeof of the representation"}).markdown("sizeof B"),
	{Name: "slot", Label: "slot", MarkdownLabel: "slot B", Unit: units.Bytes, Show: inTables | InDefaultTable,
		Instance: func(r *Row) Cell {
			switch {
			case r.Error != "" || r.Layout == measure.Collection:
				return notApplicable
			case r.Layout == measure.Slice:
				return exact(r.ArraySlotBytesPerInstance)
			}
			return exact(r.SlotBytes)
		}},
	figureColumn("pointer slot B", inFiles, &Figure{Name: "slot_bytes", Row: RowInstances,
		Title: "pointer slot bytes", Unit: units.Bytes,
		Obtained: "the allocator's slot for the largest object of one instance (the profile's bytes label), for the pointer layout"}),
	figureColumn("array slot B", inFiles, &Figure{Name: "array_slot_bytes_per_instance", Row: RowInstances,
		Title: "array slot bytes per instance", Unit: units.Bytes,
		Obtained: "the slot of the slice layout's backing array, over N"}),
	figureColumn("off-heap B", everywhere, &Figure{Name: "offheap_bytes_per_instance", Row: RowInstances,
		Title: "off-heap bytes per instance", Unit: units.Bytes, Signed: true,
		Obtained:   "the instances' finalizer and cleanup records outside the heap: the runtime/metrics counts of queued finalizers and cleanups across dropping the instances, times the record's size (runtime.specialfinalizer, runtime.specialCleanup), over N; in results before they were counted, runtime.MemStats.OtherSys's growth",
		Resolution: "offheap_resolution_bytes_per_instance",
		Budget:     "max_offheap_bytes_per_instance", Judge: JudgeResolution}),
	figureColumn("off-heap resolution B", InJSON, &Figure{Name: "offheap_resolution_bytes_per_instance", Row: RowInstances, bound: offheapResolutionBound,
		Title: "off-heap resolution per instance", Unit: units.Bytes, ZeroMeans: ZeroIsUnknown,
		Obtained: "0 for the counted records (exact); in results before they were counted, two of the runtime's 256 KiB off-heap chunks, over N"}),
	// Goroutine stacks the instances keep running, outside the heap.
	figureColumn("stack B", InTable|inFiles, &Figure{Name: "stack_bytes_per_instance", Row: RowInstances,
		Title: "stack bytes per instance", Unit: units.Bytes, Signed: true,
		Obtained:   "the goroutine stacks the instances keep running: the growth of runtime.MemStats.StackInuse across their build, read after a collection, over N",
		Resolution: "stack_resolution_bytes_per_instance", NeedsResolution: true}),
	figureColumn("stack resolution B", inFiles, &Figure{Name: "stack_resolution_bytes_per_instance", Row: RowInstances,
		Title: "stack resolution per instance", Unit: units.Bytes, ZeroMeans: ZeroIsUnknown,
		Obtained: "a span of stacks, the stacks the runtime keeps with exited goroutines for reuse (63 per P) and the two stacks of each thread it started, over N"}),
	figureColumn("runtime metadata B", InJSON, &Figure{Name: "runtime_metadata_bytes_per_instance", Row: RowInstances,
		Title: "runtime metadata bytes per instance", Unit: units.Bytes, Signed: true,
		Obtained: "the heap's own metadata (span, mcache, profiling-bucket and GC records) that grew with the instances, over N"}),
	figureColumn("HeapAlloc B", everywhere, &Figure{Name: "heapalloc_bytes_per_instance", Row: RowInstances,
		Title: "HeapAlloc bytes per instance", Unit: units.Bytes, Signed: true,
		Obtained: "the runtime.MemStats.HeapAlloc delta, holder excluded, over N: a cross-check on the bytes per instance"}),
	figureColumn("holder B", everywhere, &Figure{Name: "holder_bytes_per_instance", Row: RowInstances,
		Title: "holder bytes per instance", Unit: units.Bytes,
		Obtained: "the harness's own slice that keeps the instances alive, over N"}),
	figureColumn("C heap B", everywhere, &Figure{Name: "c_heap_bytes_per_instance", Row: RowInstances,
		Title: "C heap bytes per instance", Unit: units.Bytes, Signed: true,
		Obtained: "the C heap in use (glibc mallinfo2) that grew with the instances, over N",
		Reason:   "c_heap_unavailable",
		Budget:   "max_c_heap_bytes_per_instance"}),
	{Name: "c_heap_unavailable", Label: "C heap unavailable", Unit: units.Text, Show: InJSON,
		Instance: func(r *Row) Cell { return words(r.CHeapUnavailable) }},
	figureColumn("RSS B", everywhere, &Figure{Name: "rss_bytes_per_instance", Row: RowInstances,
		Title: "RSS bytes per instance", Unit: units.Bytes, Signed: true,
		Obtained:   "the resident-set growth, over N",
		Resolution: "rss_resolution_bytes_per_instance", ResolutionBound: true}),
	figureColumn("unaccounted B", everywhere, &Figure{Name: "unaccounted_bytes_per_instance", Row: RowInstances,
		Title: "unaccounted bytes per instance", Unit: units.Bytes, Signed: true,
		Obtained:   "the RSS growth that neither the Go heap, the off-heap memory, the runtime's metadata, the goroutine stacks nor the C heap explains, over N",
		Resolution: "rss_resolution_bytes_per_instance", ResolutionBound: true}),
	figureColumn("RSS resolution B", inFiles, &Figure{Name: "rss_resolution_bytes_per_instance", Row: RowInstances, bound: rssResolutionBound,
		Title: "RSS resolution per instance", Unit: units.Bytes, ZeroMeans: ZeroIsUnknown,
		Obtained: "two readings of whole pages, each taken while a 256 KiB off-heap chunk fills: 2 × (256 KiB + one page), over N"}),
	// KZG: the build time of a single-layout case (a context).
	figureColumn("build time", inFiles, &Figure{Name: "build_ns", Row: RowInstances,
		Title: "build time", Unit: units.Nanoseconds, ZeroMeans: ZeroIsNotApplicable,
		Obtained: "the wall time of building the one object of a single-layout case, with profiling off"}),
	// How many instances the sites were profiled on, and why all N were
	// when fewer did not tell the figures at N.
	{Name: "attributed_n", Label: "sites from", Unit: units.Count, Show: inFiles | InTable,
		Instance: func(r *Row) Cell {
			switch {
			case r.Error != "":
				return notApplicable
			case r.AttributedN == 0:
				return Cell{State: Unknown} // a file older than the figure
			}
			return exact(float64(r.AttributedN))
		}},
	{Name: "attribution_fallback", Label: "attribution fallback", Unit: units.Text, Show: inFiles,
		Instance: func(r *Row) Cell { return words(r.AttributionFallback) }},
	{Name: "sites", Unit: units.List, Show: InJSON},
	{Name: "sweep", Unit: units.List, Show: InJSON},

	figureColumn("time/op", everywhere|InDefaultTable, &Figure{Name: "ns_per_op_median", Row: RowThroughput,
		Title: "ns per op", Unit: units.Nanoseconds, Required: true,
		Obtained: "the median of the operation's samples, each the wall time of a run of calls over its calls",
		Samples:  "samples_ns", Summary: SummaryMedian,
		Budget: "max_ns_per_op", Judge: JudgeNoise, Compare: "time/op",
		Dashboard: "ns/op", Bencher: "latency", Bench: "ns/op"}).markdown("time/op (median)"),
	{Name: "quartiles", Label: "Q1 – Q3", MarkdownLabel: "Q1–Q3", Unit: units.Nanoseconds, Show: inTables | InDefaultTable,
		Throughput: func(r *ThroughputRow) Cell {
			q1, ok1 := nsQ1.Value(r)
			q3, ok3 := nsQ3.Value(r)
			switch {
			case r.Error != "":
				return notApplicable
			case !ok1 || !ok3:
				return Cell{State: Unknown}
			}
			return words(units.FormatNs(q1) + " – " + units.FormatNs(q3))
		}},
	quartile("Q1", SummaryQ1, nsQuartiles),
	quartile("Q3", SummaryQ3, nsQuartiles),
	figureColumn("CPU/op", everywhere, &Figure{Name: "cpu_ns_per_op_median", Row: RowThroughput,
		Title: "CPU time per op", Unit: units.Nanoseconds, ZeroMeans: ZeroIsUnknown,
		Obtained: "the median of the samples' process CPU time over their calls"}).markdown("CPU time/op"),
	figureColumn("ops/s", everywhere, &Figure{Name: "ops_per_s", Row: RowThroughput,
		Title: "operations per second", Unit: units.PerSecond,
		Obtained: "1 s over the median time per op"}).
		with(func(c *Column) {
			// Files that lack it: from the median.
			c.Throughput = func(r *ThroughputRow) Cell {
				cell := c.Figure.cell(r)
				if m, ok := nsMedian.Value(r); ok && m > 0 && (cell.State == Unknown || cell.State == Exact && cell.Value == 0) {
					return exact(1e9 / m)
				}
				return cell
			}
		}),
	figureColumn("B/op", everywhere|InDefaultTable, &Figure{Name: "bytes_per_op", Row: RowThroughput,
		Title: "bytes per op", Unit: units.Bytes,
		Obtained: "the runtime.MemStats TotalAlloc delta over every timed call, over the calls",
		Budget:   "max_bytes_per_op", PerGOMAXPROCS: true, Bench: "B/op", PerSample: "samples_bytes_per_op"}),
	figureColumn("allocs/op", everywhere|InDefaultTable, &Figure{Name: "allocs_per_op", Row: RowThroughput,
		Title: "allocs per op", Unit: units.Count,
		Obtained: "the runtime.MemStats Mallocs delta over every timed call, over the calls",
		Budget:   "max_allocs_per_op", PerGOMAXPROCS: true, Bench: "allocs/op", PerSample: "samples_allocs_per_op"}),
	// KZG: what a cgo operation keeps in C memory per call.
	figureColumn("C heap B/op", inFiles, &Figure{Name: "c_heap_bytes_per_op", Row: RowThroughput,
		Title: "C heap bytes per op", Unit: units.Bytes, Signed: true,
		Obtained: "the growth of the C heap in use (glibc mallinfo2) across the calls, over the calls; none for pure-Go libraries"}),
	{Name: "samples_ns", Unit: units.List, Show: InJSON},
	{Name: "samples_iters", Unit: units.List, Show: InJSON},
	{Name: "samples_bytes_per_op", Unit: units.List, Show: InJSON},
	{Name: "samples_allocs_per_op", Unit: units.List, Show: InJSON},
	// The cost of use: the calls a row's path makes, where one
	// call allocates, and whether that depends on the cores.
	{Name: "path", Label: "path", Unit: units.Text, Show: InMarkdown | inFiles, OmitEmpty: true,
		Throughput: func(r *ThroughputRow) Cell { return words(r.Path) }},
	{Name: "top_site", Label: "top site", Unit: units.Text, Show: inTables, OmitEmpty: true,
		Throughput: func(r *ThroughputRow) Cell {
			if r.Error != "" || r.Sites == nil {
				return notApplicable
			}
			return words(TopSite(r.Sites))
		}},
	{Name: "sites_calls", Label: "sites calls", Unit: units.Count, Show: InJSON,
		Throughput: func(r *ThroughputRow) Cell { return recorded(float64(r.SitesCalls)) }},
	{Name: "allocs_depend_on_gomaxprocs", Label: "allocs depend on GOMAXPROCS", Unit: units.Text, Show: inFiles,
		Throughput: func(r *ThroughputRow) Cell {
			if r.CoresDependent {
				return words("yes")
			}
			return words("")
		}},
	{Name: "allocs_depend_on_scheduling", Label: "allocs depend on scheduling", Unit: units.Text, Show: inFiles,
		Throughput: func(r *ThroughputRow) Cell {
			if r.SchedulingDependent {
				return words("yes")
			}
			return words("")
		}},

	// note is why the C heap was not read (instances), what exactly is
	// timed (throughput), why a combination is missing (unavailable).
	// The tables write notes of their own.
	{Name: "note", Label: "note", Unit: units.Text, Show: inFiles,
		Instance: func(r *Row) Cell {
			if r.Error != "" || r.CHeapBytesPerInstance != nil {
				return words("")
			}
			return words(r.CHeapUnavailable)
		},
		Throughput:  func(r *ThroughputRow) Cell { return words(r.Note) },
		Unavailable: func(u *Unavailable) Cell { return words(u.Reason) }},
	{Name: "error", Label: "error", Unit: units.Text, Show: inFiles,
		Instance:   func(r *Row) Cell { return words(r.Error) },
		Throughput: func(r *ThroughputRow) Cell { return words(r.Error) }},
}

// rowKinds is a set of the kinds of rows a key column applies to.
type rowKinds uint8

const (
	instanceRows rowKinds = 1 << iota
	throughputRows
	unavailableRows
	allRows = instanceRows | throughputRows | unavailableRows
)

// The figures whose samples have quartile columns: the quartiles' names
// and titles are these with the quartile added (see quartile).
var (
	gcCPUQuartiles = Figure{Name: "gc_cpu_ns_per_instance", Row: RowInstances, Title: "GC CPU time per instance per cycle",
		Unit: units.Nanoseconds, Signed: true, Samples: "gc_cpu_samples_ns", NeedsSamples: true}
	gcMarkQuartiles = Figure{Name: "gc_mark_ns_per_instance", Row: RowInstances, Title: "GC mark time per instance per cycle",
		Unit: units.Nanoseconds, Signed: true, Samples: "gc_mark_samples_ns", NeedsSamples: true}
	nsQuartiles = Figure{Name: "ns_per_op", Row: RowThroughput, Title: "ns per op", Unit: units.Nanoseconds, Samples: "samples_ns"}
)

// quartile is the column, shown in the files, of the first or third
// quartile (q) of the samples of of: its name and title are of's with
// _q1 or _q3 and ", first quartile" or ", third quartile" added.
func quartile(label string, q Summary, of Figure) Column {
	suffix, which := "_q1", "first"
	if q == SummaryQ3 {
		suffix, which = "_q3", "third"
	}
	of.Name += suffix
	of.Title += ", " + which + " quartile"
	of.Obtained = "the " + which + " quartile of " + of.Samples
	of.Summary = q
	return figureColumn(label, inFiles, &of)
}

// keyColumn is a column of one dimension of the key: its name is its
// label.
func keyColumn(name string, show Formats, kinds rowKinds, get func(Key) string) Column {
	c := Column{Name: name, Label: name, Unit: units.Text, Show: show}
	if kinds&instanceRows != 0 {
		c.Instance = func(r *Row) Cell { return words(get(r.Key)) }
	}
	if kinds&throughputRows != 0 {
		c.Throughput = func(r *ThroughputRow) Cell { return words(get(r.Key)) }
	}
	if kinds&unavailableRows != 0 {
		c.Unavailable = func(u *Unavailable) Cell { return words(get(u.Key)) }
	}
	return c
}

func (c Column) markdown(label string) Column {
	c.MarkdownLabel = label
	return c
}

func (c Column) with(f func(*Column)) Column {
	f(&c)
	return c
}

// resolved is a per-instance figure v known only to within resolution:
// Unresolved when the resolution is larger than bound (the instance's own
// bytes), NearZero when v is within the resolution, Exact otherwise. A
// resolution of 0 (not recorded: a results file older than the figure's
// resolution) leaves v Exact.
func resolved(v, resolution, bound float64) Cell {
	c := exact(v)
	switch {
	case resolution <= 0:
	case resolution > bound:
		c.State = Unresolved
	case math.Abs(v) < resolution:
		c.State = NearZero
	}
	return c
}

// recorded is a figure that 0 means was not recorded.
func recorded(v float64) Cell {
	if v <= 0 {
		return Cell{State: Unknown}
	}
	return exact(v)
}

// instanceBytes is what one instance is known to keep: its Go heap bytes,
// from the heap profile, and its C heap where that was measured.
func instanceBytes(m *measure.Measurement) float64 {
	b := m.BytesPerInstance
	if m.CHeapBytesPerInstance != nil && *m.CHeapBytesPerInstance > 0 {
		b += *m.CHeapBytesPerInstance
	}
	return b
}
