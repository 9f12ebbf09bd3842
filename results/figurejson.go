package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"sync"

	"github.com/memprof/memprof/measure"
)

// The rows' JSON: encoding/json reads a missing or null float as 0, so
// the reader decodes each row through a wire struct in which every figure
// is a wireFigure (present, null, a number, or something else), built
// from Figures with reflect.StructOf: one pass over the row, errors
// positioned in the file. Each row then records which figures its file lacked
// (figureState), and writing it leaves them out again, so that a figure
// unknown in a file stays unknown through a rewrite.

type (
	plainResults       File
	plainResult        Row
	plainThroughputRow ThroughputRow
)

// resultLegacy holds the fields of instance rows read under names
// renamed since.
type resultLegacy struct {
	LegacyCHeap            *float64 `json:"cheap_bytes_per_instance"`
	LegacyCHeapUnavailable string   `json:"cheap_unavailable"`
}

// wireFigure is one figure as a row's JSON holds it: 16 bytes, for a
// wire row holds one per figure. wireFigureText is the same with the
// text of a value that is not a number, for the message that refuses it
// (the reader decodes again with it only then).
type wireFigure struct {
	v     float64
	state figureWireState
}

type wireFigureText struct {
	wireFigure
	text string
}

type figureWireState uint8

const (
	wireMissing figureWireState = iota
	wireNull
	wireNumber
	wireNotNumber
)

// UnmarshalJSON records the value: null, a number (one too large for a
// float64 reads as ±Inf, which the reader refuses), or another value.
func (f *wireFigure) UnmarshalJSON(b []byte) error {
	*f = wireFigure{}
	switch {
	case string(b) == "null":
		f.state = wireNull
	case len(b) > 0 && (b[0] == '-' || b[0] >= '0' && b[0] <= '9'):
		v, err := strconv.ParseFloat(string(b), 64)
		if err != nil && !math.IsInf(v, 0) {
			f.state = wireNotNumber
			break
		}
		f.state, f.v = wireNumber, v
	default:
		f.state = wireNotNumber
	}
	return nil
}

// UnmarshalJSON records the value and, when it is not a number, its text.
func (f *wireFigureText) UnmarshalJSON(b []byte) error {
	f.wireFigure.UnmarshalJSON(b)
	if f.state == wireNotNumber {
		f.text = string(b)
		if len(f.text) > 40 {
			f.text = f.text[:40] + "..."
		}
	}
	return nil
}

// wireDoc holds the wire structs of the rows of a results file.
type wireDoc struct {
	instances, ops *wireRow
}

// wireRow is the wire struct of one kind of row: its plain type first,
// then its extra fields, then one figure per figure of the kind.
type wireRow struct {
	t       reflect.Type
	figures []*Figure
	first   int // the field of the first figure
}

func newWireRow(kind RowKind, figure reflect.Type, plain reflect.Type, extra ...reflect.Type) *wireRow {
	fields := []reflect.StructField{{Name: "Plain", Type: plain, Anonymous: true}}
	for i, e := range extra {
		fields = append(fields, reflect.StructField{Name: fmt.Sprintf("Extra%d", i), Type: e, Anonymous: true})
	}
	w := &wireRow{figures: FiguresOf(kind), first: len(fields)}
	for i, f := range w.figures {
		fields = append(fields, reflect.StructField{Name: fmt.Sprintf("F%d", i), Type: figure, Tag: reflect.StructTag(`json:"` + f.Name + `"`)})
	}
	w.t = reflect.StructOf(fields)
	return w
}

func newWireDoc(figure reflect.Type) *wireDoc {
	return &wireDoc{
		instances: newWireRow(RowInstances, figure, reflect.TypeFor[plainResult](), reflect.TypeFor[resultLegacy]()),
		ops:       newWireRow(RowThroughput, figure, reflect.TypeFor[plainThroughputRow]()),
	}
}

// wireDocs are the wire structs of the rows: without the texts of
// figures that are not numbers, and with them.
var wireDocs = newWireDocs()

// newWireDocs returns the function that builds the wire structs of
// Figures once, on first use.
func newWireDocs() func() [2]*wireDoc {
	return sync.OnceValue(func() [2]*wireDoc {
		return [2]*wireDoc{newWireDoc(reflect.TypeFor[wireFigure]()), newWireDoc(reflect.TypeFor[wireFigureText]())}
	})
}

// The reader (stream.go) decodes a file a row at a time: each row into
// a new wire row of its kind (wireDoc.instances.t, wireDoc.ops.t), then
// converts it, recording in the row the figures it lacks and those that
// are not numbers, and reading renamed fields under their old names
// (cheap_bytes_per_instance, cheap_unavailable; a slice row's slot_bytes,
// now array_slot_bytes_per_instance). A row with a figure that is not a
// number is decoded again through the text wire doc, for the message.

// instanceRow sets r from the wire instance row wv; bad reports a figure
// that is not a number.
func (d *wireDoc) instanceRow(wv reflect.Value, r *Row) (bad bool) {
	*r = Row(*wv.Field(0).Addr().Interface().(*plainResult))
	bad = d.instances.figuresOf(wv, r)
	legacy := wv.Field(1).Addr().Interface().(*resultLegacy)
	if r.CHeapBytesPerInstance == nil {
		r.CHeapBytesPerInstance = legacy.LegacyCHeap
	}
	if r.CHeapUnavailable == "" {
		r.CHeapUnavailable = legacy.LegacyCHeapUnavailable
	}
	if r.Layout == measure.Slice && d.instances.state(wv, arraySlot()) == wireMissing {
		// Before array_slot_bytes_per_instance, a slice row's
		// slot_bytes held the backing array's slot over N.
		r.ArraySlotBytesPerInstance, r.SlotBytes = r.SlotBytes, 0
	}
	return bad
}

// opRow sets t from the wire throughput row wv; bad reports a figure
// that is not a number.
func (d *wireDoc) opRow(wv reflect.Value, t *ThroughputRow) (bad bool) {
	*t = ThroughputRow(*wv.Field(0).Addr().Interface().(*plainThroughputRow))
	return d.ops.figuresOf(wv, t)
}

// wireFigureAt returns the figure f of the wire row wv.
func (w *wireRow) wireFigureAt(wv reflect.Value, f *Figure) (*wireFigure, string) {
	switch p := wv.Field(w.first + f.id).Addr().Interface().(type) {
	case *wireFigureText:
		return &p.wireFigure, p.text
	case *wireFigure:
		return p, ""
	}
	panic("results: not a wire figure")
}

func (w *wireRow) state(wv reflect.Value, f *Figure) figureWireState {
	wf, _ := w.wireFigureAt(wv, f)
	return wf.state
}

// figuresOf sets row's figures from the wire row wv and records what the
// file lacked; it reports a figure that is not a number.
func (w *wireRow) figuresOf(wv reflect.Value, row FigureRow) (bad bool) {
	rv, st, _ := row.figureRow()
	for _, f := range w.figures {
		wf, text := w.wireFigureAt(wv, f)
		switch wf.state {
		case wireMissing, wireNull:
			if f.omitEmpty && wf.state == wireMissing {
				st.omitted.add(f)
				break // written only when not 0: absent is 0
			}
			if f.omitEmpty {
				break
			}
			st.absent.add(f)
			if wf.state == wireNull {
				st.null.add(f)
			}
		case wireNotNumber:
			st.absent.add(f)
			st.bad = append(st.bad, badFigure{f, text, "a number"})
			bad = true
		case wireNumber:
			if f.kind != reflect.Float64 && f.kind != reflect.Pointer && (wf.v != math.Trunc(wf.v) || math.Abs(wf.v) > 1<<53) {
				text, want := fmtFloat(wf.v), "a whole number"
				if wf.v == math.Trunc(wf.v) {
					text, want = text+", out of range", "a whole number of at most "+strconv.FormatInt(1<<53, 10)
				}
				st.absent.add(f)
				st.bad = append(st.bad, badFigure{f, text, want})
				break
			}
			f.set(rv, wf.v)
		}
	}
	return bad
}

var arraySlot = sync.OnceValue(func() *Figure { return FigureNamed("array_slot_bytes_per_instance") })

// MarshalJSON writes the row, leaving out the figures it lacks (a row
// read from a file older than them).
func (r Row) MarshalJSON() ([]byte, error) {
	return marshalRow(plainResult(r), r.figures, RowInstances)
}

// MarshalJSON writes the row, leaving out the figures it lacks.
func (r ThroughputRow) MarshalJSON() ([]byte, error) {
	return marshalRow(plainThroughputRow(r), r.figures, RowThroughput)
}

func marshalRow(plain any, st figureState, kind RowKind) ([]byte, error) {
	b, err := json.Marshal(plain)
	if err != nil || st.absent == 0 {
		return b, err
	}
	drop := map[string]bool{}
	for _, f := range FiguresOf(kind) {
		if st.absent.has(f) {
			drop[f.Name] = true
		}
	}
	return omitKeys(b, drop)
}

// omitKeys returns the JSON object obj without the keys in drop, the
// others in their order.
func omitKeys(obj []byte, drop map[string]bool) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	var out bytes.Buffer
	out.WriteByte('{')
	first := true
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if drop[key] {
			continue
		}
		if !first {
			out.WriteByte(',')
		}
		first = false
		k, _ := json.Marshal(key)
		out.Write(k)
		out.WriteByte(':')
		out.Write(v)
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}
