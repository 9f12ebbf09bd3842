package results

import (
	"fmt"
	"reflect"
	"strings"
)

// rowTypes are the struct types of the kinds of rows that carry figures.
var rowTypes = map[RowKind]reflect.Type{
	RowInstances:  reflect.TypeFor[Row](),
	RowThroughput: reflect.TypeFor[ThroughputRow](),
}

// bind finds each figure's field in its row's type by its JSON name; it
// panics on an entry that names no field of a kind it can read (a mistake
// TestFiguresWellFormed reports too).
func bind(out []*Figure) {
	ids := map[RowKind]int{}
	for _, f := range out {
		t, ok := rowTypes[f.Row]
		if !ok {
			panic(fmt.Sprintf("results: figure %s: Row must be %s or %s", f.Name, RowInstances, RowThroughput))
		}
		index, ok := jsonField(t, f.Name)
		if !ok {
			panic(fmt.Sprintf("results: figure %s: no JSON field %s in %s", f.Name, f.Name, t))
		}
		sf := t.FieldByIndex(index)
		f.index, f.kind = index, sf.Type.Kind()
		switch {
		case f.kind == reflect.Float64, f.kind == reflect.Int, f.kind == reflect.Int64:
		case f.kind == reflect.Pointer && sf.Type.Elem().Kind() == reflect.Float64:
		default:
			panic(fmt.Sprintf("results: figure %s: field %s is a %s, want a number", f.Name, sf.Name, sf.Type))
		}
		_, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
		f.omitEmpty = strings.Contains(opts, "omitempty")
		f.id = ids[f.Row]
		ids[f.Row]++
		if f.id >= 64 {
			panic("results: more than 64 figures of one kind of row: widen figureSet")
		}
		if f.Samples != "" {
			f.samplesIndex = field(t, f, f.Samples, reflect.Slice)
		}
		if f.Reason != "" {
			f.reasonIndex = field(t, f, f.Reason, reflect.String)
		}
		if f.PerSample != "" {
			f.perSample = field(t, f, f.PerSample, reflect.Slice)
		}
	}
	for _, f := range out {
		if f.Resolution == "" {
			continue
		}
		for _, g := range out {
			if g.Name == f.Resolution && g.Row == f.Row {
				f.res = g
			}
		}
		if f.res == nil {
			panic(fmt.Sprintf("results: figure %s: its resolution %s is not a figure of its row", f.Name, f.Resolution))
		}
	}
}

// field finds the field of t that f's entry names (its samples or its
// reason) and checks its kind.
func field(t reflect.Type, f *Figure, name string, kind reflect.Kind) []int {
	index, ok := jsonField(t, name)
	if !ok || t.FieldByIndex(index).Type.Kind() != kind {
		panic(fmt.Sprintf("results: figure %s: no %s field %s in %s", f.Name, kind, name, t))
	}
	return index
}

// jsonField returns the index of the field of struct type t whose JSON
// name is name, the fields of embedded structs included, as
// encoding/json finds it (the shallowest wins).
func jsonField(t reflect.Type, name string) ([]int, bool) {
	return findJSONField(t, name, nil)
}

func findJSONField(t reflect.Type, name string, prefix []int) ([]int, bool) {
	type embeddedField struct {
		t     reflect.Type
		index []int
	}
	var embedded []embeddedField
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		tag, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if tag == "-" {
			continue
		}
		index := append(append([]int(nil), prefix...), i)
		if sf.Anonymous && tag == "" && sf.Type.Kind() == reflect.Struct {
			embedded = append(embedded, embeddedField{sf.Type, index})
			continue
		}
		if tag == name || (tag == "" && sf.Name == name) {
			return index, true
		}
	}
	for _, e := range embedded {
		if i, ok := findJSONField(e.t, name, e.index); ok {
			return i, true
		}
	}
	return nil, false
}
