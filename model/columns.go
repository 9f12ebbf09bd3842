package model

import (
	"fmt"
	"math"
	"strconv"
	"strings"
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
	Unit          Unit
	// Show is the formats that show the column by default.
	Show Formats
	// OmitEmpty lets a table leave the column out when it is empty in
	// every row it shows (a column only some results have: an
	// operation's path or sites).
	OmitEmpty bool

	Instance    func(*Result) Cell
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
func (c Column) Numeric() bool { return c.Unit != Text && c.Unit != List }

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
	return c.Unit.FormatCell(cell.Value)
}

// FormatRaw writes cell for a file other programs read (CSV): the raw
// figure exactly, whatever its resolution, and nothing for a figure that
// is unknown or does not apply.
func (c Column) FormatRaw(cell Cell) string {
	switch {
	case cell.State == Unknown || cell.State == NotApplicable:
		return ""
	case !c.Numeric() || cell.Text != "":
		return cell.Text
	}
	return FormatExact(cell.Value)
}

// ReadInstance returns the column's cell of r (NotApplicable when the
// column does not apply to instance rows).
func (c Column) ReadInstance(r *Result) Cell {
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
	{Name: "kind", Unit: Text, Show: InCSV,
		Instance:    func(*Result) Cell { return words(string(RowInstances)) },
		Throughput:  func(*ThroughputRow) Cell { return words(string(RowThroughput)) },
		Unavailable: func(*Unavailable) Cell { return words(string(RowUnavailable)) }},
	{Name: "name", Unit: Text, Show: InJSON,
		Instance:   func(r *Result) Cell { return words(r.Name) },
		Throughput: func(r *ThroughputRow) Cell { return words(r.Name) }},
	keyColumn("type", everywhere|InDefaultTable, allRows, func(k Key) string { return string(k.Type) }).
		with(func(c *Column) {
			// A user's own case has a name and no type.
			c.Instance = func(r *Result) Cell {
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
	{Name: "constructor", Unit: Text, Show: inFiles,
		Instance: func(r *Result) Cell { return words(r.Constructor) }},
	keyColumn("op", everywhere|InDefaultTable, throughputRows|unavailableRows, func(k Key) string { return string(k.Op) }),
	{Name: "batch", Label: "batch", Unit: Count, Show: everywhere | InDefaultTable,
		Throughput: func(r *ThroughputRow) Cell {
			if r.Batch <= 0 {
				return notApplicable
			}
			return exact(float64(r.Batch))
		}},
	keyColumn("param", inFiles, instanceRows|throughputRows, func(k Key) string { return string(k.Param) }),
	{Name: "n", Label: "N", Unit: Count, Show: inFiles,
		Instance: func(r *Result) Cell { return exact(float64(r.N)) }},
	opFigure("samples", "samples", Count, everywhere, func(t *Timing) Cell { return exact(float64(t.Samples)) }),

	instanceFigure("bytes_per_instance", "B/instance", Bytes, everywhere|InDefaultTable, func(m *Measurement) Cell { return exact(m.BytesPerInstance) }),
	instanceFigure("allocs_per_instance", "allocs/instance", Count, everywhere|InDefaultTable, func(m *Measurement) Cell { return exact(m.AllocsPerInstance) }),
	// The collector's share, beside the bytes and objects: scan bytes,
	// the CPU time of a collection and the runtime's estimate of its mark
	// time per instance (per cycle), each known to its resolution.
	instanceFigure("scan_bytes_per_instance", "GC scan B", Bytes, everywhere|InDefaultTable, func(m *Measurement) Cell {
		if m.ScanResolution <= 0 {
			return Cell{State: Unknown} // a file older than the figure
		}
		return resolved(m.ScanBytesPerInstance, m.ScanResolution, math.Inf(1))
	}),
	instanceFigure("scan_resolution_bytes_per_instance", "GC scan resolution B", Bytes, inFiles, func(m *Measurement) Cell { return recorded(m.ScanResolution) }),
	instanceFigure("scan_builds", "GC scan builds", Count, inFiles, func(m *Measurement) Cell {
		if m.ScanBuilds == 0 {
			return notApplicable // one build
		}
		return exact(float64(m.ScanBuilds))
	}),
	instanceFigure("gc_cpu_ns_per_instance", "GC CPU/cycle", Nanoseconds, everywhere|InDefaultTable, cpuTimes.figure(func(m *Measurement) float64 { return m.GCCPUNsPerInstance }, true)),
	instanceFigure("gc_cpu_ns_per_instance_q1", "GC CPU Q1", Nanoseconds, inFiles, cpuTimes.figure(func(m *Measurement) float64 { return m.GCCPUNsPerInstanceQ1 }, false)),
	instanceFigure("gc_cpu_ns_per_instance_q3", "GC CPU Q3", Nanoseconds, inFiles, cpuTimes.figure(func(m *Measurement) float64 { return m.GCCPUNsPerInstanceQ3 }, false)),
	{Name: "gc_cpu_samples_ns", Unit: List, Show: InJSON},
	instanceFigure("gc_cpu_resolution_ns_per_instance", "GC CPU resolution", Nanoseconds, inFiles, cpuTimes.resolutionCell),
	{Name: "gc_cpu_unavailable", Label: "GC CPU unavailable", Unit: Text, Show: inFiles,
		Instance: func(r *Result) Cell { return words(r.GCCPUUnavailable) }},
	instanceFigure("gc_mark_ns_per_instance", "GC mark/cycle", Nanoseconds, InTable|inFiles, markTimes.figure(func(m *Measurement) float64 { return m.GCMarkNsPerInstance }, true)),
	instanceFigure("gc_mark_ns_per_instance_q1", "GC mark Q1", Nanoseconds, inFiles, markTimes.figure(func(m *Measurement) float64 { return m.GCMarkNsPerInstanceQ1 }, false)),
	instanceFigure("gc_mark_ns_per_instance_q3", "GC mark Q3", Nanoseconds, inFiles, markTimes.figure(func(m *Measurement) float64 { return m.GCMarkNsPerInstanceQ3 }, false)),
	{Name: "gc_mark_samples_ns", Unit: List, Show: InJSON},
	instanceFigure("gc_mark_resolution_ns_per_instance", "GC mark resolution", Nanoseconds, inFiles, markTimes.resolutionCell),
	instanceFigure("sizeof_bytes", "sizeof", Bytes, everywhere, func(m *Measurement) Cell { return exact(float64(m.SizeofBytes)) }).
		markdown("sizeof B"),
	{Name: "slot", Label: "slot", MarkdownLabel: "slot B", Unit: Bytes, Show: inTables | InDefaultTable,
		Instance: func(r *Result) Cell {
			switch {
			case r.Error != "" || r.Layout == Collection:
				return notApplicable
			case r.Layout == Slice:
				return exact(r.ArraySlotBytesPerInstance)
			}
			return exact(r.SlotBytes)
		}},
	instanceFigure("slot_bytes", "pointer slot B", Bytes, inFiles, func(m *Measurement) Cell { return exact(m.SlotBytes) }),
	instanceFigure("array_slot_bytes_per_instance", "array slot B", Bytes, inFiles, func(m *Measurement) Cell { return exact(m.ArraySlotBytesPerInstance) }),
	instanceFigure("offheap_bytes_per_instance", "off-heap B", Bytes, everywhere, func(m *Measurement) Cell {
		return resolved(m.OffheapBytesPerInstance, m.OffheapResolution, math.Inf(1))
	}),
	instanceFigure("offheap_resolution_bytes_per_instance", "off-heap resolution B", Bytes, InJSON, func(m *Measurement) Cell { return recorded(m.OffheapResolution) }),
	instanceFigure("runtime_metadata_bytes_per_instance", "runtime metadata B", Bytes, InJSON, func(m *Measurement) Cell { return exact(m.RuntimeMetadataBytesPerInstance) }),
	instanceFigure("heapalloc_bytes_per_instance", "HeapAlloc B", Bytes, everywhere, func(m *Measurement) Cell { return exact(m.HeapAllocBytesPerInstance) }),
	instanceFigure("holder_bytes_per_instance", "holder B", Bytes, everywhere, func(m *Measurement) Cell { return exact(m.HolderBytesPerInstance) }),
	instanceFigure("c_heap_bytes_per_instance", "C heap B", Bytes, everywhere, func(m *Measurement) Cell {
		if m.CHeapBytesPerInstance == nil {
			return Cell{State: Unknown}
		}
		return exact(*m.CHeapBytesPerInstance)
	}),
	{Name: "c_heap_unavailable", Label: "C heap unavailable", Unit: Text, Show: InJSON,
		Instance: func(r *Result) Cell { return words(r.CHeapUnavailable) }},
	instanceFigure("rss_bytes_per_instance", "RSS B", Bytes, everywhere, func(m *Measurement) Cell {
		return resolved(m.RSSBytesPerInstance, m.RSSResolution, instanceBytes(m))
	}),
	instanceFigure("unaccounted_bytes_per_instance", "unaccounted B", Bytes, everywhere, func(m *Measurement) Cell {
		return resolved(m.UnaccountedBytesPerInstance, m.RSSResolution, instanceBytes(m))
	}),
	instanceFigure("rss_resolution_bytes_per_instance", "RSS resolution B", Bytes, inFiles, func(m *Measurement) Cell { return recorded(m.RSSResolution) }),
	// KZG: the build time of a single-layout case (a context).
	instanceFigure("build_ns", "build time", Nanoseconds, inFiles, func(m *Measurement) Cell {
		if m.BuildNs == 0 {
			return notApplicable
		}
		return exact(m.BuildNs)
	}),
	// How many instances the sites were profiled on, and why all N were
	// when fewer did not tell the figures at N.
	instanceFigure("attributed_n", "sites from", Count, inFiles|InTable, func(m *Measurement) Cell {
		if m.AttributedN == 0 {
			return Cell{State: Unknown} // a file older than the figure
		}
		return exact(float64(m.AttributedN))
	}),
	{Name: "attribution_fallback", Label: "attribution fallback", Unit: Text, Show: inFiles,
		Instance: func(r *Result) Cell { return words(r.AttributionFallback) }},
	{Name: "sites", Unit: List, Show: InJSON},
	{Name: "sweep", Unit: List, Show: InJSON},

	opFigure("ns_per_op_median", "time/op", Nanoseconds, everywhere|InDefaultTable, func(t *Timing) Cell { return exact(t.NsPerOpMedian) }).
		markdown("time/op (median)"),
	opFigure("quartiles", "Q1 – Q3", Nanoseconds, inTables|InDefaultTable, func(t *Timing) Cell {
		return words(FormatNs(t.NsPerOpQ1) + " – " + FormatNs(t.NsPerOpQ3))
	}).markdown("Q1–Q3"),
	opFigure("ns_per_op_q1", "Q1", Nanoseconds, inFiles, func(t *Timing) Cell { return exact(t.NsPerOpQ1) }),
	opFigure("ns_per_op_q3", "Q3", Nanoseconds, inFiles, func(t *Timing) Cell { return exact(t.NsPerOpQ3) }),
	opFigure("cpu_ns_per_op_median", "CPU/op", Nanoseconds, everywhere, func(t *Timing) Cell {
		if t.CPUNsPerOpMedian == 0 {
			return Cell{State: Unknown} // not measured (a file older than the figure)
		}
		return exact(t.CPUNsPerOpMedian)
	}).markdown("CPU time/op"),
	opFigure("ops_per_s", "ops/s", PerSecond, everywhere, func(t *Timing) Cell {
		if t.OpsPerSecond == 0 && t.NsPerOpMedian > 0 {
			return exact(1e9 / t.NsPerOpMedian)
		}
		return exact(t.OpsPerSecond)
	}),
	opFigure("bytes_per_op", "B/op", Bytes, everywhere|InDefaultTable, func(t *Timing) Cell { return exact(t.BytesPerOp) }),
	opFigure("allocs_per_op", "allocs/op", Count, everywhere|InDefaultTable, func(t *Timing) Cell { return exact(t.AllocsPerOp) }),
	// KZG: what a cgo operation keeps in C memory per call.
	opFigure("c_heap_bytes_per_op", "C heap B/op", Bytes, inFiles, func(t *Timing) Cell {
		if t.CHeapBytesPerOp == nil {
			return notApplicable
		}
		return exact(*t.CHeapBytesPerOp)
	}),
	{Name: "samples_ns", Unit: List, Show: InJSON},
	{Name: "samples_iters", Unit: List, Show: InJSON},
	{Name: "samples_bytes_per_op", Unit: List, Show: InJSON},
	{Name: "samples_allocs_per_op", Unit: List, Show: InJSON},
	// The cost of use (issue 13): the calls a row's path makes, where one
	// call allocates, and whether that depends on the cores.
	{Name: "path", Label: "path", Unit: Text, Show: InMarkdown | inFiles, OmitEmpty: true,
		Throughput: func(r *ThroughputRow) Cell { return words(r.Path) }},
	{Name: "top_site", Label: "top site", Unit: Text, Show: inTables, OmitEmpty: true,
		Throughput: func(r *ThroughputRow) Cell {
			if r.Error != "" || r.Sites == nil {
				return notApplicable
			}
			return words(TopSite(r.Sites))
		}},
	{Name: "sites_calls", Label: "sites calls", Unit: Count, Show: InJSON,
		Throughput: func(r *ThroughputRow) Cell { return recorded(float64(r.SitesCalls)) }},
	{Name: "allocs_depend_on_gomaxprocs", Label: "allocs depend on GOMAXPROCS", Unit: Text, Show: inFiles,
		Throughput: func(r *ThroughputRow) Cell {
			if r.CoresDependent {
				return words("yes")
			}
			return words("")
		}},

	// note is why the C heap was not read (instances), what exactly is
	// timed (throughput), why a combination is missing (unavailable).
	// The tables write notes of their own.
	{Name: "note", Label: "note", Unit: Text, Show: inFiles,
		Instance: func(r *Result) Cell {
			if r.Error != "" || r.CHeapBytesPerInstance != nil {
				return words("")
			}
			return words(r.CHeapUnavailable)
		},
		Throughput:  func(r *ThroughputRow) Cell { return words(r.Note) },
		Unavailable: func(u *Unavailable) Cell { return words(u.Reason) }},
	{Name: "error", Label: "error", Unit: Text, Show: inFiles,
		Instance:   func(r *Result) Cell { return words(r.Error) },
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

// keyColumn is a column of one dimension of the key: its name is its
// label.
func keyColumn(name string, show Formats, kinds rowKinds, get func(Key) string) Column {
	c := Column{Name: name, Label: name, Unit: Text, Show: show}
	if kinds&instanceRows != 0 {
		c.Instance = func(r *Result) Cell { return words(get(r.Key)) }
	}
	if kinds&throughputRows != 0 {
		c.Throughput = func(r *ThroughputRow) Cell { return words(get(r.Key)) }
	}
	if kinds&unavailableRows != 0 {
		c.Unavailable = func(u *Unavailable) Cell { return words(get(u.Key)) }
	}
	return c
}

// instanceFigure is a column of the figures of a measured case; it does
// not apply to a failed one.
func instanceFigure(name, label string, unit Unit, show Formats, read func(*Measurement) Cell) Column {
	return Column{Name: name, Label: label, Unit: unit, Show: show, Instance: func(r *Result) Cell {
		if r.Error != "" {
			return notApplicable
		}
		return read(&r.Measurement)
	}}
}

// opFigure is a column of the timing of an operation; it does not apply
// to one that failed.
func opFigure(name, label string, unit Unit, show Formats, read func(*Timing) Cell) Column {
	return Column{Name: name, Label: label, Unit: unit, Show: show, Throughput: func(r *ThroughputRow) Cell {
		if r.Error != "" {
			return notApplicable
		}
		return read(&r.Timing)
	}}
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

// cycleTimes are the samples and resolution of one per-cycle GC time:
// the CPU time of the collections, or the runtime's mark estimate.
type cycleTimes struct {
	samples    func(*Measurement) []float64
	resolution func(*Measurement) float64
}

var (
	cpuTimes  = cycleTimes{func(m *Measurement) []float64 { return m.GCCPUSamplesNs }, func(m *Measurement) float64 { return m.GCCPUResolution }}
	markTimes = cycleTimes{func(m *Measurement) []float64 { return m.GCMarkSamplesNs }, func(m *Measurement) float64 { return m.GCMarkResolution }}
)

// figure reads one of the figures of ct: unknown in a file older than
// them, or where they were not measured (no samples: the CPU time of a
// system memprof does not read); the median, when withResolution, is
// NearZero within its resolution.
func (ct cycleTimes) figure(get func(*Measurement) float64, withResolution bool) func(*Measurement) Cell {
	return func(m *Measurement) Cell {
		switch {
		case len(ct.samples(m)) == 0:
			return Cell{State: Unknown}
		case withResolution:
			return resolved(get(m), ct.resolution(m), math.Inf(1))
		}
		return exact(get(m))
	}
}

// resolutionCell reads the resolution of ct's figures: unknown without
// samples.
func (ct cycleTimes) resolutionCell(m *Measurement) Cell {
	if len(ct.samples(m)) == 0 {
		return Cell{State: Unknown}
	}
	return exact(ct.resolution(m))
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
func instanceBytes(m *Measurement) float64 {
	b := m.BytesPerInstance
	if m.CHeapBytesPerInstance != nil && *m.CHeapBytesPerInstance > 0 {
		b += *m.CHeapBytesPerInstance
	}
	return b
}

// InstanceColumns returns the columns of instance rows that show in one
// of the formats show, in order.
func InstanceColumns(show Formats) []Column {
	return selectColumns(show, func(c Column) bool { return c.Instance != nil })
}

// ThroughputColumns returns the columns of throughput rows that show in
// one of the formats show, in order.
func ThroughputColumns(show Formats) []Column {
	return selectColumns(show, func(c Column) bool { return c.Throughput != nil })
}

// CSVColumns returns the columns of the CSV file, in order: every row of
// it has every column, empty where the column does not apply.
func CSVColumns() []Column {
	return selectColumns(InCSV, func(Column) bool { return true })
}

// CSVHeader returns the header row of the CSV file: the names of
// CSVColumns.
func CSVHeader() []string {
	var h []string
	for _, c := range CSVColumns() {
		h = append(h, c.Name)
	}
	return h
}

func selectColumns(show Formats, ok func(Column) bool) []Column {
	var out []Column
	for _, c := range Columns {
		if c.Show&show != 0 && ok(c) {
			out = append(out, c)
		}
	}
	return out
}

// LookupColumn returns the column called name: its JSON name, its
// terminal label or its Markdown label. The error lists the names.
func LookupColumn(name string) (Column, error) {
	for _, c := range Columns {
		if name != "" && (name == c.Name || name == c.Label || name == c.MarkdownLabel) {
			return c, nil
		}
	}
	var names []string
	for _, c := range Columns {
		names = append(names, strconv.Quote(c.Name))
	}
	return Column{}, fmt.Errorf("unknown column %q: must be one of %s (or a table's header label)", name, strings.Join(names, ", "))
}

// TopSite names the largest of sites (they come largest first) for a
// table: its function without the package path, its file and line, and
// what one call allocates there ("PairingCtx blst.go:345 3.1 KB"); "none"
// when there is none (the operation allocates nothing).
func TopSite(sites []OpSite) string {
	if len(sites) == 0 {
		return "none"
	}
	s := sites[0]
	where := ShortFunction(s.Function)
	if s.File != "" {
		where += " " + s.File[strings.LastIndexByte(s.File, '/')+1:] + ":" + strconv.FormatInt(s.Line, 10)
	}
	return where + " " + Bytes.Format(s.BytesPerOp)
}

// ShortFunction is a function's name without its package path:
// "(*P2Affine).Uncompress" for
// "github.com/supranational/blst/bindings/go.(*P2Affine).Uncompress".
func ShortFunction(fn string) string {
	base := fn[strings.LastIndexByte(fn, '/')+1:]
	if i := strings.IndexByte(base, '.'); i >= 0 {
		return base[i+1:]
	}
	return base
}
