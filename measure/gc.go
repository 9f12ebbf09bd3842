package measure

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

// ScanRule names how the collector counted the scan work of small
// objects that hold pointers (the scan bytes figure): Go 1.26's Green
// Tea collector, on an amd64 CPU with AVX-512 VL, BW, DQ, VBMI, BITALG
// and GFNI, scans a densely marked span of them on its dense path, which
// charges each object's whole slot (ScanDense); otherwise an object is
// charged up to its last pointer word (ScanToLastPointer). A 24-byte
// struct{ b []byte } scans 24 bytes under the first and 8 under the
// second: scan bytes taken under different rules do not compare.
type ScanRule string

// The scan rules.
const (
	ScanDense         ScanRule = "dense"
	ScanToLastPointer ScanRule = "last-pointer"
)

// ScanRules are the known scan rules.
var ScanRules = []ScanRule{ScanDense, ScanToLastPointer}
