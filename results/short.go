package results

// shortLabels are the short headers of the terminal table's columns, by
// JSON name: what a table too wide for the terminal shows instead of the
// label, with a legend that gives the label. A column without one keeps
// its label.
var shortLabels = map[string]string{
	"bytes_per_instance":             "B/inst",
	"allocs_per_instance":            "allocs",
	"scan_bytes_per_instance":        "scan B",
	"gc_mark_ns_per_instance":        "GC ns",
	"offheap_bytes_per_instance":     "off-heap",
	"heapalloc_bytes_per_instance":   "HeapAlloc",
	"holder_bytes_per_instance":      "holder",
	"c_heap_bytes_per_instance":      "C heap",
	"rss_bytes_per_instance":         "RSS",
	"unaccounted_bytes_per_instance": "unacct",
	"attributed_n":                   "sites N",
	"quartiles":                      "Q1–Q3",
	"cpu_ns_per_op_median":           "CPU",
	"allocs_per_op":                  "allocs",
}

// ShortLabel is the column's short header in the terminal table, or ""
// when it has none.
func (c Column) ShortLabel() string { return shortLabels[c.Name] }
