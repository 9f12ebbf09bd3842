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
