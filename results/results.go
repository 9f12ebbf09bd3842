package results

import (
	"bufio"
	"encoding/json"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/vocab"
)

// Schema is the identifier every results file carries in its "schema" field.
// Later versions add fields; a field renamed (cheap_bytes_per_instance to
// c_heap_bytes_per_instance) is still read under its old name.
const Schema = "memprof.results/v1"

// Results is the memprof.results/v1 file: the contract between measuring and
// everything after it (renderers, budgets, compare, exports). It owns its
// slices.
type File struct {
	Schema    string      `json:"schema"`
	Env       measure.Env `json:"env"`
	Method    string      `json:"method,omitempty"`
	Instances []Row       `json:"instances"`
	// Unavailable lists the combinations that were asked for but not
	// measured, each with its kind and reason.
	Unavailable []Unavailable   `json:"unavailable,omitempty"`
	Throughput  []ThroughputRow `json:"throughput,omitempty"`
	Agreement   *Agreement      `json:"agreement,omitempty"`
	// Tradeoff holds the trade-off table of each type (Tradeoffs), as
	// the report writes it into the results it keeps; it is derived from
	// the rows above, and renderers derive it again.
	Tradeoff []Tradeoff `json:"tradeoff,omitempty"`
}

// Result is one instance case's row: its key, how an instance was made,
// and what N instances keep alive per instance. A Result with a non-empty
// Error carries no measurement.
type Row struct {
	Key
	// Constructor says how each instance was made (for example
	// "(*blst.P2Affine).Deserialize of a min-pk signature's 192-byte
	// uncompressed encoding").
	Constructor string `json:"constructor,omitempty"`
	measure.Measurement
	Sweep *measure.Sweep `json:"sweep,omitempty"`
	Error string         `json:"error,omitempty"`

	// figures records the figures the file this row was read from
	// lacked (see Figure).
	figures figureState
}

// ThroughputRow is the timing of one operation: its key (type, lib, repr,
// scheme, op, batch), what exactly is timed, and the timing.
type ThroughputRow struct {
	Key
	measure.Timing
	// Note says exactly what is timed: the API called and the checks it
	// runs.
	Note  string `json:"note,omitempty"`
	Error string `json:"error,omitempty"`
	OpCost

	figures figureState
}

// OpCost is what a throughput row says about the cost of use beyond its
// timing: the calls its path makes from the representation it starts
// from, where it allocates, and whether that depends on the cores.
type OpCost struct {
	// Path names the calls one timed call makes, in order, from the
	// row's representation to the operation's result ("Uncompress,
	// SigValidate, Verify"). It describes the row; it is not part of its
	// key.
	Path string `json:"path,omitempty"`
	// Sites are where one call allocates, largest first, from a separate
	// profiled run (see OpSite); nil when they were not profiled.
	Sites []measure.OpSite `json:"sites,omitempty"`
	// SitesCalls is the number of calls that run profiled: a site's
	// figures are multiples of 1/SitesCalls.
	SitesCalls int `json:"sites_calls,omitempty"`
	// CoresDependent says that what one call allocates depends on the
	// number of cores (the library starts worker goroutines up to
	// GOMAXPROCS, or splits its work in as many tasks): its B/op, allocs/op
	// and sites hold for the GOMAXPROCS recorded in Env only.
	CoresDependent bool `json:"allocs_depend_on_gomaxprocs,omitempty"`
	// SchedulingDependent says that what one call allocates varies from
	// call to call with how its goroutines are scheduled (three repeats of
	// the profiled calls did not agree within 2% of their bytes per call
	// at first): its sites come from more calls, until they did or the
	// time allowed for them ran out.
	SchedulingDependent bool `json:"allocs_depend_on_scheduling,omitempty"`
}

// SitesBytesPerOp is the sum of the row's sites' bytes per call.
func (c *OpCost) SitesBytesPerOp() float64 {
	var b float64
	for _, s := range c.Sites {
		b += s.BytesPerOp
	}
	return b
}

// Agreement records the cross-library agreement check run before timing.
type Agreement struct {
	Cases int         `json:"cases"`
	Libs  []vocab.Lib `json:"libs"`
	OK    bool        `json:"ok"`
	// Unavailable lists the libraries that could not take part, as
	// "<lib>: <reason>" (blst in a build without cgo).
	Unavailable []string `json:"unavailable,omitempty"`
	// Families is each family's check, in family order, when the record
	// is not of BLS12-381 alone or of KZG alone: then the fields above
	// are their sums. Records without it (every file written before
	// families) are BLS12-381's, KZG's or both, as their libraries say.
	Families []FamilyAgreement `json:"families,omitempty"`
}

// WriteJSON writes rs as indented JSON, setting its schema if empty. It
// writes what encoding/json's indenting Encoder writes of rs, a row at a
// time: no more than one row's text is held, whatever the rows.
func (rs *File) WriteJSON(w io.Writer) error {
	if rs.Schema == "" {
		rs.Schema = Schema
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := writeIndented(bw, reflect.ValueOf(rs).Elem()); err != nil {
		return err
	}
	return bw.Flush()
}

// isEmptyValue reports whether omitempty leaves v out, as encoding/json
// decides it.
func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// writeIndented writes the struct v as json.Encoder with SetIndent("",
// "  ") does, each element of a list field marshalled on its own.
func writeIndented(w *bufio.Writer, v reflect.Value) error {
	w.WriteString("{")
	first := true
	for i := range v.NumField() {
		f := v.Type().Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		fv := v.Field(i)
		if name == "-" || !f.IsExported() || (opts == "omitempty" && isEmptyValue(fv)) {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if !first {
			w.WriteString(",")
		}
		first = false
		key, err := json.Marshal(name)
		if err != nil {
			return err
		}
		w.WriteString("\n  ")
		w.Write(key)
		w.WriteString(": ")
		if fv.Kind() == reflect.Slice && fv.Len() > 0 {
			w.WriteString("[")
			for j := range fv.Len() {
				b, err := json.MarshalIndent(fv.Index(j).Interface(), "    ", "  ")
				if err != nil {
					return err
				}
				if j > 0 {
					w.WriteString(",")
				}
				w.WriteString("\n    ")
				if _, err := w.Write(b); err != nil {
					return err // the writer refused (an interrupt): stop marshalling
				}
			}
			w.WriteString("\n  ]")
			continue
		}
		b, err := json.MarshalIndent(fv.Interface(), "  ", "  ")
		if err != nil {
			return err
		}
		w.Write(b)
	}
	if !first {
		w.WriteString("\n")
	}
	_, err := w.WriteString("}\n")
	return err
}

// Sort orders every list of rs by the one ordering of keys (Compare),
// stably.
func (rs *File) Sort() {
	slices.SortStableFunc(rs.Instances, func(a, b Row) int { return Compare(a.Key, b.Key) })
	slices.SortStableFunc(rs.Throughput, func(a, b ThroughputRow) int { return Compare(a.Key, b.Key) })
	slices.SortStableFunc(rs.Unavailable, func(a, b Unavailable) int { return Compare(a.Key, b.Key) })
}

// Unavailable is a combination that was asked for but not measured, and
// why.
type Unavailable struct {
	Key
	vocab.Why
}
