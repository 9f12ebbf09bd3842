package results

import (
	"math"
	"slices"

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
	// InDefaultTableWhereKept: the default terminal table adds the column
	// where a row holds a value other than 0, and never leaves it out for
	// width (memory some rows keep and most do not: a c-kzg context's C
	// heap). An instance row's note says why the column's figure is
	// unknown in it.
	InDefaultTableWhereKept

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
// CSV's): the key columns, then each figure of Figures in its order with
// the columns placed after it (columnsAfter), then the columns of the
// rows' words. Tables pick the columns that apply to their rows and show
// in their format (InstanceColumns, ThroughputColumns), and end with a
// note of their own (the case's N, an error, why a combination is
// missing). A column to choose by name (a --columns flag) is found with
// LookupColumn. Columns is shared: read it, do not modify it.
//
// The columns' labels and formats are presentation, yet they live here
// beside the figures rather than in cmd/memprof/internal/render: the
// families' review sections under suites/ format their cells through
// them (LookupColumn), and a package there cannot import the command's.
var Columns = layColumns(Figures)

// layColumns lays out the columns: keyColumns, each figure's column
// (figureColumn) followed by columnsAfter it, rowColumns. It panics on a
// presentation or placement that names no figure.
func layColumns(figs []*Figure) []Column {
	// A column that is not a figure gives way to a figure of its name (a
	// figure a test adds: WithFigure).
	notFigure := func(cols []Column) []Column {
		return slices.DeleteFunc(slices.Clone(cols), func(c Column) bool {
			return slices.ContainsFunc(figs, func(f *Figure) bool { return f.Name == c.Name })
		})
	}
	out := notFigure(keyColumns)
	placed := 0
	for _, f := range figs {
		out = append(out, figureColumn(f))
		if after, ok := columnsAfter[f.Name]; ok {
			out = append(out, notFigure(after)...)
			placed++
		}
	}
	shown := 0
	for _, f := range figs {
		if _, ok := figureShows[f.Name]; ok {
			shown++
		}
	}
	if placed != len(columnsAfter) || shown != len(figureShows) {
		panic("results: columnsAfter or figureShows names a figure Figures lacks")
	}
	return append(out, notFigure(rowColumns)...)
}

// keyColumns are the columns before the figures: the kind of row, the
// case's key and its size.
var keyColumns = []Column{
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
}

// figureShow is how the tables show a figure's column: its header labels
// and the formats that show it by default; cell, where set, reads its
// cell instead of the figure's own reader.
type figureShow struct {
	label, markdown string
	show            Formats
	cell            func(f *Figure) func(*ThroughputRow) Cell
}

// defaultShow is how a figure without an entry in figureShows shows: by
// its name, in the wide terminal table (--wide, --columns) and the files.
var defaultShow = figureShow{show: InTable | inFiles}

// figureShows are the figures' labels and formats, by the figure's name.
var figureShows = map[string]figureShow{
	"samples":                                        {label: "samples", show: everywhere},
	"bytes_per_instance":                             {label: "B/instance", show: everywhere | InDefaultTable},
	"heap_resolution_bytes_per_instance":             {label: "B/instance resolution", show: inFiles},
	"retained_bytes_per_instance":                    {label: "retained B", show: InJSON},
	"allocs_per_instance":                            {label: "allocs/instance", show: everywhere | InDefaultTable},
	"scan_bytes_per_instance":                        {label: "GC scan B", show: everywhere | InDefaultTable},
	"scan_resolution_bytes_per_instance":             {label: "GC scan resolution B", show: inFiles},
	"scan_builds":                                    {label: "GC scan builds", show: inFiles},
	"gc_cpu_ns_per_instance":                         {label: "GC CPU/cycle", show: everywhere | InDefaultTable},
	"gc_cpu_ns_per_instance_q1":                      {label: "GC CPU Q1", show: inFiles},
	"gc_cpu_ns_per_instance_q3":                      {label: "GC CPU Q3", show: inFiles},
	"gc_cpu_resolution_ns_per_instance":              {label: "GC CPU resolution", show: inFiles},
	"gc_mark_ns_per_instance":                        {label: "GC mark/cycle", show: InTable | inFiles},
	"gc_mark_ns_per_instance_q1":                     {label: "GC mark Q1", show: inFiles},
	"gc_mark_ns_per_instance_q3":                     {label: "GC mark Q3", show: inFiles},
	"gc_mark_resolution_ns_per_instance":             {label: "GC mark resolution", show: inFiles},
	"sizeof_bytes":                                   {label: "sizeof", markdown: "sizeof B", show: everywhere},
	"slot_bytes":                                     {label: "pointer slot B", show: inFiles},
	"array_slot_bytes_per_instance":                  {label: "array slot B", show: inFiles},
	"offheap_bytes_per_instance":                     {label: "off-heap B", show: everywhere},
	"offheap_resolution_bytes_per_instance":          {label: "off-heap resolution B", show: InJSON},
	"stack_bytes_per_instance":                       {label: "stack B", show: InTable | inFiles},
	"stack_resolution_bytes_per_instance":            {label: "stack resolution B", show: inFiles},
	"runtime_metadata_bytes_per_instance":            {label: "runtime metadata B", show: InJSON},
	"runtime_metadata_resolution_bytes_per_instance": {label: "runtime metadata resolution B", show: InJSON},
	"heapalloc_bytes_per_instance":                   {label: "HeapAlloc B", show: everywhere},
	"holder_bytes_per_instance":                      {label: "holder B", show: everywhere},
	"c_heap_bytes_per_instance":                      {label: "C heap B", show: everywhere | InDefaultTableWhereKept},
	"rss_bytes_per_instance":                         {label: "RSS B", show: everywhere},
	"unaccounted_bytes_per_instance":                 {label: "unaccounted B", show: everywhere},
	"rss_resolution_bytes_per_instance":              {label: "RSS resolution B", show: inFiles},
	"build_ns":                                       {label: "build time", show: inFiles},
	"ns_per_op_median":                               {label: "time/op", markdown: "time/op (median)", show: everywhere | InDefaultTable},
	"ns_per_op_q1":                                   {label: "Q1", show: inFiles},
	"ns_per_op_q3":                                   {label: "Q3", show: inFiles},
	"cpu_ns_per_op_median":                           {label: "CPU/op", markdown: "CPU time/op", show: everywhere},
	"ops_per_s": {label: "ops/s", show: everywhere, cell: func(f *Figure) func(*ThroughputRow) Cell {
		// Files that lack it: from the median.
		return func(r *ThroughputRow) Cell {
			cell := f.cell(r)
			if m, ok := nsMedian.Value(r); ok && m > 0 && (cell.State == Unknown || cell.State == Exact && cell.Value == 0) {
				return exact(1e9 / m)
			}
			return cell
		}
	}},
	"bytes_per_op":        {label: "B/op", show: everywhere | InDefaultTable},
	"allocs_per_op":       {label: "allocs/op", show: everywhere | InDefaultTable},
	"c_heap_bytes_per_op": {label: "C heap B/op", show: inFiles},
}

// figureColumn is the column of figure f: labelled and shown as
// figureShows says, the unit f's, and readers that show f's value in the
// state its entry implies (Unknown, NearZero, ...).
func figureColumn(f *Figure) Column {
	s, ok := figureShows[f.Name]
	if !ok {
		s = defaultShow
		s.label = f.Name
	}
	c := Column{Name: f.Name, Label: s.label, MarkdownLabel: s.markdown, Unit: f.Unit, Show: s.show, Figure: f}
	switch {
	case s.cell != nil:
		c.Throughput = s.cell(f)
	case f.Row == RowInstances:
		c.Instance = func(r *Row) Cell { return f.cell(r) }
	case f.Row == RowThroughput:
		c.Throughput = func(r *ThroughputRow) Cell { return f.cell(r) }
	}
	return c
}

// columnsAfter are the columns that are not figures' but sit among them
// in the one order, by the figure they follow: a figure's samples, the
// reason a row lacks it, a table's column that merges figures.
var columnsAfter = map[string][]Column{
	"retained_bytes_per_instance": {{Name: "heap_note", Label: "heap note", Unit: units.Text, Show: InJSON,
		Instance: func(r *Row) Cell { return words(r.HeapNote) }}},
	"gc_cpu_ns_per_instance_q3": {{Name: "gc_cpu_samples_ns", Unit: units.List, Show: InJSON}},
	"gc_cpu_resolution_ns_per_instance": {{Name: "gc_cpu_unavailable", Label: "GC CPU unavailable", Unit: units.Text, Show: inFiles,
		Instance: func(r *Row) Cell { return words(r.GCCPUUnavailable) }}},
	"gc_mark_ns_per_instance_q3": {{Name: "gc_mark_samples_ns", Unit: units.List, Show: InJSON}},
	"sizeof_bytes": {{Name: "slot", Label: "slot", MarkdownLabel: "slot B", Unit: units.Bytes, Show: inTables | InDefaultTable,
		Instance: func(r *Row) Cell {
			switch {
			case r.Error != "" || r.Layout == measure.Collection:
				return notApplicable
			case r.Layout == measure.Slice:
				return exact(r.ArraySlotBytesPerInstance)
			}
			return exact(r.SlotBytes)
		}}},
	"c_heap_bytes_per_instance": {{Name: "c_heap_unavailable", Label: "C heap unavailable", Unit: units.Text, Show: InJSON,
		Instance: func(r *Row) Cell { return words(r.CHeapUnavailable) }}},
	// How many instances the sites were profiled on, and why all N were
	// when fewer did not tell the figures at N.
	"build_ns": {
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
	},
	"ns_per_op_median": {{Name: "quartiles", Label: "Q1 – Q3", MarkdownLabel: "Q1–Q3", Unit: units.Nanoseconds, Show: inTables | InDefaultTable,
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
		}}},
	"c_heap_bytes_per_op": {
		{Name: "samples_ns", Unit: units.List, Show: InJSON},
		{Name: "samples_iters", Unit: units.List, Show: InJSON},
		{Name: "samples_bytes_per_op", Unit: units.List, Show: InJSON},
		{Name: "samples_allocs_per_op", Unit: units.List, Show: InJSON},
	},
}

// rowColumns are the columns after the figures: the cost of use (the
// calls a row's path makes, where one call allocates, and whether that
// depends on the cores), the notes and the error.
var rowColumns = []Column{
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
